import { PROXY_USAGE } from './usage.ts';
import { GATE_EXIT, UsageError, type CliIo } from '../host/io.ts';
import { readLock } from '../lock/compare.ts';
import { Enforcer } from '../enforce/enforcer.ts';
import { lockToTools } from '../lock/lockfile.ts';
import { parseGateArgs } from './options.ts';
import { serveHttpProxy } from '../proxy/http.ts';
import { serveStdioProxy } from '../proxy/stdio.ts';

/** `warden-gate proxy`: its options read and checked; the proxy itself is proxy/. */
export async function runProxy(argv: string[], io: CliIo): Promise<number> {
  const args = parseGateArgs(argv, [
    'url',
    'header',
    'port',
    'lock',
    'calls',
    'strict-descriptions',
    'strict-open-objects',
    'timeout',
  ]);
  if (args.help) {
    io.stdout(PROXY_USAGE);
    return GATE_EXIT.pass;
  }
  const command = args.source.command;
  if (args.source.url && command)
    throw new UsageError('proxy takes one upstream: --url URL, or -- COMMAND ARGS...');
  if (!args.source.url && Object.keys(args.source.headers).length > 0)
    throw new UsageError('--header applies to --url only');
  if (!args.source.url && args.port !== undefined) throw new UsageError('--port applies to --url only');
  if (args.positionals.length > 0)
    throw new UsageError(`unexpected argument "${args.positionals[0]}" (put a server command after --)`);
  const lock = readLock(args.lock);
  const enforcer = new Enforcer(lockToTools(lock), args, (line) => io.stderr(`warden-gate proxy: ${line}\n`));
  if (args.source.url)
    return serveHttpProxy(
      {
        url: args.source.url,
        headers: args.source.headers,
        port: args.port,
        calls: args.calls,
        timeoutMs: args.source.timeoutMs,
      },
      enforcer,
      io,
    );
  if (!command) throw new UsageError('proxy needs an upstream: --url URL, or -- COMMAND ARGS...');
  return serveStdioProxy({ command, calls: args.calls, timeoutMs: args.source.timeoutMs }, enforcer, io);
}
