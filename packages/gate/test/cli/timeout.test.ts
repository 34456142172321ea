import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { bufferIo, GATE_EXIT } from '../../src/host/io.ts';
import { main } from '../../src/cli/main.ts';
import { processesWith } from '../processes.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'warden-gate.js');
const NEVER = path.join(ROOT, 'test', 'fixtures', 'compat', 'servers', 'never-answers.mjs');

/** The gate as a process: its exit code, stderr, how long it ran, and what it left running. */
async function runGate(
  argv: string[],
  marker: string,
  stdin?: string,
  endStdin = false,
): Promise<{ code: number | null; err: string; out: string; seconds: number; left: number[] }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  if (stdin !== undefined) child.stdin.write(stdin);
  if (endStdin) child.stdin.end();
  const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(kill);
  const seconds = (performance.now() - started) / 1000;
  // What is left once the gate has answered: nothing, at once (a few reads of /proc, no waiting).
  const left = processesWith(marker);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL'); // never leave a failed test's processes behind
    } catch {
      // gone
    }
  }
  child.stdin.destroy();
  return { code, err, out, seconds, left };
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
})}\n`;

describe(
  '--timeout: a server that never answers is given up on, and nothing of it is left',
  { skip: process.platform !== 'linux' && 'reads /proc' },
  () => {
    let dir = '';
    let lock = '';
    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-timeout-'));
      lock = path.join(dir, 'lock.json');
      fs.writeFileSync(
        path.join(dir, 'tools.json'),
        JSON.stringify({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] }),
      );
      const io = bufferIo();
      assert.equal(await main(['pin', '--manifest', path.join(dir, 'tools.json'), '--lock', lock], io), 0);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    for (const kind of ['silent', 'garbage']) {
      it(`check --timeout 5, a server that ${kind === 'silent' ? 'never answers' : 'prints garbage and idles'}: exit 3 within 10 s, 0 processes left`, async () => {
        const marker = `warden-timeout-${randomUUID()}`;
        const r = await runGate(
          ['check', '--timeout', '5', '--lock', lock, '--', process.execPath, NEVER, marker, kind],
          marker,
        );
        assert.equal(r.code, GATE_EXIT.error, r.err);
        assert.ok(r.seconds < 10, `took ${r.seconds.toFixed(1)} s`);
        assert.deepEqual(r.left, [], 'the server and its helper are stopped');
        assert.equal(r.err.split('\n').filter(Boolean).length, 1, r.err);
        assert.match(
          r.err,
          /no answer within 5 s; the limit is 5 s a step .*raise it with --timeout SECONDS/,
        );
      });
    }

    it('proxy --timeout 5: initialize unanswered is an error to the agent, exit 3 within 10 s, 0 processes left', async () => {
      const marker = `warden-timeout-${randomUUID()}`;
      const r = await runGate(
        ['proxy', '--timeout', '5', '--lock', lock, '--', process.execPath, NEVER, marker],
        marker,
        INITIALIZE,
      );
      assert.equal(r.code, GATE_EXIT.error, r.err);
      assert.ok(r.seconds < 10, `took ${r.seconds.toFixed(1)} s`);
      assert.deepEqual(r.left, []);
      const answer = JSON.parse(r.out.trim()) as { id: number; error: { message: string } };
      assert.equal(answer.id, 1);
      assert.match(answer.error.message, /did not answer initialize within 5 s/);
      assert.match(r.err, /did not answer initialize within 5 s; stopped it/);
    });

    it('proxy: the agent gone, a server that ignores its stdin closing is stopped with its helper', async () => {
      const marker = `warden-timeout-${randomUUID()}`;
      const r = await runGate(
        ['proxy', '--lock', lock, '--', process.execPath, NEVER, marker],
        marker,
        '',
        true,
      );
      assert.deepEqual(r.left, []);
      assert.ok(r.seconds < 10, `took ${r.seconds.toFixed(1)} s`);
    });

    it('--timeout takes seconds above 0 and at most an hour; anything else is a usage error (3)', async () => {
      for (const bad of ['0', '=-1', 'soon', '3601', '1e3']) {
        const io = bufferIo();
        const argv = bad.startsWith('=') ? [`--timeout${bad}`] : ['--timeout', bad];
        const code = await main(['check', ...argv, '--lock', lock, '--', 'true'], io);
        assert.equal(code, GATE_EXIT.error, bad);
        assert.match(io.err.join(''), /--timeout must be a number of seconds/);
      }
    });
  },
);
