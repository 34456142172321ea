// Runs a stdio MCP server in a process group of its own, so that stopping this process stops
// everything the server started. A client ends a stdio server by closing its stdin and then
// signalling the process it started; for `npx pkg` or a shell that process is a launcher, and
// a server that keeps running after its stdin closes would be left behind, orphaned.
// Plain JavaScript on purpose: it is started with `node` alone, from the sources or the bundle.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { setTimeout } from 'node:timers';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: 'inherit', detached: true });
const group = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
};

child.on('error', (err) => {
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
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    group('SIGTERM');
    setTimeout(() => {
      group('SIGKILL');
      process.exit(128 + 15);
    }, 1000).unref();
  });
}
