import { setTimeout as sleep } from 'node:timers/promises';
import { StoreBusyError } from '../busy.ts';

/** How long one request keeps retrying a locked SQLite file before it gives up. */
const BUSY_DEADLINE_MS = 2_000;

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * Runs a synchronous SQLite step; while the file is locked by another process it
 * retries after a short, jittered pause that yields the event loop, so other
 * requests keep being served. Past the deadline it gives up with StoreBusyError
 * (nothing written), which callers answer with retry advice.
 */
export async function retryWhileBusy<T>(step: () => T, deadlineMs = BUSY_DEADLINE_MS): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return step();
    } catch (err) {
      if (!isBusy(err)) throw err;
      const waited = Date.now() - started;
      if (waited >= deadlineMs) throw new StoreBusyError(waited);
      const pause = Math.min(2 ** attempt, 50) * (0.5 + Math.random());
      await sleep(Math.min(pause, deadlineMs - waited + 1));
    }
  }
}
