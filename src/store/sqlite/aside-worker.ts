// A worker thread's own connection to the store's SQLite file, for writes that may wait
// (the activity record): their statements, and the disk's flush at each commit, run
// here instead of on the event loop that answers requests. Started by aside.ts.
import { parentPort, workerData } from 'node:worker_threads';
import type { AsideReply, AsideRequest } from './aside.ts';
import { openSqlite } from './executor.ts';

const port = parentPort!;
const sql = openSqlite((workerData as { path: string }).path);
port.on('message', (req: AsideRequest) => {
  if (req === 'close') {
    void sql.close().then(() => port.close());
    return;
  }
  sql.write(req.statements).then(
    (changes) => port.postMessage({ id: req.id, changes } satisfies AsideReply),
    (err: unknown) => {
      const e = err as { message?: unknown; code?: unknown };
      port.postMessage({
        id: req.id,
        error: {
          message: String(e.message ?? err),
          ...(typeof e.code === 'string' ? { code: e.code } : {}),
        },
      } satisfies AsideReply);
    },
  );
});
