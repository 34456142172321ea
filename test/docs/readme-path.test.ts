// The README's path, run as a newcomer runs it: every ```sh block, in the order the README
// gives them, in a fresh directory, each command exiting 0.
//
// Substituted, and only these (the test says so here and in its output on failure):
// - `npm ci` and `npm test` are not run: the dependencies are those of this checkout, and the
//   suite is what runs this test.
// - `npm start` is what the package's start script runs, `./bin/warden.js serve`; started in
//   the background (`npm start &`), the next command waits until it answers /healthz, where a
//   person would wait for its banner. The foreground `npm start` of the first block is not
//   run: the next block starts the server it uses.
// - The port 8787 is replaced by a free one (`serve --port`, and in every URL), and
//   WARDEN_PUBLIC_URL names its origin for `login-link`, so that this test can run beside others.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');

/** The README's shell blocks, in order, as lines (comments kept: bash ignores them). */
function shellBlocks(readme: string): string[][] {
  return [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) =>
    m[1]!.split('\n').filter((l) => l.trim() !== ''),
  );
}

/** What the test runs for one README line; null when the line is not run (said why above). */
function substitute(line: string, port: number): string | null {
  const cmd = line.replace(/\s+#.*$/, '').trim();
  if (/^npm (ci|test)\b/.test(cmd) || cmd === 'npm ci && npm start' || cmd === 'npm start') return null;
  if (cmd === 'npm start &')
    return [
      `./bin/warden.js serve --port ${port} > serve.log 2>&1 &`,
      'SERVER=$!',
      "trap 'kill $SERVER' EXIT",
      `for i in $(seq 100); do curl -fs http://localhost:${port}/healthz > /dev/null && break; sleep 0.2; done`,
    ].join('\n');
  return cmd.replaceAll('8787', String(port));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe("the README's commands, top to bottom", () => {
  it('reads the blocks this test runs: the quick start, Thirty seconds, the console', () => {
    const blocks = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    assert.ok(blocks.length >= 3, `${blocks.length} shell blocks`);
    assert.match(blocks[0]!.join('\n'), /npm ci && npm start/);
    assert.match(blocks[1]!.join('\n'), /admin init/);
    assert.match(blocks[2]!.join('\n'), /login-link alice/);
  });

  it('run in a fresh directory, every command exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-readme-'));
    // The clone's bin/ (its dist/ comes with it through the link); the store is made here.
    symlinkSync(join(ROOT, 'bin'), join(dir, 'bin'));
    const port = await freePort();
    const lines = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8')).flat();
    const script = ['set -u'];
    const ran: string[] = [];
    for (const line of lines) {
      const cmd = substitute(line, port);
      if (cmd === null) continue;
      // Each README command must exit 0; the first that does not stops the script, named by its index.
      const last = cmd.split('\n').at(-1)!;
      script.push(
        ...cmd.split('\n').slice(0, -1),
        `${last} || { echo "README_FAILED $? ${ran.length}" >&2; exit 1; }`,
      );
      ran.push(line);
    }
    // The link the console block printed opens the console at the server's public origin.
    script.push(`curl -fs -o /dev/null "$(./bin/warden.js admin principal login-link alice)"`);
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, WARDEN_PUBLIC_URL: `http://localhost:${port}` };
      delete env['WARDEN_DB'];
      const run = spawnSync('bash', ['-c', script.join('\n')], {
        cwd: dir,
        encoding: 'utf8',
        env,
        timeout: 120_000,
      });
      let log = '';
      try {
        log = readFileSync(join(dir, 'serve.log'), 'utf8');
      } catch {
        // no server started
      }
      const failed = /README_FAILED (\d+) (\d+)/.exec(run.stderr);
      const which = failed ? `README command failed (exit ${failed[1]}): ${ran[Number(failed[2])]}\n` : '';
      assert.equal(run.status, 0, `${which}${run.stderr}\n--- stdout\n${run.stdout}\n--- server\n${log}`);
      assert.ok(ran.some((l) => l.includes('operator grant alice')));
      assert.match(run.stdout, /why|consult/i, 'the last doctor says why consult is missing');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
