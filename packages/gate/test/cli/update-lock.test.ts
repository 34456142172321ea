import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { bufferIo } from '../../src/host/io.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'warden-gate.js');
const run = promisify(execFile);

const search = {
  name: 'search',
  inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'number' } } },
};
const greet = { name: 'greet', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } };
const v1 = { tools: [search, greet] };
const compatible = {
  tools: [
    search,
    {
      ...greet,
      inputSchema: { type: 'object', properties: { who: { type: 'string' }, loud: { type: 'boolean' } } },
    },
    { name: 'wave', inputSchema: { type: 'object' } },
  ],
};
const breaking = {
  tools: [
    {
      ...search,
      inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } } },
    },
    ...compatible.tools.slice(1),
  ],
};
// A keyword the gate does not analyse: undecided.
const unknown = { tools: [{ ...search, inputSchema: { ...search.inputSchema, beta: true } }, greet] };

let dir = '';
const file = (name: string): string => path.join(dir, name);
const write = (name: string, doc: unknown): string => {
  fs.writeFileSync(file(name), JSON.stringify(doc));
  return file(name);
};

before(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'bin.js')))
    execFileSync(process.execPath, ['build.js'], { cwd: ROOT, stdio: 'inherit' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden update-lock '));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The real executable, as a CI job runs it. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...argv], { cwd: dir });
    return { code: 0, out: stdout, err: stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
  }
}

async function pinned(name: string): Promise<string> {
  const lock = file(name);
  fs.rmSync(lock, { force: true });
  assert.equal((await cli('pin', '--manifest', write('v1.json', v1), '--lock', lock)).code, 0);
  return lock;
}

type Audit = { action: string; tool?: string; by: string; reason?: string; verdict?: string }[];
const audit = (lock: string): Audit => (JSON.parse(fs.readFileSync(lock, 'utf8')) as { audit: Audit }).audit;

describe('check --update-lock (the real executable)', () => {
  it('takes a compatible change into the lock in the same step, says so in one line, and the next run is silent', async () => {
    const lock = await pinned('compatible.lock.json');
    const r = await cli(
      'check',
      '--manifest',
      write('compatible.json', compatible),
      '--lock',
      lock,
      '--update-lock',
    );
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, '', 'the report is as silent as without it');
    assert.equal(
      r.err,
      `warden-gate check: ${lock} updated: took in 2 compatible changes: 1 tool changed (property-added-to-open-object), 1 tool added\n`,
    );
    const entries = audit(lock).filter((e) => e.action === 'accept');
    assert.deepEqual(
      entries.map((e) => [e.tool, e.verdict, e.by, e.reason]),
      [
        ['greet', 'compatible', 'auto', 'compatible change taken in by check --update-lock'],
        ['wave', 'compatible', 'auto', 'compatible change taken in by check --update-lock'],
      ],
    );
    const again = await cli('check', '--manifest', file('compatible.json'), '--lock', lock, '--update-lock');
    assert.deepEqual(again, { code: 0, out: '', err: '' }, 'identical now: nothing to say, nothing written');
    assert.equal(audit(lock).length, 3);
    const verbose = await cli('check', '--manifest', file('compatible.json'), '--lock', lock, '--verbose');
    assert.equal(verbose.out, 'no change: 3 items identical in 1 server\n');
  });

  it('records the reason given, and keeps the report on stdout whole (JSON)', async () => {
    const lock = await pinned('reason.lock.json');
    const r = await cli(
      'check',
      '--manifest',
      write('compatible.json', compatible),
      '--lock',
      lock,
      '--update-lock',
      '--reason',
      'nightly drift, run 42',
      '--json',
    );
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).verdict, 'compatible');
    assert.match(r.err, /updated: took in 2 compatible changes/);
    assert.deepEqual(
      audit(lock)
        .filter((e) => e.action === 'accept')
        .map((e) => e.reason),
      ['nightly drift, run 42', 'nightly drift, run 42'],
    );
  });

  for (const [name, doc, code, verdict] of [
    ['breaking', breaking, 1, 'breaking'],
    ['unknown', unknown, 2, 'unknown'],
  ] as const) {
    it(`never on a ${name} change: the lock untouched, the exit code as without it`, async () => {
      const lock = await pinned(`${name}.lock.json`);
      const before = fs.readFileSync(lock, 'utf8');
      const r = await cli('check', '--manifest', write(`${name}.json`, doc), '--lock', lock, '--update-lock');
      assert.equal(r.code, code);
      assert.equal(fs.readFileSync(lock, 'utf8'), before, 'not a byte changed');
      assert.equal(
        r.err,
        `warden-gate check: ${lock} not updated: the change is ${verdict}; review it and accept it by hand\n`,
      );
      // The compatible changes beside the break are not taken either: the lock moves as a whole.
      const plain = await cli('check', '--manifest', file(`${name}.json`), '--lock', lock);
      assert.equal(r.out, plain.out);
    });
  }

  it('an unknown change that --allow-unknown passes is still not taken in', async () => {
    const lock = await pinned('allow.lock.json');
    const before = fs.readFileSync(lock, 'utf8');
    const r = await cli(
      'check',
      '--manifest',
      write('unknown.json', unknown),
      '--lock',
      lock,
      '--update-lock',
      '--allow-unknown',
    );
    assert.equal(r.code, 0);
    assert.equal(fs.readFileSync(lock, 'utf8'), before);
    assert.match(r.err, /not updated: the change is unknown/);
  });

  it('a compatible change that the levels fail (a warning under --fail-on warning) is not taken in', async () => {
    const lock = await pinned('fail-on.lock.json');
    const before = fs.readFileSync(lock, 'utf8');
    // "limit" vanishes from an open object: compatible, at warning.
    const vanished = {
      tools: [{ ...search, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }, greet],
    };
    const manifest = write('vanished.json', vanished);
    const r = await cli(
      'check',
      '--manifest',
      manifest,
      '--lock',
      lock,
      '--update-lock',
      '--fail-on',
      'warning',
    );
    assert.equal(r.code, 1);
    assert.equal(fs.readFileSync(lock, 'utf8'), before, 'not a byte changed');
    assert.equal(
      r.err,
      `warden-gate check: ${lock} not updated: the run fails (exit 1) by the levels of its findings\n`,
    );
    // Without --fail-on the warning passes, and the same change is taken in.
    const taken = await cli('check', '--manifest', manifest, '--lock', lock, '--update-lock');
    assert.equal(taken.code, 0);
    assert.match(taken.err, /updated: took in 1 compatible change/);
  });
});

async function gate(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

describe('check --update-lock (options)', () => {
  it('--reason belongs to --update-lock, and must say something', async () => {
    const lock = await pinned('options.lock.json');
    const alone = await gate('check', '--manifest', file('v1.json'), '--lock', lock, '--reason', 'x');
    assert.equal(alone.code, 3);
    assert.match(alone.err, /--reason goes with --update-lock/);
    const empty = await gate(
      'check',
      '--manifest',
      file('v1.json'),
      '--lock',
      lock,
      '--update-lock',
      '--reason',
      ' ',
    );
    assert.equal(empty.code, 3);
    assert.match(empty.err, /--reason must say something/);
    const diff = await gate('diff', file('v1.json'), file('v1.json'), '--update-lock');
    assert.equal(diff.code, 3);
    assert.match(diff.err, /option --update-lock does not apply here/);
  });

  it('a lock that cannot be written is one line and an error, the lock as it was', async () => {
    const lock = await pinned('stuck.lock.json');
    const before = fs.readFileSync(lock, 'utf8');
    // The temporary file the lock is written through, taken by a folder.
    const tmp = file(`.stuck.lock.json.${process.pid}.tmp`);
    fs.mkdirSync(tmp);
    try {
      const r = await gate(
        'check',
        '--manifest',
        write('compatible.json', compatible),
        '--lock',
        lock,
        '--update-lock',
      );
      assert.equal(r.code, 3);
      assert.equal(r.err, `warden-gate check: --update-lock cannot write ${lock}: EISDIR\n`);
      assert.equal(fs.readFileSync(lock, 'utf8'), before);
    } finally {
      fs.rmSync(tmp, { recursive: true });
    }
  });

  it('pins surfaces the lock never held, when the change is otherwise compatible', async () => {
    const lock = await pinned('surfaces.lock.json');
    const more = { ...v1, prompts: [{ name: 'hello' }], instructions: 'Be brief.' };
    const r = await gate('check', '--manifest', write('more.json', more), '--lock', lock, '--update-lock');
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /updated: pinned /);
    const doc = JSON.parse(fs.readFileSync(lock, 'utf8'));
    assert.deepEqual(Object.keys(doc.servers.default.prompts), ['hello']);
    assert.deepEqual(await gate('check', '--manifest', file('more.json'), '--lock', lock), {
      code: 0,
      out: '',
      err: '',
    });
  });
});
