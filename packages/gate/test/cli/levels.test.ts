// Levels, the configuration file and --fail-on through the real executable, against a real
// stdio server: a release that serves empty schemas (zod 4), one that lowers an argument and
// lists a defaulted property as required, an exception past its date, a bad configuration.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';

const GATE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(GATE, 'bin', 'warden-gate.js');
const SERVER = path.join(GATE, 'test', 'fixtures', 'compat', 'servers', 'stdio-tools.ts');
const run = promisify(execFile);

const path_ = { type: 'string' };
const v1 = {
  tools: [
    {
      name: 'read_file',
      inputSchema: {
        type: 'object',
        properties: { path: path_, tail: { type: 'number' } },
        required: ['path'],
      },
    },
    { name: 'search', inputSchema: { type: 'object', properties: { q: path_, limit: { type: 'number' } } } },
    {
      name: 'browse',
      inputSchema: { type: 'object', properties: { headless: { type: 'boolean', default: true } } },
    },
  ],
};
/** Every tool served with `{"type":"object"}`: what a server built with zod 4 served. */
const emptied = { tools: v1.tools.map((t) => ({ ...t, inputSchema: { type: 'object' } })) };
/** One argument gone, one defaulted property now required. */
const v2 = {
  tools: [
    v1.tools[0],
    { name: 'search', inputSchema: { type: 'object', properties: { q: path_ } } },
    { ...v1.tools[2], inputSchema: { ...v1.tools[2]?.inputSchema, required: ['headless'] } },
  ],
};

let dir = '';
const served = (): string => path.join(dir, 'served.json');

async function gate(args: string[], tools?: object) {
  if (tools) fs.writeFileSync(served(), JSON.stringify(tools));
  const server = ['--', process.execPath, '--import', import.meta.resolve('tsx'), SERVER, served()];
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args, ...server], { cwd: dir });
    return { code: 0, out: stdout, err: stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
  }
}

const config = (doc: object): void =>
  fs.writeFileSync(path.join(dir, 'warden-gate.config.json'), `${JSON.stringify(doc, null, 2)}\n`);

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-levels-'));
  const pinned = await gate(['pin'], v1);
  assert.equal(pinned.code, 0, pinned.err);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('levels, warden-gate.config.json and --fail-on (the real executable, a real stdio server)', () => {
  it('a release serving empty schemas is unknown: exit 2, saying an agent can no longer form calls', async () => {
    const r = await gate(['check'], emptied);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(
      r.out,
      /read_file: unknown — every declared argument \(\["path","tail"\]\) is gone from the schema: an agent can no longer form calls from it \(all-arguments-removed/,
    );
  });

  it('a vanished argument is a warning: shown, exit 0; --fail-on warning fails it with 1', async () => {
    const one = { tools: [v1.tools[0], v2.tools[1], v1.tools[2]] };
    const r = await gate(['check'], one);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /^ {2}search: compatible \(warning\) — argument "limit" is no longer declared/m);
    const gh = await gate(['check', '--format', 'github']);
    assert.match(
      gh.out,
      /^::warning file=mcp-lock\.json,line=\d+,title=warden gate%3A search compatible \(argument-removed\)::/m,
    );
    assert.equal((await gate(['check', '--fail-on', 'warning'])).code, 1);
    config({ failOn: 'warning' });
    assert.equal((await gate(['check'])).code, 1, 'failOn in the configuration');
    assert.equal((await gate(['check', '--fail-on', 'error'])).code, 0, '--fail-on overrides it');
    fs.rmSync(path.join(dir, 'warden-gate.config.json'));
  });

  it('required with a default is its own rule: breaking (1) until the configuration lowers it', async () => {
    const r = await gate(['check'], v2);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(
      r.out,
      /browse: breaking — property "headless" became required, though it declares a default \(property-required-with-default/,
    );
    config({ rules: { 'property-required-with-default': 'warning' } });
    const lowered = await gate(['check']);
    assert.equal(lowered.code, 0, lowered.out + lowered.err);
    assert.match(lowered.out, /^ {2}browse: breaking \(warning\)/m);
    fs.rmSync(path.join(dir, 'warden-gate.config.json'));
  });

  it('an exception lowers a finding with its reason; past its date it fails the run, named', async () => {
    const exception = {
      tool: 'browse',
      rule: 'property-required-with-default',
      reason: 'zod 4 lists defaults as required',
    };
    config({ exceptions: [{ ...exception, expires: '2999-12-31' }] });
    const json = await gate(['check', '--format', 'json'], v2);
    assert.equal(json.code, 0, json.out + json.err);
    const doc = JSON.parse(json.out) as {
      servers: { items: { name: string; findings: Record<string, unknown>[] }[] }[];
    };
    const browse = doc.servers[0]?.items.find((i) => i.name === 'browse')?.findings[0];
    assert.equal(browse?.level, 'info');
    assert.deepEqual(browse?.exception, { reason: exception.reason, expires: '2999-12-31' });
    const schema = JSON.parse(
      fs.readFileSync(path.join(GATE, 'schema', 'report.schema.json'), 'utf8'),
    ) as object;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    assert.equal(validate(doc), true, JSON.stringify(validate.errors));

    const text = await gate(['check']);
    assert.equal(text.code, 0, text.out + text.err);
    assert.match(
      text.out,
      /^ {2}browse: breaking \(info\) — .* \(property-required-with-default at \/inputSchema\/required\) — excepted until 2999-12-31: zod 4 lists defaults as required$/m,
    );

    config({ exceptions: [{ ...exception, expires: '2020-01-31' }] });
    const r = await gate(['check', '--format', 'github']);
    assert.equal(r.code, 1, r.out + r.err);
    const line =
      'exception expired on 2020-01-31 (tool browse, rule property-required-with-default) in warden-gate.config.json: "zod 4 lists defaults as required"; renew its date or remove it';
    assert.equal(r.err, `warden-gate: ${line}\n`);
    assert.match(
      r.out,
      /^::error file=warden-gate\.config\.json,line=7,title=warden gate%3A exception expired::exception expired on 2020-01-31/m,
    );
    fs.rmSync(path.join(dir, 'warden-gate.config.json'));
  });

  it('a bad configuration stops the run in one line, exit 3, before the server is started', async () => {
    config({ rules: { 'argument-remove': 'off' } });
    const r = await gate(['check'], v2);
    assert.equal(r.code, 3);
    assert.match(
      r.err,
      /^warden-gate check: warden-gate\.config\.json: rules: no rule "argument-remove"; nearest: argument-removed, [a-z-]+, [a-z-]+\n$/,
    );
    const missing = await gate(['check', '--config-file', 'none.json']);
    assert.equal(missing.code, 3);
    assert.equal(missing.err, 'warden-gate check: cannot read none.json: ENOENT\n');
    fs.rmSync(path.join(dir, 'warden-gate.config.json'));
  });
});
