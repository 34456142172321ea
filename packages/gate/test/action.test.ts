import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { main } from '../src/cli/main.ts';
import { bufferIo } from '../src/host/io.ts';
import { schemaProblem } from '../src/compat/validator.ts';

const GATE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = path.join(GATE, 'action', 'entry.js');
const BIN = path.join(GATE, 'bin', 'warden-gate.js');
const SERVER = path.join(GATE, 'test', 'fixtures', 'compat', 'servers', 'stdio-tools.ts');
const run = promisify(execFile);

const search = {
  name: 'search',
  description: 'Search the catalogue',
  inputSchema: {
    type: 'object',
    properties: { q: { type: 'string' }, limit: { type: 'number' } },
    required: ['q'],
  },
};
const greet = {
  name: 'greet',
  description: 'Say hello',
  inputSchema: { type: 'object', properties: { who: { type: 'string' } } },
};
const v1 = { tools: [search, greet] };
const breaking = {
  tools: [
    {
      ...search,
      inputSchema: {
        ...search.inputSchema,
        properties: { q: { type: 'string' }, limit: { type: 'integer' } },
      },
    },
    greet,
  ],
};
const compatible = {
  tools: [
    search,
    {
      ...greet,
      inputSchema: { type: 'object', properties: { who: { type: 'string' }, loud: { type: 'boolean' } } },
    },
  ],
};

// A folder name with a space: paths reach the gate as whole words, through every layer.
let dir = '';
let lock = '';
const file = (name: string): string => path.join(dir, name);
function write(name: string, doc: unknown): string {
  fs.writeFileSync(file(name), JSON.stringify(doc));
  return file(name);
}

before(async () => {
  if (!fs.existsSync(path.join(GATE, 'dist', 'bin.js')))
    execFileSync(process.execPath, ['build.js'], { cwd: GATE, stdio: 'inherit' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden action '));
  lock = file('mcp-lock.json');
  await run(process.execPath, [BIN, 'pin', '--manifest', write('v1.json', v1), '--lock', lock]);
  write('breaking.json', breaking);
  write('compatible.json', compatible);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Reads a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2] as string, i + 1);
      assert.ok(end > i, `unterminated output ${block[1]}`);
      out[block[1] as string] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
}

/** Runs the Action's script as the runner would: inputs and the runner's files in the environment. */
async function action(
  inputs: Record<string, string>,
  gate: Record<string, string> = { WARDEN_GATE_BIN: BIN },
): Promise<ActionRun> {
  const job = fs.mkdtempSync(path.join(dir, 'job-'));
  const summaryFile = path.join(job, 'summary.md');
  const outputFile = path.join(job, 'output.txt');
  // The runner's own variables (when this suite itself runs in a workflow) must not leak in.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(INPUT_|GITHUB_|RUNNER_|WARDEN_GATE_)/.test(k)),
  );
  const env: Record<string, string | undefined> = {
    ...inherited,
    ...gate,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    RUNNER_TEMP: job,
  };
  for (const [name, value] of Object.entries(inputs))
    env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] = value;
  let result: { code: number; stdout: string; stderr: string };
  try {
    const { stdout, stderr } = await run(process.execPath, [ENTRY], { cwd: dir, env });
    result = { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    result = { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
  const read = (f: string): string => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '');
  const leftovers = fs.readdirSync(job).filter((f) => f.startsWith('warden-gate-'));
  assert.deepEqual(leftovers, [], 'the reports folder is removed');
  return { ...result, summary: read(summaryFile), outputs: parseOutputs(read(outputFile)) };
}

const OUTPUTS = [
  'verdict',
  'exit-code',
  'breaking',
  'unknown',
  'compatible',
  'identical',
  'sarif',
  'lock-updated',
];

describe('the GitHub Action (entry script, real gate)', () => {
  it('a breaking change: annotations, the Markdown table, outputs with counts, SARIF, exit 1', async () => {
    const r = await action({ lock, manifest: file('breaking.json'), sarif: 'out/warden.sarif' });
    assert.equal(r.code, 1);
    // Anchored to the lock's line of the tool, relative to the job's working directory.
    assert.match(
      r.stdout,
      /^::error file=mcp-lock\.json,line=\d+,title=warden gate%3A search breaking \(type-narrowed\)::.*%0Aaccept: warden-gate accept /m,
    );
    assert.match(r.stdout, /^warden gate: 1 breaking, 1 identical in 1 server$/m);
    assert.match(r.summary, /^### Warden gate: breaking\n\n1 breaking, 1 identical in 1 server$/m);
    assert.match(r.summary, /^\| \| item \| verdict \| key finding \| where \|$/m);
    assert.match(
      r.summary,
      /^\| ❌ \| tool <code>search<\/code> \| breaking \| .* \(<code>type-narrowed<\/code>\) \|/m,
    );
    assert.match(r.summary, /^```sh\nwarden-gate accept .* --tool search@sha256:[0-9a-f]{64}\n```$/m);
    assert.deepEqual(r.outputs, {
      verdict: 'breaking',
      'exit-code': '1',
      breaking: '1',
      unknown: '0',
      compatible: '0',
      identical: '1',
      sarif: 'out/warden.sarif',
      'lock-updated': 'false',
    });
    const sarif = JSON.parse(fs.readFileSync(file('out/warden.sarif'), 'utf8'));
    assert.equal(sarif.version, '2.1.0');
    assert.equal(sarif.runs[0].results[0].ruleId, 'type-narrowed');
  });

  it('an identical server: passes, silent in the log, says so in the summary, counts every tool as identical', async () => {
    const r = await action({ lock, manifest: file('v1.json') });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '', 'no annotation, no line: silent on identical');
    assert.match(r.summary, /^### Warden gate: identical\n\nno change: 2 items identical in 1 server\n$/);
    assert.deepEqual(r.outputs, {
      verdict: 'identical',
      'exit-code': '0',
      breaking: '0',
      unknown: '0',
      compatible: '0',
      identical: '2',
      sarif: '',
      'lock-updated': 'false',
    });
  });

  it('a usage error of the gate: verdict error, its message on one summary line, a failing exit', async () => {
    const r = await action({ lock: file('missing-lock.json'), manifest: file('v1.json'), sarif: 'x.sarif' });
    assert.equal(r.code, 3, 'an error, never a verdict');
    assert.deepEqual(r.outputs, { verdict: 'error', 'exit-code': '3' });
    const lines = r.summary.trim().split('\n').filter(Boolean);
    assert.equal(lines.length, 2);
    assert.equal(lines[0], '### Warden gate: error');
    assert.match(lines[1] as string, /no lockfile at .*missing-lock\.json; run "warden-gate pin" first/);
    assert.match(r.stderr, /no lockfile at/);
    assert.equal(fs.existsSync(file('x.sarif')), false);
  });

  it('masks header values before printing anything, and a malformed line is named, not echoed', async () => {
    const ok = await action({
      lock,
      manifest: file('v1.json'),
      headers: 'Authorization: Bearer s3cret-token\n',
    });
    assert.equal(ok.code, 0);
    assert.equal(ok.stdout, '::add-mask::Bearer s3cret-token\n::add-mask::s3cret-token\n');
    const bad = await action({
      lock,
      manifest: file('v1.json'),
      headers: 'X-Api-Key: k3y\nAuthorization Bearer pasted-s3cret',
    });
    assert.equal(bad.code, 3);
    assert.match(bad.stdout, /^::add-mask::k3y\n::add-mask::Authorization Bearer pasted-s3cret\n/);
    assert.equal(bad.outputs.verdict, 'error');
    assert.match(bad.summary, /input headers: line 2 is not "Name: value"/);
    assert.doesNotMatch(bad.summary + bad.stderr, /pasted-s3cret|k3y/);
  });

  it('a stdio server given as one command line, quoted paths and all', async () => {
    const tsx = import.meta.resolve('tsx');
    const command = `'${process.execPath}' --import ${tsx} '${SERVER}' '${file('compatible.json')}'`;
    const r = await action({ lock, command, 'strict-descriptions': 'true' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.outputs.verdict, 'compatible');
    assert.equal(r.outputs.compatible, '1');
    // The live server serves surfaces the manifest-made lock never pinned, so the run is not
    // silent (its summary line is printed), but a compatible item is never annotated.
    assert.doesNotMatch(r.stdout, /^::/m);
  });

  it('update-lock: a compatible change taken into the lock with the run as its reason, never a breaking one', async () => {
    const drift = file('drift-lock.json');
    fs.copyFileSync(lock, drift);
    const runner = {
      WARDEN_GATE_BIN: BIN,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/tools',
      GITHUB_RUN_ID: '4242',
    };
    const breakingRun = await action(
      { lock: 'drift-lock.json', manifest: file('breaking.json'), 'update-lock': 'true' },
      runner,
    );
    assert.equal(breakingRun.code, 1);
    assert.equal(breakingRun.outputs['lock-updated'], 'false');
    assert.equal(fs.readFileSync(drift, 'utf8'), fs.readFileSync(lock, 'utf8'), 'the lock untouched');
    assert.match(breakingRun.stderr, /drift-lock\.json not updated: the change is breaking/);
    const r = await action(
      { lock: 'drift-lock.json', manifest: file('compatible.json'), 'update-lock': 'true' },
      runner,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '', 'silent on compatible, as without update-lock');
    assert.equal(r.outputs.verdict, 'compatible');
    assert.equal(r.outputs['lock-updated'], 'true');
    assert.match(
      r.stderr,
      /^warden-gate check: drift-lock\.json updated: took in 1 compatible change: 1 tool changed/m,
    );
    const audit = JSON.parse(fs.readFileSync(drift, 'utf8')).audit as { by: string; reason?: string }[];
    assert.deepEqual(
      audit.at(-1)?.reason,
      'compatible change taken in by the Warden gate Action (https://github.com/acme/tools/actions/runs/4242)',
    );
    assert.equal(audit.at(-1)?.by, 'auto');
    const again = await action(
      { lock: 'drift-lock.json', manifest: file('compatible.json'), 'update-lock': 'true' },
      runner,
    );
    assert.equal(again.code, 0);
    assert.equal(again.outputs.verdict, 'identical');
    assert.equal(again.outputs['lock-updated'], 'false');
    assert.equal(again.stdout + again.stderr, '', 'nothing left to take in, nothing said');
  });

  it('refuses an input that is not true or false, before the gate runs', async () => {
    const r = await action({ lock, manifest: file('v1.json'), 'allow-unknown': 'yes' });
    assert.equal(r.code, 3);
    assert.deepEqual(r.outputs, { verdict: 'error', 'exit-code': '3' });
    assert.match(r.summary, /input allow-unknown must be true or false, got "yes"/);
  });

  it('with no package input, runs the bundle committed with the Action: the runner played step by step', async () => {
    const job = fs.mkdtempSync(path.join(dir, 'bundle-'));
    const step = (readAction().runs.steps as Step[]).find((s) => s.id === 'install');
    const outputFile = path.join(job, 'output.txt');
    // The install step as the runner runs it: GITHUB_ACTION_PATH is the Action's folder.
    await run('bash', ['-c', step?.run ?? 'false'], {
      cwd: job,
      env: {
        PATH: process.env.PATH,
        WARDEN_GATE_PACKAGE: '',
        GITHUB_ACTION_PATH: GATE,
        RUNNER_TEMP: job,
        GITHUB_OUTPUT: outputFile,
      },
    });
    const installed = parseOutputs(fs.readFileSync(outputFile, 'utf8'));
    assert.deepEqual(installed, { bin: path.join(GATE, 'action', 'bundle', 'warden-gate.mjs') });
    // Then the check step, with the install step's outputs as action.yml passes them.
    const r = await action(
      { lock, manifest: file('breaking.json') },
      { WARDEN_GATE_BIN: installed.bin ?? '', WARDEN_GATE_PREFIX: '' },
    );
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.outputs.verdict, 'breaking');
    assert.equal(r.outputs.breaking, '1');
    assert.match(r.stdout, /^::error file=mcp-lock\.json,line=\d+,title=warden gate%3A search breaking/m);
    assert.match(r.summary, /Warden gate: breaking/);
    const quiet = await action(
      { lock, manifest: file('compatible.json') },
      { WARDEN_GATE_BIN: installed.bin ?? '', WARDEN_GATE_PREFIX: '' },
    );
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.outputs.verdict, 'compatible');
    assert.doesNotMatch(quiet.stdout, /^::(error|warning)/m);
  });

  it('installs the packed gate as the composite step does, and runs it from the prefix', async () => {
    const job = fs.mkdtempSync(path.join(dir, 'install-'));
    // The dist this suite already runs on: packing without prepack leaves it as it is.
    await run(
      'npm',
      ['pack', '-w', 'packages/gate', '--ignore-scripts', '--pack-destination', job, '--silent'],
      {
        cwd: path.resolve(GATE, '..', '..'),
      },
    );
    const tarball = fs.readdirSync(job).find((f) => f.endsWith('.tgz'));
    assert.ok(tarball);
    const step = (readAction().runs.steps as Step[]).find((s) => s.id === 'install');
    const outputFile = path.join(job, 'output.txt');
    await run('bash', ['-c', step?.run ?? 'false'], {
      cwd: job,
      env: {
        ...process.env,
        WARDEN_GATE_PACKAGE: `./${tarball}`,
        RUNNER_TEMP: job,
        GITHUB_OUTPUT: outputFile,
        npm_config_offline: 'true',
      },
    });
    const prefix = parseOutputs(fs.readFileSync(outputFile, 'utf8')).prefix ?? '';
    assert.ok(fs.existsSync(path.join(prefix, 'node_modules', '@warden-mcp', 'gate', 'dist', 'bin.js')));
    const r = await action({ lock, manifest: file('breaking.json') }, { WARDEN_GATE_PREFIX: prefix });
    assert.equal(r.code, 1);
    assert.equal(r.outputs.verdict, 'breaking');
    // Installed alone, the gate reads every dialect it knows: whatever it loads at run time
    // (a meta-schema, say) is in the package, not in this repository's node_modules.
    const installedBin = path.join(prefix, 'node_modules', '@warden-mcp', 'gate', 'bin', 'warden-gate.js');
    type Report = {
      servers: { items: { findings: { rule: string; message: string; witness?: unknown }[] }[] }[];
    };
    /** The installed gate's diff of two manifests, which must not pass: its exit code and first finding. */
    const notPassed = async (before: string, after: string): Promise<{ code: number; finding: unknown }> => {
      const out = await run(process.execPath, [installedBin, 'diff', before, after, '--json'], {
        cwd: job,
      }).then(
        () => assert.fail(`${after}: answered with exit 0`),
        (err: { code: number; stdout: string }) => err,
      );
      const report = JSON.parse(out.stdout) as Report;
      return { code: out.code, finding: report.servers[0]?.items[0]?.findings[0] };
    };
    for (const $schema of [
      'http://json-schema.org/draft-06/schema#',
      'http://json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft/2019-09/schema',
      'https://json-schema.org/draft/2020-12/schema',
    ]) {
      const side = (name: string, s: Record<string, unknown>): string =>
        write(`dialect-${name}.json`, {
          tools: [{ name: 'echo', inputSchema: { $schema, type: 'object', properties: { s } } }],
        });
      const before = side('open', { type: 'string' });
      const shorter = await notPassed(before, side('shorter', { type: 'string', maxLength: 3 }));
      assert.deepEqual(
        shorter,
        {
          code: 1,
          finding: {
            rule: 'max-length-decreased',
            verdict: 'breaking',
            level: 'error',
            pointer: '/inputSchema/properties/s/maxLength',
            message: 'maxLength lowered from absent to 3',
            witness: { s: 'aaaa' },
            exception: null,
          },
        },
        $schema,
      );
      // An invalid schema is refused with the words Ajv gives from source, where it builds the
      // meta-schema's validator itself (the package carries it built).
      const invalid = { type: 'string', minLength: -1 };
      const refused = await notPassed(before, side('invalid', invalid));
      const said = refused.finding as { rule: string; message: string };
      assert.equal(refused.code, 2, $schema);
      assert.equal(said.rule, 'schema-invalid', $schema);
      const whole = { $schema, type: 'object', properties: { s: invalid } };
      assert.equal(said.message, `a schema does not compile: ${schemaProblem(whole)}`, $schema);
    }
  });
});

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}

function readAction(): {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
} {
  return parseYaml(fs.readFileSync(path.join(GATE, 'action.yml'), 'utf8'));
}

describe('action.yml', () => {
  it('is a composite action whose inputs are the ones the entry script reads, each passed through', () => {
    const doc = readAction();
    assert.equal(doc.runs.using, 'composite');
    const source = fs.readFileSync(ENTRY, 'utf8');
    const read = new Set([...source.matchAll(/\b(?:input|flag)\('([a-z-]+)'\)/g)].map((m) => m[1] as string));
    const declared = Object.keys(doc.inputs);
    assert.deepEqual(
      [...read].filter((n) => !declared.includes(n)),
      [],
      'read but not declared',
    );
    // package and node-version are consumed by the composite's own steps.
    assert.deepEqual(
      declared.filter((n) => !read.has(n)),
      ['package', 'node-version'],
      'declared but never read',
    );
    const check = doc.runs.steps.find((s) => s.id === 'check');
    for (const name of read)
      assert.equal(
        check?.env?.[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`],
        `\${{ inputs.${name} }}`,
        name,
      );
  });

  it('declares exactly the outputs the script writes, and installs the version of this package', () => {
    const doc = readAction();
    assert.deepEqual(Object.keys(doc.outputs), OUTPUTS);
    for (const name of OUTPUTS) assert.equal(doc.outputs[name]?.value, `\${{ steps.check.outputs.${name} }}`);
    const { version } = JSON.parse(fs.readFileSync(path.join(GATE, 'package.json'), 'utf8')) as {
      version: string;
    };
    // Optional, and no registry default: empty runs the committed bundle, and a name nobody owns
    // is never installed by default.
    assert.equal(doc.inputs.package?.default, '');
    assert.equal(doc.inputs.package?.required, undefined);
    assert.ok(version);
    const install = doc.runs.steps.find((s) => s.id === 'install');
    assert.match(install?.run ?? '', /npm install --prefix /);
    assert.match(install?.run ?? '', /action\/bundle\/warden-gate\.mjs/);
    assert.doesNotMatch(JSON.stringify(doc), /npx /);
  });
});

async function gate(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

describe('--report FORMAT=FILE', () => {
  it('writes each format from the one run, exactly as --format prints it', async () => {
    const out = fs.mkdtempSync(path.join(dir, 'reports-'));
    fs.writeFileSync(path.join(out, 'old.json'), 'replaced whole');
    const r = await gate(
      'check',
      '--manifest',
      file('breaking.json'),
      '--lock',
      lock,
      '--report',
      `json=${path.join(out, 'old.json')}`,
      '--report',
      `sarif=${path.join(out, 'r.sarif')}`,
      '--report',
      `junit=${path.join(out, 'r.xml')}`,
    );
    assert.equal(r.code, 1);
    for (const [format, name] of [
      ['text', null],
      ['json', 'old.json'],
      ['sarif', 'r.sarif'],
      ['junit', 'r.xml'],
    ] as const) {
      const alone = await gate(
        'check',
        '--manifest',
        file('breaking.json'),
        '--lock',
        lock,
        '--format',
        format,
      );
      assert.equal(name ? fs.readFileSync(path.join(out, name), 'utf8') : r.out, alone.out, format);
    }
    assert.deepEqual(fs.readdirSync(out).sort(), ['old.json', 'r.sarif', 'r.xml'], 'no temporary file left');
  });

  it('diff takes it too', async () => {
    const md = file('diff.md');
    const r = await gate('diff', file('v1.json'), file('compatible.json'), '--report', `markdown=${md}`);
    assert.equal(r.code, 0);
    assert.match(fs.readFileSync(md, 'utf8'), /^### Warden gate: compatible\n/);
  });

  for (const [value, message] of [
    [
      'yaml=out.yaml',
      /^warden-gate check: --report format must be one of text, json, markdown, github, sarif, junit, got "yaml"\n$/,
    ],
    ['json', /^warden-gate check: --report must look like FORMAT=FILE, got "json"\n$/],
    ['json=', /^warden-gate check: --report json= names no file\n$/],
    [
      'json=no/such/folder/r.json',
      /^warden-gate check: --report cannot write no\/such\/folder\/r\.json: ENOENT\n$/,
    ],
    ['json=.', /^warden-gate check: --report cannot write \.: it is a directory\n$/],
  ] as const) {
    it(`refuses ${value} before the server is started`, async () => {
      const marker = file(`started-${Math.random().toString(36).slice(2)}`);
      const server = [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`];
      const r = await gate('check', '--lock', lock, '--report', value, '--', ...server);
      assert.equal(r.code, 3);
      assert.equal(r.out, '');
      assert.match(r.err, message);
      assert.equal(fs.existsSync(marker), false, 'the server never ran');
    });
  }

  it('refuses the same file twice', async () => {
    const r = await gate(
      'diff',
      file('v1.json'),
      file('v1.json'),
      '--report',
      'json=a.json',
      '--report',
      'sarif=./a.json',
    );
    assert.match(r.err, /--report names \.\/a\.json twice/);
  });
});

describe('the JSON report', () => {
  it('counts items by verdict (and by kind, and the servers) in a summary right after the verdict', async () => {
    const r = await gate('diff', file('v1.json'), file('breaking.json'), '--json');
    const doc = JSON.parse(r.out);
    assert.deepEqual(Object.keys(doc), ['version', 'verdict', 'summary', 'servers']);
    const counts = { breaking: 1, unknown: 0, compatible: 0, identical: 1 };
    assert.deepEqual(doc.summary, { ...counts, servers: 1, kinds: { tool: counts } });
    assert.equal(doc.servers[0].items.length, 1, 'identical items are counted, not listed');
  });
});
