/**
 * The store could not take its write lock in time because other writers held it
 * (SQLite with several processes on one file). Nothing was written; the same
 * request can simply be retried. Raised instead of blocking the event loop.
 */
export class StoreBusyError extends Error {
  readonly retryable = true;
  constructor(readonly waitedMs: number) {
    super(`the store stayed locked by other writers for ${waitedMs} ms; nothing was written`);
    this.name = 'StoreBusyError';
  }
}
