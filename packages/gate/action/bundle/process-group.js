// Runs a stdio MCP server in a process group of its own, so that stopping this process stops
// everything the server started. A client ends a stdio server by closing its stdin and then
// signalling the process it started; for `npx pkg` or a shell that process is a launcher, and
// a server that keeps running after its stdin closes would be left behind, orphaned.
// Plain JavaScript on purpose: it is started with `node` alone, from the sources or the bundle.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { setInterval, setTimeout } from 'node:timers';

const [command, ...args] = process.argv.slice(2);
// A host that reports a failed start in its own words (the proxy) says so; the server never sees it.
const PREFIX = process.env.WARDEN_GATE_LAUNCH_PREFIX;
delete process.env.WARDEN_GATE_LAUNCH_PREFIX;
const child = spawn(command, args, { stdio: 'inherit', detached: true });
const group = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
};

child.on('error', (err) => {
  if (PREFIX !== undefined) {
    process.stderr.write(`${PREFIX}cannot start ${command}: ${err.code ?? err.message}\n`);
    process.exit(127);
  }
  const why =
    err.code === 'ENOENT'
      ? `command not found: ${command} (ENOENT); is it installed and on PATH?`
      : err.code === 'EACCES'
        ? `permission denied running ${command} (EACCES); is it an executable file?`
        : `cannot start ${command}: ${err.message}`;
  process.stderr.write(`${why}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  group('SIGKILL');
  process.exitCode = code ?? (signal ? 128 : 1);
});
/**
 * Stops the whole group: SIGTERM, then SIGKILL to what is left after GRACE_MS, then this
 * launcher exits. The grace is short on purpose: a client that signals the launcher escalates
 * to SIGKILL on its own after a second (the SDK does), and a launcher killed first could no
 * longer reach the group.
 */
const GRACE_MS = 250;
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  group('SIGTERM');
  setTimeout(() => {
    group('SIGKILL');
    process.exit(code);
  }, GRACE_MS).unref();
}
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(128 + 15));

// The client gone without a word (killed, crashed): the launcher is handed to another parent,
// and the group must not outlive the client.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop(128 + 1);
}, 200).unref();
