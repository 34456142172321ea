import { UsageError } from '../host/io.ts';
import { compareServers, readLock, type GateResult } from '../lock/compare.ts';
import { DEFAULT_SERVER, lockSnapshot, pickServer, type Lock } from '../lock/lockfile.ts';
import type { ServerSnapshot } from '../compat/index.ts';
import { loadSnapshot } from '../sources/sources.ts';
import type { GateArgs } from './options.ts';

/**
 * The lock against what the source serves now: what check reports and accept blesses.
 * A stray positional is a usage error (a server command belongs after --).
 */
export async function compareLockWithSource(
  args: GateArgs,
): Promise<{ lock: Lock; live: Map<string, ServerSnapshot>; result: GateResult }> {
  if (args.positionals.length > 0)
    throw new UsageError(`unexpected argument "${args.positionals[0]}" (put a server command after --)`);
  const lock = readLock(args.lock);
  const names = Object.keys(lock.servers);
  const name = args.server ?? (names.length === 1 ? (names[0] as string) : DEFAULT_SERVER);
  const pinned = lockSnapshot(pickServer(lock, name));
  const live = new Map([[name, await loadSnapshot(args.source)]]);
  return { lock, live, result: compareServers(new Map([[name, pinned]]), live, args) };
}
