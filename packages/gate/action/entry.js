// The Action's one step of substance: runs `warden-gate check` once, annotations on stdout, and
// turns the reports that run writes into the job summary and the step's outputs. It judges
// nothing itself: the verdict is read from the gate's JSON report, never guessed from an exit
// code. Plain Node (20 or later), no dependencies, no build.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

/**
 * Exit code of a run that decided nothing: the gate's own error code (3), used too for a failure
 * of this step's own (an input it cannot use, no gate to run). 0, 1 and 2 are verdicts.
 */
const ERROR_EXIT = 3;

/** A problem with the Action's inputs: reported in one line, like the gate's usage errors. */
class InputError extends Error {}

/** An input of action.yml, as the composite step passes it: INPUT_<NAME>, `-` spelled `_`. */
function input(name) {
  return (process.env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] ?? '').trim();
}

/** A boolean input, read as GitHub's own inputs are: true or false (empty is false). */
function flag(name) {
  const value = input(name).toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new InputError(`input ${name} must be true or false, got "${input(name)}"`);
}

/** Data of a workflow command, escaped as the runner expects. */
function commandData(text) {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Masks every header value (and a credential after a scheme, as in "Bearer abc") before anything
 * is printed, including a malformed line, which may be a secret pasted whole.
 */
function maskHeaders(text) {
  const secrets = [];
  for (const line of text.split(/\r?\n/).map((l) => l.trim())) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    const value = colon > 0 ? line.slice(colon + 1).trim() : line;
    const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    for (const secret of [value, credential]) {
      if (secret && !secrets.includes(secret)) secrets.push(secret);
    }
  }
  for (const secret of secrets) process.stdout.write(`::add-mask::${commandData(secret)}\n`);
  return secrets;
}

/** `--header` arguments, one per `Name: value` line; a bad line is named by number, not echoed. */
function headerArgs(text) {
  const args = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    if (line.indexOf(':') <= 0) throw new InputError(`input headers: line ${i + 1} is not "Name: value"`);
    args.push('--header', line);
  });
  return args;
}

/**
 * Splits a command line into words as a POSIX shell does for quotes and backslashes (no
 * variables, globs or pipes): `node "my server.js" --port 1` is three words.
 */
function splitWords(text, name) {
  const words = [];
  let word = null;
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && '"\\$`'.includes(text[i + 1] ?? '')) word += text[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word ??= '';
      if (c === "'" || c === '"') quote = c;
      else if (c === '\\' && i + 1 < text.length) word += text[++i];
      else word += c;
    }
  }
  if (quote !== null) throw new InputError(`input ${name} has an unclosed ${quote} quote`);
  if (word !== null) words.push(word);
  return words;
}

/** The gate's argv: one `check` run writing Markdown, JSON (and SARIF when asked) beside stdout. */
function gateArgs(reports) {
  const argv = ['check', '--lock', input('lock') || 'mcp-lock.json'];
  if (input('url')) argv.push('--url', input('url'));
  argv.push(...headerArgs(input('headers')));
  if (input('manifest')) argv.push('--manifest', input('manifest'));
  if (input('config')) argv.push('--config', input('config'));
  if (input('calls')) argv.push('--calls', input('calls'));
  if (flag('allow-unknown')) argv.push('--allow-unknown');
  if (flag('strict-descriptions')) argv.push('--strict-descriptions');
  if (flag('update-lock')) argv.push('--update-lock', '--reason', updateReason());
  if (input('config-file')) argv.push('--config-file', input('config-file'));
  if (input('fail-on')) argv.push('--fail-on', input('fail-on'));
  argv.push('--format', 'github');
  argv.push('--report', `markdown=${reports.markdown}`, '--report', `json=${reports.json}`);
  if (reports.sarif) argv.push('--report', `sarif=${reports.sarif}`);
  argv.push(...splitWords(input('args'), 'args'));
  const command = splitWords(input('command'), 'command');
  if (command.length > 0) argv.push('--', ...command);
  return argv;
}

/** The reason recorded with each change `update-lock` takes in: this workflow run, when known. */
function updateReason() {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = process.env;
  const where = server && repo && id ? `${server}/${repo}/actions/runs/${id}` : 'a workflow run';
  return `compatible change taken in by the Warden gate Action (${where})`;
}

/** The lock's bytes, to tell whether the run rewrote it (undefined when there is none). */
function lockBytes() {
  try {
    return fs.readFileSync(input('lock') || 'mcp-lock.json');
  } catch {
    return undefined;
  }
}

/** The gate's executable script: given outright, or found in the prefix the package was installed to. */
function gateBin() {
  const given = process.env.WARDEN_GATE_BIN;
  if (given) {
    if (!fs.existsSync(given)) throw new InputError(`no gate at ${given}`);
    return path.resolve(given);
  }
  const prefix = process.env.WARDEN_GATE_PREFIX;
  if (!prefix)
    throw new InputError('the gate is not installed (neither WARDEN_GATE_BIN nor WARDEN_GATE_PREFIX)');
  const deps = Object.keys(readJson(path.join(prefix, 'package.json'))?.dependencies ?? {});
  for (const name of deps) {
    const dir = path.join(prefix, 'node_modules', ...name.split('/'));
    const bin = readJson(path.join(dir, 'package.json'))?.bin;
    const script = typeof bin === 'string' ? bin : bin?.['warden-gate'];
    if (script) return path.join(dir, script);
  }
  throw new InputError(`no package installed in ${prefix} provides warden-gate`);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Runs the gate with stdout passed straight through (annotations) and stderr kept for the summary. */
function runGate(bin, argv) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...argv], { stdio: ['ignore', 'inherit', 'pipe'] });
    const err = [];
    child.stderr.on('data', (chunk) => {
      err.push(chunk);
      process.stderr.write(chunk);
    });
    child.on('error', (e) => resolve({ code: null, stderr: e.message }));
    child.on('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** Appends `name=value`, or the delimiter form when the value holds a line break. */
function outputLine(name, value) {
  const text = String(value);
  if (!/[\r\n]/.test(text)) return `${name}=${text}\n`;
  let delimiter;
  do delimiter = `warden_${randomUUID()}`;
  while (text.includes(delimiter));
  return `${name}<<${delimiter}\n${text}\n${delimiter}\n`;
}

function appendTo(variable, text) {
  const file = process.env[variable];
  if (file) fs.appendFileSync(file, text);
}

function redact(text, secrets) {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}

/** The one summary line of a run that decided nothing, quoting the gate (or this step) as plain text. */
function errorSummary(message, code) {
  const line = message.replace(/\s+/g, ' ').trim() || 'no message';
  const html = line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `### Warden gate: error\n\nThe gate stopped before deciding (exit code ${code}): ${html}\n`;
}

function finish(outputs, summary, secrets, code) {
  appendTo('GITHUB_STEP_SUMMARY', redact(summary, secrets));
  appendTo(
    'GITHUB_OUTPUT',
    Object.entries(outputs)
      .map(([k, v]) => outputLine(k, v))
      .join(''),
  );
  process.exitCode = code;
}

/** The outputs and summary of a run that decided nothing: never a pass, never "breaking" either. */
function failed(message, code, secrets) {
  finish({ verdict: 'error', 'exit-code': code }, errorSummary(message, code), secrets, code);
}

/** The outputs and summary of a run the gate decided, read from its own reports. */
function decided(doc, reports, code, secrets, lockUpdated) {
  const outputs = { verdict: doc.verdict, 'exit-code': code };
  for (const key of ['breaking', 'unknown', 'compatible', 'identical'])
    outputs[key] = doc.summary?.[key] ?? '';
  outputs.sarif = reports.sarif && fs.existsSync(reports.sarif) ? input('sarif') : '';
  outputs['lock-updated'] = String(lockUpdated);
  const markdown = fs.existsSync(reports.markdown) ? fs.readFileSync(reports.markdown, 'utf8') : '';
  finish(outputs, markdown, secrets, code);
}

async function main() {
  const secrets = maskHeaders(input('headers'));
  const work = fs.mkdtempSync(path.join(process.env.RUNNER_TEMP || os.tmpdir(), 'warden-gate-'));
  try {
    const sarif = input('sarif') ? path.resolve(input('sarif')) : '';
    const reports = { markdown: path.join(work, 'report.md'), json: path.join(work, 'report.json'), sarif };
    let argv, bin;
    try {
      argv = gateArgs(reports);
      bin = gateBin();
      if (sarif) makeFolder(path.dirname(sarif));
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      process.stderr.write(`warden-gate action: ${err.message}\n`);
      failed(err.message, ERROR_EXIT, secrets);
      return;
    }
    const before = lockBytes();
    const { code, stderr } = await runGate(bin, argv);
    const after = lockBytes();
    const updated = before !== undefined && after !== undefined && !before.equals(after);
    const doc = readJson(reports.json);
    if (doc && typeof doc.verdict === 'string') decided(doc, reports, code ?? ERROR_EXIT, secrets, updated);
    // No report, nothing decided: whatever the process ended with, never a verdict's code.
    else failed(stderr, ERROR_EXIT, secrets);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function makeFolder(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new InputError(`input sarif: cannot create ${dir}: ${err.code ?? err.message}`);
  }
}

try {
  await main();
} catch (err) {
  // A fault of this script's own: one line, and never exit 0 or 1 after it.
  process.exitCode = ERROR_EXIT;
  const message = `the Action stopped on an internal error (${err?.name ?? typeof err}); nothing was decided`;
  process.stderr.write(`warden-gate action: ${message}\n`);
  try {
    failed(message, ERROR_EXIT, []);
  } catch {
    // The summary or outputs file is what failed: the exit code still says it.
  }
}
