import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { GATE_EXIT, bufferIo } from '../../src/host/io.ts';
import { main } from '../../src/cli/main.ts';
import { bundled } from '../fixtures/compat/servers/bundled.ts';
import { startHttpTools } from '../fixtures/compat/servers/http-tools.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'compat', 'servers', 'surfaces.ts');
const BIN = path.join(ROOT, 'bin', 'warden-gate.js');
const SECRET = 'sekrit-value-8f3a';

const tool = (limit: string) => ({
  name: 'search',
  description: 'Search the catalogue',
  inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: limit } } },
});

let dir = '';
const file = (name: string) => path.join(dir, name);
function write(name: string, doc: unknown): string {
  fs.mkdirSync(path.dirname(file(name)), { recursive: true });
  fs.writeFileSync(file(name), JSON.stringify(doc, null, 2));
  return file(name);
}
/** A configured stdio server: the fixture serving `name.json`, which the test rewrites. */
function fixture(name: string, limit = 'number') {
  write(`${name}.json`, { server: { name, version: '1.0.0' }, tools: [tool(limit)] });
  return {
    command: process.execPath,
    args: [bundled(SERVER), file(`${name}.json`)],
  };
}
const desktop = (servers: Record<string, unknown>) =>
  write('claude_desktop_config.json', { mcpServers: servers });

async function gate(...argv: string[]) {
  const io = bufferIo({ ...process.env });
  const code = await main(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}
/** A printed command line back into words (single quotes as a POSIX shell reads them). */
const words = (line: string) =>
  [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] ?? m[2] ?? '').replace(/'\\''/g, "'"));
const lockOf = (name = 'mcp-lock.json') => JSON.parse(fs.readFileSync(file(name), 'utf8'));
/** The text report's item lines about one server, listed under their groups (details and summary left aside). */
const about = (out: string, server: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith(`  ${server}: `))
    .map((l) => l.slice(2));

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-configs-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a whole client configuration', () => {
  it('pins every server under its name, and check names the one that broke', async () => {
    const config = desktop({ alpha: fixture('alpha'), beta: fixture('beta') });
    const lock = file('mcp-lock.json');
    const pinned = await gate('pin', '--config', config, '--lock', lock);
    assert.equal(pinned.code, GATE_EXIT.pass, pinned.err);
    assert.match(pinned.out, /^pinned alpha: 1 tool\npinned beta: 1 tool\nwrote 2 servers to /m);
    const doc = lockOf();
    assert.deepEqual(Object.keys(doc.servers), ['alpha', 'beta']);
    assert.deepEqual(doc.servers.alpha.launch, { transport: 'stdio', ...fixture('alpha') });

    fixture('beta', 'integer');
    const checked = await gate('check', '--config', config, '--lock', lock);
    assert.equal(checked.code, GATE_EXIT.breaking);
    assert.deepEqual(about(checked.out, 'beta'), [
      'beta: search: breaking — type "number (non-integer)" is no longer accepted (type-narrowed at /inputSchema/properties/limit/type)',
    ]);
    assert.deepEqual(about(checked.out, 'alpha'), []);
    assert.deepEqual(
      (await gate('check', '--config', config, '--server', 'alpha', '--lock', lock)).code,
      GATE_EXIT.pass,
    );
    // The accept command printed beside the break is the one that blesses it, as printed.
    const line = /^ {4}accept: warden-gate (accept .*)$/m.exec(checked.out)?.[1];
    assert.ok(line, checked.out);
    assert.match(line, /--config \S+ --server beta --tool search@sha256:[0-9a-f]{64}$/);
    const accepted = await gate(...words(line));
    assert.equal(accepted.code, GATE_EXIT.pass, accepted.out + accepted.err);
    assert.equal((await gate('check', '--config', config, '--lock', lock)).code, GATE_EXIT.pass);
    fixture('beta');
    assert.equal(
      (await gate('accept', '--config', config, '--lock', lock, '--tool', 'search')).code,
      GATE_EXIT.error,
    );
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.endsWith('lock.json')),
      ['mcp-lock.json'],
    );
  });

  it('a server gone from the configuration is one server-removed finding, a new one server-added', async () => {
    const config = desktop({ alpha: fixture('alpha'), gamma: fixture('gamma') });
    const r = await gate('check', '--config', config, '--lock', file('mcp-lock.json'));
    assert.equal(r.code, GATE_EXIT.breaking);
    assert.deepEqual(about(r.out, 'beta'), [
      'beta: server: breaking — server removed: nothing it served can be reached any more (server-removed at /)',
    ]);
    // A compatible change is its group's one line unless --verbose.
    assert.match(r.out, /^compatible: gamma: server added$/m);
    assert.deepEqual(about(r.out, 'alpha'), []);
  });

  it('check --update-lock takes a new server and a compatible change of another into the lock, never a break', async () => {
    const config = desktop({ alpha: fixture('alpha') });
    const lock = file('drift-lock.json');
    assert.equal((await gate('pin', '--config', config, '--lock', lock)).code, GATE_EXIT.pass);
    const grown = desktop({ alpha: fixture('alpha'), delta: fixture('delta') });
    // The fixture rewrote alpha's file: now it serves one tool more.
    write('alpha.json', {
      server: { name: 'alpha', version: '1.0.0' },
      tools: [tool('number'), { name: 'wave', inputSchema: { type: 'object' } }],
    });
    const r = await gate('check', '--config', grown, '--lock', lock, '--update-lock');
    assert.equal(r.code, GATE_EXIT.pass, r.err);
    assert.match(r.err, /drift-lock\.json updated: took in \d+ compatible changes: .*alpha: 1 tool added/);
    assert.match(r.err, /delta: server added/);
    const doc = lockOf('drift-lock.json');
    assert.deepEqual(Object.keys(doc.servers), ['alpha', 'delta']);
    assert.deepEqual(Object.keys(doc.servers.alpha.tools), ['search', 'wave']);
    assert.deepEqual(doc.servers.delta.launch, { transport: 'stdio', ...fixture('delta') });
    const again = await gate('check', '--config', grown, '--lock', lock, '--update-lock');
    assert.deepEqual(again, { code: GATE_EXIT.pass, out: '', err: '' });
    fixture('delta', 'integer');
    const before = fs.readFileSync(lock, 'utf8');
    const broken = await gate('check', '--config', grown, '--lock', lock, '--update-lock');
    assert.equal(broken.code, GATE_EXIT.breaking);
    assert.equal(fs.readFileSync(lock, 'utf8'), before, 'a break leaves the lock untouched');
  });

  it('a tool renamed in one server is hinted as a rename', async () => {
    const config = desktop({ alpha: fixture('alpha') });
    const lock = file('rename-lock.json');
    assert.equal((await gate('pin', '--config', config, '--lock', lock)).code, GATE_EXIT.pass);
    write('alpha.json', {
      server: { name: 'alpha', version: '1.0.0' },
      tools: [{ ...tool('number'), name: 'find' }],
    });
    const r = await gate('check', '--config', config, '--lock', lock);
    assert.equal(r.code, GATE_EXIT.breaking);
    assert.match(r.out, /^maybe renamed: .*search → .*find$/m);
  });

  it('a server that exits at start gives its cause, the others are still judged, and env values never show', async () => {
    const alpha = fixture('alpha');
    const broken = {
      command: process.execPath,
      args: ['-e', 'console.error("bad token " + process.env.API_TOKEN); process.exit(1)'],
      env: { API_TOKEN: SECRET },
    };
    const config = desktop({
      alpha: { ...alpha, args: [...alpha.args, '--api-key', SECRET], env: { API_TOKEN: SECRET } },
      broken,
      remote: { url: `https://example.com/mcp?token=${SECRET}` },
    });
    const lock = file('second-lock.json');
    const pinned = await gate('pin', '--config', config, '--lock', lock);
    assert.equal(pinned.code, GATE_EXIT.error);
    assert.match(
      pinned.err,
      /^broken: not pinned: the server exited with code 1 before answering: bad token \*\*\*$/m,
    );
    assert.match(
      pinned.err,
      /^note: remote: not started, as its client would not start it: Claude Desktop does not start/m,
    );
    assert.deepEqual(Object.keys(lockOf('second-lock.json').servers), ['alpha']);

    for (const extra of [[], ['--allow-unknown']]) {
      const r = await gate('check', '--config', config, '--lock', lock, ...extra);
      assert.equal(r.code, GATE_EXIT.error);
      assert.deepEqual(about(r.out, 'broken'), [
        'broken: launch: unknown — the server could not be started or reached: the server exited with code 1 before answering: bad token *** (launch-failed at /)',
      ]);
      assert.deepEqual(about(r.out, 'alpha'), []);
      assert.ok(!`${r.out}${r.err}`.includes(SECRET));
    }
    const json = await gate('check', '--config', config, '--lock', lock, '--json');
    assert.ok(!`${json.out}${json.err}${pinned.out}${pinned.err}`.includes(SECRET));
    assert.ok(!fs.readFileSync(lock, 'utf8').includes(SECRET));
  });

  it('VS Code: inputs fill the headers of an http server, and neither the lock nor the output holds them', async () => {
    const token = `tok-${SECRET}`;
    const http = await startHttpTools([tool('number')], token);
    try {
      const config = write('.vscode/mcp.json', {
        inputs: [{ id: 'token', type: 'promptString', password: true }],
        servers: {
          web: { type: 'http', url: http.url, headers: { Authorization: 'Bearer ${input:token}' } },
        },
      });
      const lock = file('web-lock.json');
      const pinned = await gate('pin', '--config', config, '--lock', lock, '--input', `token=${token}`);
      assert.equal(pinned.code, GATE_EXIT.pass, pinned.err);
      assert.deepEqual(lockOf('web-lock.json').servers.web.launch, { transport: 'http', url: http.url });
      assert.equal(
        (await gate('check', '--config', config, '--lock', lock, '--input', `token=${token}`)).code,
        GATE_EXIT.pass,
      );

      const missing = await gate('check', '--config', config, '--lock', lock);
      assert.equal(missing.code, GATE_EXIT.error);
      assert.match(
        missing.err,
        /note: web: headers\.Authorization left out: \$\{input:token\} has no value \(give inputs with --input/,
      );
      assert.match(
        missing.out,
        /^ {2}launch: unknown — the server could not be started or reached: HTTP 401/m,
      );
      assert.ok(
        ![pinned.out, pinned.err, missing.out, missing.err, fs.readFileSync(lock, 'utf8')]
          .join('')
          .includes(SECRET),
      );
    } finally {
      await http.close();
    }
  });
});

/** The built CLI, run with a PATH whose `npx` and `npm` are the test's own scripts. */
function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, PATH: `${file('bin')}${path.delimiter}${process.env.PATH}` };
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...argv], { env, cwd: dir }, (err, out, errText) =>
      resolve({ code: err ? Number(err.code) : 0, out, err: errText }),
    );
  });
}

describe('an npx launch', { skip: process.platform === 'win32' && 'sh scripts' }, () => {
  before(() => {
    const { command, args } = fixture('pkg');
    const quoted = [command, ...args].map((a) => `'${a}'`).join(' ');
    fs.mkdirSync(file('bin'), { recursive: true });
    // npx runs the fixture, whatever package it is given; npm view answers an exact spec with its
    // own version, and anything else with the version in npm-latest.
    fs.writeFileSync(file('bin/npx'), `#!/bin/sh\ncd '${ROOT}' && exec ${quoted}\n`, { mode: 0o755 });
    const npm = `#!/bin/sh\ncase "$2" in *@[0-9]*) echo "\\"\${2##*@}\\"";; *) cat '${file('npm-latest')}';; esac\n`;
    fs.writeFileSync(file('bin/npm'), npm, { mode: 0o755 });
    fs.writeFileSync(file('npm-latest'), '"1.4.2"');
  });
  const mcp = (spec: string) =>
    write('.mcp.json', { mcpServers: { pkg: { command: 'npx', args: ['-y', spec] } } });

  it('pins the package and the version it resolves to, reports it unpinned, and judges later launches', async () => {
    const pinned = await cli(['pin', '--config', mcp('some-pkg@latest'), '--lock', 'npx-lock.json']);
    assert.equal(pinned.code, GATE_EXIT.pass, pinned.err);
    assert.match(pinned.out, /pkg: launch: unknown — .* pin it as "some-pkg@1\.4\.2" \(launch-unpinned\)/);
    const launch = lockOf('npx-lock.json').servers.pkg.launch;
    assert.deepEqual(launch.package, { name: 'some-pkg', requested: 'latest', version: '1.4.2' });

    const check = (spec: string, ...extra: string[]) =>
      cli(['check', '--config', mcp(spec), '--lock', 'npx-lock.json', ...extra]);
    const offline = await check('some-pkg@latest', '--offline');
    assert.equal(offline.code, GATE_EXIT.unknown);
    assert.match(
      offline.out,
      /^ {2}launch: unknown — .*"some-pkg@1\.4\.2" \(the version pinned; not looked up: --offline\)/m,
    );
    // The fix belongs where the launch is written: the annotation points into the client
    // configuration, at the server's package, and says what to start instead.
    const annotated = await check('some-pkg@latest', '--offline', '--format', 'github');
    const line =
      fs
        .readFileSync(file('.mcp.json'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('some-pkg@latest')) + 1;
    assert.match(
      annotated.out,
      new RegExp(
        `^::warning file=\\.mcp\\.json,line=${line},title=warden gate%3A launch unknown \\(launch-unpinned\\)::`,
        'm',
      ),
    );
    assert.match(
      annotated.out,
      /%0Afix: in \.mcp\.json, start some-pkg@1\.4\.2 instead of some-pkg@latest, then run check again/,
    );
    assert.match(
      offline.out,
      /^ {4}fix: in \.mcp\.json, start some-pkg@1\.4\.2 instead of some-pkg@latest, then run check again$/m,
    );
    const exact = await check('some-pkg@1.4.2');
    assert.equal(exact.code, GATE_EXIT.pass);
    assert.doesNotMatch(exact.out, /launch/);
    const newer = await check('some-pkg@1.5.0', '--verbose');
    assert.equal(newer.code, GATE_EXIT.pass);
    assert.match(
      newer.out,
      /^ {2}launch: compatible — package "some-pkg" changed version: "1\.4\.2" → "1\.5\.0"/m,
    );
    const other = await check('other-pkg@1.4.2');
    assert.equal(other.code, GATE_EXIT.unknown);
    assert.match(
      other.out,
      /^ {2}launch: unknown — the server is started differently.* \(launch-changed at \/\)/m,
    );
  });
});
