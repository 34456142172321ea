import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';
import { bundled } from '../fixtures/compat/servers/bundled.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'compat', 'servers', 'stdio-tools.ts');
const run = promisify(execFile);

const v1 = {
  tools: [
    {
      name: 'search',
      description: 'Search the catalogue',
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'string' }, limit: { type: 'number' } },
        required: ['q'],
      },
    },
    {
      name: 'greet',
      description: 'Say hello',
      inputSchema: { type: 'object', properties: { who: { type: 'string' } } },
    },
  ],
};
const compatible = {
  tools: [
    v1.tools[0],
    {
      name: 'greet',
      description: 'Say hello',
      inputSchema: { type: 'object', properties: { who: { type: 'string' }, loud: { type: 'boolean' } } },
    },
  ],
};
const breaking = {
  tools: [
    {
      name: 'search',
      description: 'Search the catalogue',
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'string' }, limit: { type: 'integer' } },
        required: ['q'],
      },
    },
    v1.tools[1],
  ],
};
const undecided = {
  tools: [
    // A keyword the gate does not analyse (not an x- annotation): its change is undecided by policy.
    { ...v1.tools[0], inputSchema: { ...v1.tools[0]?.inputSchema, beta: true } },
    v1.tools[1],
  ],
};

let dir = '';
const file = (name: string): string => path.join(dir, name);
function write(name: string, doc: unknown, pretty = 2): string {
  fs.writeFileSync(file(name), JSON.stringify(doc, null, pretty));
  return file(name);
}

async function gate(...argv: string[]) {
  const io = bufferIo();
  const code = await main([...argv], io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('warden-gate (in process)', () => {
  it('pin writes a lock with hash and whole definition per tool; check is silent on an identical manifest', async () => {
    const lock = file('pin.lock.json');
    const pinned = await gate('pin', '--manifest', write('v1.json', v1), '--lock', lock);
    assert.equal(pinned.code, 0);
    const doc = JSON.parse(fs.readFileSync(lock, 'utf8'));
    assert.equal(doc.lockfileVersion, 2);
    assert.deepEqual(Object.keys(doc.servers.default.tools), ['greet', 'search']);
    assert.match(doc.servers.default.tools.search.hash, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(doc.servers.default.tools.search.definition, v1.tools[0]);
    // The same manifest re-serialised (other indentation) does not trip it.
    const same = await gate('check', '--manifest', write('v1-again.json', v1, 0), '--lock', lock);
    assert.deepEqual(same, { code: 0, out: '', err: '' });
    const listed = await gate('check', '--manifest', file('v1-again.json'), '--lock', lock, '--verbose');
    assert.deepEqual(listed, { code: 0, out: 'no change: 2 items identical in 1 server\n', err: '' });
  });

  it('check: compatible exits 0 silently (--verbose: one line per changed tool and the summary), breaking exits 1, unknown exits 2', async () => {
    const lock = file('c.lock.json');
    await gate('pin', '--manifest', write('v1.json', v1), '--lock', lock);
    const quiet = await gate('check', '--manifest', write('compat.json', compatible), '--lock', lock);
    assert.deepEqual(quiet, { code: 0, out: '', err: '' });
    const ok = await gate('check', '--manifest', file('compat.json'), '--lock', lock, '--verbose');
    assert.equal(ok.code, 0);
    assert.equal(
      ok.out,
      'compatible: 1 tool changed (property-added-to-open-object)\n' +
        '  greet: compatible — optional property "loud" added to an open object (property-added-to-open-object at /inputSchema/properties/loud)\n' +
        '1 compatible, 1 identical in 1 server\n',
    );
    const bad = await gate('check', '--manifest', write('break.json', breaking), '--lock', lock);
    assert.equal(bad.code, 1);
    const lines = bad.out.trim().split('\n');
    assert.equal(lines[0], 'breaking: 1 tool changed (type-narrowed)');
    assert.match(
      lines[1] ?? '',
      /^ {2}search: breaking — type "number \(non-integer\)" is no longer accepted/,
    );
    assert.match(
      lines[2] ?? '',
      /^ {4}accept: warden-gate accept --lock \S+ --manifest \S+ --tool search@sha256:[0-9a-f]{64}$/,
    );
    assert.deepEqual(lines.slice(3), ['1 breaking, 1 identical in 1 server']);
    const unsure = await gate('check', '--manifest', write('unknown.json', undecided), '--lock', lock);
    assert.equal(unsure.code, 2);
    assert.equal(
      (await gate('check', '--manifest', file('unknown.json'), '--lock', lock, '--allow-unknown')).code,
      0,
    );
    assert.equal(
      (
        await gate(
          'check',
          '--manifest',
          write('strict.json', compatible),
          '--lock',
          lock,
          '--strict-open-objects',
        )
      ).code,
      1,
    );
  });

  it('--json is the stable contract', async () => {
    const r = await gate('diff', write('a.json', v1), write('b.json', breaking), '--json');
    assert.equal(r.code, 1);
    const doc = JSON.parse(r.out);
    assert.deepEqual(Object.keys(doc), ['version', 'verdict', 'summary', 'servers']);
    const [server] = doc.servers;
    assert.deepEqual(Object.keys(server), [
      'name',
      'verdict',
      'items',
      'replay',
      'renames',
      'unpinned',
      'unread',
    ]);
    assert.deepEqual(Object.keys(server.items[0]), [
      'kind',
      'name',
      'verdict',
      'change',
      'oldHash',
      'newHash',
      'accept',
      'findings',
    ]);
    assert.equal(server.items[0].accept, null, 'two tools/list files: no lock to accept into');
    assert.deepEqual(server.items[0].findings[0], {
      rule: 'type-narrowed',
      verdict: 'breaking',
      level: 'error',
      pointer: '/inputSchema/properties/limit/type',
      message: 'type "number (non-integer)" is no longer accepted',
      witness: { q: '', limit: 0.5 },
      exception: null,
    });
    assert.deepEqual(server.replay, { checked: 0, rejected: [] });
    const again = await gate('diff', file('a.json'), file('b.json'), '--json');
    assert.equal(again.out, r.out);
  });

  it('diff accepts lockfiles and tools/list results, and replays calls', async () => {
    const lock = file('d.lock.json');
    await gate('pin', '--manifest', write('v1.json', v1), '--lock', lock);
    fs.writeFileSync(file('calls.jsonl'), '{"tool":"greet","arguments":{"who":"ann","loud":"yes"}}\n');
    const r = await gate('diff', lock, write('compat.json', compatible), '--calls', file('calls.jsonl'));
    assert.equal(r.code, 1);
    assert.match(
      r.out,
      /^ {2}greet: breaking — recorded call on line 1 was valid and is now rejected: \/loud must be boolean/m,
    );
    assert.match(r.out, /^replay: 1 of 1 recorded calls that were valid are now rejected$/m);
  });

  it('reads a manifest, a lockfile and a calls file that an editor began with a byte order mark', async () => {
    const bom = (name: string, text: string): string => {
      fs.writeFileSync(file(name), `\uFEFF${text}`);
      return file(name);
    };
    const lock = file('bom.lock.json');
    const pinned = await gate('pin', '--manifest', bom('bom-v1.json', JSON.stringify(v1)), '--lock', lock);
    assert.equal(pinned.code, 0, pinned.err);
    bom('bom.lock.json', fs.readFileSync(lock, 'utf8'));
    const calls = bom('bom-calls.jsonl', '{"tool":"greet","arguments":{"who":"ann","loud":"yes"}}\n');
    const r = await gate('diff', lock, bom('bom-compat.json', JSON.stringify(compatible)), '--calls', calls);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^replay: 1 of 1 recorded calls that were valid are now rejected$/m);
    // Only a mark at the very start is skipped: one anywhere else is still invalid JSON.
    const inside = await gate('diff', lock, bom('bom-inside.json', '{"tools":\uFEFF[]}'));
    assert.equal(inside.code, 3);
    assert.match(inside.err, /bom-inside\.json is not valid JSON/);
  });

  it('accept --all: every pending change in one step, with the one reason recorded for each', async () => {
    const lock = file('all.lock.json');
    await gate('pin', '--manifest', write('v1.json', v1), '--lock', lock);
    const many = {
      tools: [
        ...breaking.tools.filter((t) => t?.name !== 'greet'),
        ...compatible.tools.filter((t) => t?.name === 'greet'),
      ],
    };
    write('many.json', many);
    const before = fs.readFileSync(lock, 'utf8');
    const noReason = await gate('accept', '--manifest', file('many.json'), '--lock', lock, '--all');
    assert.equal(noReason.code, 3);
    assert.match(noReason.err, /--all needs --reason TEXT/);
    const mixed = await gate(
      'accept',
      '--manifest',
      file('many.json'),
      '--lock',
      lock,
      '--all',
      '--reason',
      'x',
      '--tool',
      'search',
    );
    assert.equal(mixed.code, 3);
    assert.equal(fs.readFileSync(lock, 'utf8'), before, 'a refused accept writes nothing');
    const r = await gate(
      'accept',
      '--manifest',
      file('many.json'),
      '--lock',
      lock,
      '--all',
      '--reason',
      'upgrade 2.0 reviewed',
    );
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^search: breaking change accepted by hand/m);
    assert.match(r.out, /^greet: compatible change accepted by hand/m);
    const audit = JSON.parse(fs.readFileSync(lock, 'utf8')).audit as { action: string; reason?: string }[];
    assert.deepEqual(
      audit.filter((e) => e.action === 'accept').map((e) => e.reason),
      ['upgrade 2.0 reviewed', 'upgrade 2.0 reviewed'],
    );
    assert.equal((await gate('check', '--manifest', file('many.json'), '--lock', lock)).code, 0);
  });

  it('accept: compatible changes automatically, breaking ones only by name and bound to the reviewed hash', async () => {
    const lock = file('a.lock.json');
    await gate('pin', '--manifest', write('v1.json', v1), '--lock', lock);
    const both = { tools: [breaking.tools[0], compatible.tools[1]] };
    const first = await gate('accept', '--manifest', write('both.json', both), '--lock', lock);
    assert.equal(first.code, 1, 'the breaking change is still pending');
    assert.match(first.out, /^greet: compatible change accepted automatically/m);
    const pending = await gate('check', '--manifest', file('both.json'), '--lock', lock, '--json');
    const search = JSON.parse(pending.out).servers[0].items[0];
    assert.equal(search.name, 'search');
    const wrong = await gate(
      'accept',
      '--manifest',
      file('both.json'),
      '--lock',
      lock,
      '--tool',
      'search@sha256:00000000',
    );
    assert.equal(wrong.code, 3);
    assert.match(wrong.err, /changed again/);
    const ok = await gate(
      'accept',
      '--manifest',
      file('both.json'),
      '--lock',
      lock,
      '--tool',
      `search@${search.newHash}`,
      '--reason',
      'reviewed',
    );
    assert.equal(ok.code, 0);
    assert.equal(
      (await gate('check', '--manifest', file('both.json'), '--lock', lock, '--verbose')).out,
      'no change: 2 items identical in 1 server\n',
    );
    const audit = JSON.parse(fs.readFileSync(lock, 'utf8')).audit;
    assert.deepEqual(
      audit.map((e: { action: string; tool?: string; by: string }) => [e.action, e.tool ?? null, e.by]),
      [
        ['pin', null, 'hand'],
        ['accept', 'greet', 'auto'],
        ['accept', 'search', 'hand'],
      ],
    );
    assert.equal(audit[2].oldHash, search.oldHash);
    assert.equal(audit[2].newHash, search.newHash);
    assert.equal(audit[2].reason, 'reviewed');
  });

  it('keeps a tool named __proto__ as a plain entry through pin and accept', async () => {
    const lock = file('proto.lock.json');
    const proto = (props: object) => ({
      tools: [{ name: '__proto__', inputSchema: { type: 'object', properties: props } }],
    });
    await gate('pin', '--manifest', write('p1.json', proto({ a: { type: 'string' } })), '--lock', lock);
    const r = await gate(
      'accept',
      '--manifest',
      write('p2.json', proto({ a: { type: 'string' }, b: { type: 'string' } })),
      '--lock',
      lock,
    );
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(fs.readFileSync(lock, 'utf8'));
    assert.deepEqual(Object.keys(doc.servers.default.tools), ['__proto__']);
    assert.equal(
      (await gate('check', '--manifest', file('p2.json'), '--lock', lock, '--verbose')).out,
      'no change: 1 item identical in 1 server\n',
    );
  });

  it('bad input exits 3 with a clear message and loses nothing', async () => {
    const lock = file('e.lock.json');
    await gate('pin', '--manifest', write('v1.json', v1), '--lock', lock);
    const before = fs.readFileSync(lock, 'utf8');
    fs.writeFileSync(file('broken.json'), '{"tools": [');
    const cases = [
      await gate('check', '--manifest', file('broken.json'), '--lock', lock),
      await gate('pin', '--manifest', file('v1.json'), '--lock', lock),
      await gate('accept', '--manifest', file('broken.json'), '--lock', lock),
      await gate(
        'check',
        '--manifest',
        write('noname.json', { tools: [{ description: 'x' }] }),
        '--lock',
        lock,
      ),
      await gate('check', '--lock', lock),
      await gate('check', '--manifest', file('v1.json'), '--lock', file('missing.json')),
      await gate('diff', file('v1.json')),
      await gate(
        'check',
        '--manifest',
        file('v1.json'),
        '--lock',
        lock,
        '--calls',
        write('calls.jsonl', 'nope'),
      ),
    ];
    for (const c of cases) {
      assert.equal(c.code, 3, c.err);
      assert.match(c.err, /^warden-gate \w+: /);
      assert.doesNotMatch(c.err, /\n\s+at /, 'no stack trace');
    }
    assert.match(cases[0]?.err ?? '', /broken\.json is not valid JSON/);
    assert.match(cases[1]?.err ?? '', /exists; bless changes with "warden-gate accept"/);
    assert.equal(fs.readFileSync(lock, 'utf8'), before);
    fs.writeFileSync(lock, before.replace('Say hello', 'Say goodbye'));
    const tampered = await gate('check', '--manifest', file('v1.json'), '--lock', lock);
    assert.equal(tampered.code, 3);
    assert.match(tampered.err, /hashes of tool "greet" do not match its definition/);
  });
});

describe('warden-gate (real executable, real stdio server)', () => {
  it('pins from a stdio MCP server and checks a breaking change with exit code 1', async () => {
    const lock = file('e2e.lock.json');
    const bin = path.join(ROOT, 'bin', 'warden-gate.js');
    const server = ['--', process.execPath, bundled(SERVER)];
    const pinned = await run(
      process.execPath,
      [bin, 'pin', '--lock', lock, ...server, write('srv1.json', v1)],
      { cwd: ROOT },
    );
    assert.match(pinned.stdout, /^pinned 2 tools to /);
    const same = await run(
      process.execPath,
      [bin, 'check', '--verbose', '--lock', lock, ...server, file('srv1.json')],
      {
        cwd: ROOT,
      },
    );
    assert.equal(
      same.stdout,
      'no change: 4 items identical in 1 server\n',
      'two tools, identity, instructions',
    );
    await assert.rejects(
      run(
        process.execPath,
        [bin, 'check', '--lock', lock, '--json', ...server, write('srv2.json', breaking)],
        { cwd: ROOT },
      ),
      (err: { code: number; stdout: string }) => {
        assert.equal(err.code, 1);
        assert.equal(JSON.parse(err.stdout).servers[0].items[0].findings[0].rule, 'type-narrowed');
        return true;
      },
    );
  });
});
