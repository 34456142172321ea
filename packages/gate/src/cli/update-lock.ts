// `check --update-lock`: a compatible run's drift taken into the lock in the same step, so a CI
// job keeps the lock current with no laptop; a breaking or unknown run leaves it untouched.
import type { Launch, ServerSnapshot } from '../compat/index.ts';
import { UsageError, type CliIo } from '../host/io.ts';
import type { GateResult } from '../lock/compare.ts';
import { writeLock, type Lock } from '../lock/lockfile.ts';
import { takeCompatible } from '../lock/take.ts';
import { groupEntries, groupTitles } from '../report/groups.ts';
import type { GateArgs } from './options.ts';

/** The reason recorded with each change when `--reason` gives none. */
const UPDATE_REASON = 'compatible change taken in by check --update-lock';

interface Compared {
  lock: Lock;
  live: Map<string, ServerSnapshot>;
  result: GateResult;
  launches?: Map<string, Launch>;
  failed: string[];
}

/** One line on stderr saying why the lock was left as it was. */
export function notUpdated(args: GateArgs, io: CliIo, why: string): void {
  io.stderr(`${io.program ?? 'warden-gate'} check: ${args.lock} not updated: ${why}\n`);
}

/**
 * Writes the compatible drift of a run into its lock and says so in one line on stderr (stdout
 * carries the report, which may be JSON or SARIF). Says too why a run that is not compatible
 * left the lock as it was; an identical run with nothing new to pin says nothing.
 */
export function updateLock(args: GateArgs, compared: Compared, io: CliIo, now = new Date()): void {
  const { lock, live, result, failed } = compared;
  if (failed.length > 0) return notUpdated(args, io, `${failed.join(', ')} could not be read`);
  const taken = takeCompatible(lock, result, live, compared.launches ?? new Map(), {
    at: now.toISOString(),
    reason: args.reason ?? UPDATE_REASON,
  });
  if (!taken) return notUpdated(args, io, `the change is ${result.verdict}; review it and accept it by hand`);
  if (taken.items.length === 0 && taken.pinned.length === 0) return;
  try {
    writeLock(args.lock, lock);
  } catch (err) {
    throw new UsageError(
      `--update-lock cannot write ${args.lock}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  const many = result.servers.length > 1;
  const n = taken.items.length;
  const parts = [
    ...(n > 0
      ? [
          `took in ${n} compatible change${n === 1 ? '' : 's'}: ${groupTitles(groupEntries(taken.items), many)}`,
        ]
      : []),
    ...taken.pinned.map((p) => `pinned ${many ? `${p.server}: ` : ''}${p.surfaces.join(', ')}`),
  ];
  io.stderr(`${io.program ?? 'warden-gate'} check: ${args.lock} updated: ${parts.join('; ')}\n`);
}
