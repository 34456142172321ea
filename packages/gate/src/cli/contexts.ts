// The render context of each command, from its arguments: what accept reaches, what items are
// anchored to, which recording was replayed.
import type { CliIo } from '../host/io.ts';
import type { RenderContext } from '../report/context.ts';
import { acceptSource } from './accept-source.ts';
import type { GateArgs } from './options.ts';

/** check: accept against the same lock and source; items anchored to that lock. */
export function checkContext(args: GateArgs, io: CliIo): RenderContext {
  return {
    program: io.program ?? 'warden-gate',
    verbose: args.verbose,
    accept: acceptSource(args),
    anchor: args.lock,
    callsFile: args.calls,
    ...(args.config ? { launchFile: args.config } : {}),
  };
}

/**
 * diff OLD NEW: items anchored to NEW when it is a lock, else to OLD if that is one. A change
 * can be accepted only from a lock (OLD) into what NEW serves (a file that is not a lock).
 */
export function diffContext(
  args: GateArgs,
  io: CliIo,
  old: { file: string; lock: boolean },
  now: { file: string; lock: boolean },
): RenderContext {
  const anchor = now.lock ? now.file : old.lock ? old.file : undefined;
  return {
    program: io.program ?? 'warden-gate',
    verbose: args.verbose,
    accept:
      old.lock && !now.lock
        ? { lock: old.file, options: ['--manifest', now.file], command: [], serverGiven: false }
        : undefined,
    anchor,
    noAnchor: anchor ? undefined : 'neither OLD nor NEW is a lockfile',
    callsFile: args.calls,
  };
}
