import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import os from 'node:os';
import { GATE_EXIT, bufferIo } from '../../src/host/io.ts';
import { GATE_COMMANDS, main } from '../../src/cli/main.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'warden-gate.js');

const tool = (limit: string, extra: object = {}) => ({
  tools: [
    {
      name: 'search',
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'string' }, limit: { type: limit } },
        ...extra,
      },
    },
  ],
});

async function gate(argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

const cwd = process.cwd();
let dir = '';
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-exit-'));
  process.chdir(dir);
  fs.writeFileSync('a.json', JSON.stringify(tool('number')));
  fs.writeFileSync('wider.json', JSON.stringify(tool('number', { required: [] })));
  fs.writeFileSync('narrower.json', JSON.stringify(tool('integer')));
  // A keyword the gate does not analyse (not an x- annotation): its change is undecided by policy.
  fs.writeFileSync('undecided.json', JSON.stringify(tool('number', { beta: true })));
  fs.writeFileSync('broken.json', '{"tools": [');
  assert.equal((await gate(['pin', '--manifest', 'a.json', '--lock', 'a.lock.json'])).code, GATE_EXIT.pass);
});
after(() => {
  process.chdir(cwd);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('one exit code contract for every gate command', () => {
  for (const [argv, code] of [
    [['check', '--manifest', 'a.json', '--lock', 'a.lock.json'], 0],
    [['check', '--manifest', 'wider.json', '--lock', 'a.lock.json'], 0],
    [['check', '--manifest', 'narrower.json', '--lock', 'a.lock.json'], 1],
    [['check', '--manifest', 'undecided.json', '--lock', 'a.lock.json'], 2],
    [['check', '--manifest', 'undecided.json', '--lock', 'a.lock.json', '--allow-unknown'], 0],
    [['check', '--manifest', 'broken.json', '--lock', 'a.lock.json'], 3],
    [['check', '--manifest', 'a.json', '--lock', 'missing.json'], 3],
    [['check', '--manifest', 'a.json', '--lock', 'a.lock.json', '--format', 'yaml'], 3],
    [['diff', 'a.json', 'narrower.json'], 1],
    [['diff', 'a.json', 'undecided.json', '--format', 'sarif'], 2],
    [['diff', 'a.json'], 3],
    [['pin', '--manifest', 'a.json', '--lock', 'a.lock.json'], 3],
    [['pin', '--manifest', 'broken.json', '--lock', 'new.lock.json'], 3],
    [
      ['accept', '--manifest', 'narrower.json', '--lock', 'a.lock.json', '--tool', 'search@sha256:00000000'],
      3,
    ],
    [['proxy', '--lock', 'a.lock.json', '--port', '1', '--', 'node'], 3],
    [['no-such-command'], 3],
    [[], 3],
    [['--help'], 0],
    [['check', '--help'], 0],
  ] as const) {
    it(`${argv.join(' ') || '(nothing)'}: ${code}`, async () => {
      const r = await gate([...argv]);
      assert.equal(r.code, code, r.err || r.out);
    });
  }

  it('accept: 1 or 2 while a breaking or unknown change is pending, 0 once none is', async () => {
    fs.copyFileSync('a.lock.json', 'b.lock.json');
    const pending = await gate(['accept', '--manifest', 'undecided.json', '--lock', 'b.lock.json']);
    assert.equal(pending.code, GATE_EXIT.unknown);
    const command = /accept it with (--tool [^\s)]+)/.exec(pending.out)?.[1]?.split(' ') ?? [];
    const blessed = await gate([
      'accept',
      '--manifest',
      'undecided.json',
      '--lock',
      'b.lock.json',
      ...command,
    ]);
    assert.equal(blessed.code, GATE_EXIT.pass, blessed.err);
    const broken = await gate(['accept', '--manifest', 'narrower.json', '--lock', 'b.lock.json']);
    assert.equal(broken.code, GATE_EXIT.breaking);
  });

  it('the commands that answer and exit are tuned for one run; the proxy, which serves, is not', () => {
    const once = Object.entries(GATE_COMMANDS)
      .filter(([, c]) => c.runsOnce === true)
      .map(([name]) => name);
    assert.deepEqual(once.sort(), ['accept', 'check', 'diff', 'pin']);
  });

  it('diff as a process, tuned for one run: its answer on stdout and nothing on stderr', async () => {
    const r = await promisify(execFile)(
      process.execPath,
      [BIN, 'diff', 'a.json', 'narrower.json', '--json'],
      {
        timeout: 20_000,
      },
    ).then(
      (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    assert.equal(r.code, GATE_EXIT.breaking);
    assert.equal((JSON.parse(r.stdout) as { verdict: string }).verdict, 'breaking');
    assert.equal(r.stderr, '');
  });

  it('proxy: a server that cannot be started is an error (3), in one line, not a crash', async () => {
    const r = await promisify(execFile)(
      process.execPath,
      [BIN, 'proxy', '--lock', 'a.lock.json', '--', './no-such-server'],
      {
        timeout: 20_000,
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(r.code, GATE_EXIT.error);
    assert.equal(r.stderr, 'warden-gate proxy: cannot start ./no-such-server: ENOENT\n');
  });
});
