import { Worker } from 'node:worker_threads';
import type { GuardedStatement } from '../sql.ts';

/** A write for the worker to run, or 'close': it closes its connection and ends. */
export type AsideRequest = { id: number; statements: GuardedStatement[] } | 'close';

/** What the worker answers a write: the rows each statement changed (null: a guard rolled it back), or why it failed. */
export type AsideReply =
  { id: number; changes: number[] | null } | { id: number; error: { message: string; code?: string } };

/** The worker's file beside this one: .ts when run from source, .js when compiled. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER = new URL(FROM_SOURCE ? './aside-worker.ts' : './aside-worker.js', import.meta.url).href;

/**
 * Starts the worker's module. From source, the TypeScript loader this process runs under
 * is registered in the worker first: on Node 20 a worker does not inherit loader hooks.
 */
const BOOT = `const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  await import(workerData.module);
})();`;

/**
 * Writes that may wait, run by a worker thread on a connection of its own to the same
 * file. better-sqlite3 is synchronous, so a write on the main connection holds the
 * event loop for its statements and, at commit, for the disk's flush (milliseconds
 * under synchronous=FULL); aside, every request keeps being served meanwhile. The two
 * connections take SQLite's write lock in turn, each retrying while the other holds
 * it (busy.ts). The worker starts with the first write and does not keep the process
 * alive; close() waits for the writes in flight.
 */
export class AsideWriter {
  #worker: Worker | undefined;
  #next = 0;
  readonly #pending = new Map<
    number,
    { resolve: (c: number[] | null) => void; reject: (e: Error) => void }
  >();

  constructor(private readonly path: string) {}

  write(statements: GuardedStatement[]): Promise<number[] | null> {
    const worker = (this.#worker ??= this.#start());
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, statements } satisfies AsideRequest);
    });
  }

  #start(): Worker {
    const loader = FROM_SOURCE ? import.meta.resolve('tsx/esm/api') : null;
    const worker = new Worker(BOOT, { eval: true, workerData: { path: this.path, module: WORKER, loader } });
    worker.unref();
    worker.on('message', (reply: AsideReply) => {
      const waiting = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      // Idle, the worker does not hold the process open.
      if (this.#pending.size === 0) worker.unref();
      if (!waiting) return;
      if ('error' in reply)
        waiting.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      else waiting.resolve(reply.changes);
    });
    worker.on('error', (err) => this.#fail(err));
    worker.on('exit', (code) => this.#fail(new Error(`the store's writer thread ended (exit ${code})`)));
    return worker;
  }

  #fail(err: Error): void {
    this.#worker = undefined;
    for (const w of this.#pending.values()) w.reject(err);
    this.#pending.clear();
  }

  /** Ends the worker once its writes are done (a write after this starts a new one). */
  async close(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    await Promise.allSettled(
      [...this.#pending.keys()].map(
        (id) =>
          new Promise<void>((resolve) => {
            const w = this.#pending.get(id)!;
            this.#pending.set(id, {
              resolve: (c) => (w.resolve(c), resolve()),
              reject: (e) => (w.reject(e), resolve()),
            });
          }),
      ),
    );
    this.#worker = undefined;
    worker.removeAllListeners('exit');
    // The worker closes its connection (SQLite checkpoints the journal) and ends.
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.ref();
      worker.postMessage('close' satisfies AsideRequest);
    });
  }
}
