import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startClub, type TestClub } from '../helpers/club.ts';
import { BIN, REPO, tempDir, writeConfig, type JsonServer } from './support.ts';

/** Runs the real executable; resolves with its exit code and output whatever the code. */
function warden(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: REPO, env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, out: stdout, err: stderr });
      },
    );
  });
}

describe('node bin/warden.js doctor: the real executable and its exit codes', () => {
  let club: TestClub;
  let tmp: ReturnType<typeof tempDir>;
  before(async () => {
    club = await startClub();
    tmp = tempDir();
  });
  after(async () => {
    await club.close();
    tmp.remove();
  });

  it('a healthy member: exit 0 and the stable JSON', async () => {
    const { token } = await club.addMember('alice');
    const run = await warden([
      'doctor',
      club.server.mcpUrl,
      '--token',
      token,
      '--expect',
      'member',
      '--json',
    ]);
    assert.equal(run.code, 0, run.err);
    const parsed = JSON.parse(run.out) as { servers: JsonServer[] };
    const s = parsed.servers[0];
    assert.deepEqual(
      [s?.name, s?.url, s?.tier, s?.tools, s?.total, s?.ok],
      [new URL(club.server.url).host, club.server.mcpUrl, 'member', 14, 15, true],
    );
  });

  it('a config that lost its token, read from a file: exit 1, and the reason printed', async () => {
    const file = writeConfig(tmp.dir, 'project/.mcp.json', {
      mcpServers: { club: { type: 'http', url: club.server.mcpUrl } },
    });
    const run = await warden(['doctor', '--config', file, '--expect', 'member']);
    assert.equal(run.code, 1, run.err);
    assert.match(run.out, /✗ tier: anonymous — 3 of 15 tools \(expected member\)/);
    assert.match(run.out, /this configuration sends no Authorization header/);
  });

  it('a server that answers nothing: exit 2 after the timeout, not minutes', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const started = Date.now();
    const run = await warden(['doctor', `http://127.0.0.1:${port}/mcp`, '--timeout', '1', '--json']);
    for (const socket of sockets) socket.destroy();
    silent.close();
    assert.equal(run.code, 2, run.err);
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
    const s = (JSON.parse(run.out) as { servers: JsonServer[] }).servers[0];
    assert.equal(s?.status, 'unreachable');
    assert.match(s?.reasons[0] ?? '', /no answer before the timeout/);
  });
});
