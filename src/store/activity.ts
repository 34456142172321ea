import { memberText } from '../untrusted/index.ts';
import type {
  ActivityFilter,
  ActivityOutcome,
  ActivityRecord,
  ActivityRetention,
  NewActivity,
  PageRequest,
} from './contract.ts';
import type { GuardedStatement, Param, SqlExecutor } from './sql.ts';

/**
 * The record of what a principal's agents did: one row per tools/call made with one of
 * their tokens. Only the console reads it; no tool does.
 *
 * Each principal's rows are numbered (seq) from a counter of the calls ever recorded for
 * them (activity_counts), moved in the same transaction as the rows: on PostgreSQL its
 * row lock queues another replica's write for the same principal, so numbers never
 * repeat. The number orders the rows (newest first is highest first) and keys them with
 * the principal, so a row costs the table and two indexes, nothing more.
 *
 * Retention is by age alone, enforced here, in the write that records, whatever the
 * number of replicas: the write removes its principals' rows older than `maxAgeMs` (the
 * oldest are the lowest numbered: an index walk as long as what it removes), and so for
 * one other principal in turn, so rows of agents that fell silent go too; reads never
 * show a row past the age, swept or not. No row younger than that is ever removed, by
 * any count: what bounds a principal's record is how many calls each token may have
 * recorded (the record bucket of server/rate-limit.ts, 20,000 a day per token by default),
 * so an agent that floods is slowed, and cannot push anyone's recent calls out.
 */
export const ACTIVITY_RETENTION: ActivityRetention = {
  maxAgeMs: 90 * 24 * 3600 * 1000,
};

/**
 * The summary of a call's arguments is cut to this many characters (with "…"): the server
 * makes it this long at most (server/activity.ts), naming arguments first.
 */
export const ACTIVITY_SUMMARY_MAX = 600;
/** A tool name is kept to the registry's longest (an unknown one is the agent's text). */
const TOOL_MAX = 64;
/** Rows per INSERT statement (8 parameters each: far below either engine's limit). */
const INSERT_ROWS = 200;

const OUTCOMES: readonly ActivityOutcome[] = ['done', 'refused', 'queued'];

/** Cuts text to `max` code points, never inside a surrogate pair, marking the cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/** The INSERT of `rows` rows of one principal, by its number of rows: made once each. */
const INSERTS = new Map<number, string>();

/**
 * Rows of one principal (its id the first two parameters), numbered from its counter read
 * once for them all: a row that named its principal had the counter looked up again for
 * itself. Each row's first value is its place below the count; VALUES names its columns
 * column1…column8 on both engines.
 */
function insertOf(rows: number): string {
  let sql = INSERTS.get(rows);
  if (sql === undefined) {
    sql = `INSERT INTO activity (principal_id, seq, token_id, tool, outcome, code, decision_id, summary, at)
            SELECT ?, (SELECT n FROM activity_counts WHERE principal_id = ?) + CAST(v.column1 AS BIGINT),
              v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8
            FROM (VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}) AS v`;
    INSERTS.set(rows, sql);
  }
  return sql;
}

/**
 * The statements that record `entries` as one transaction. First each principal's
 * counter moves past the rows this write adds (one upsert); then the rows, numbered
 * below the new count; then, for those principals and for `sweep` (one more, taken in
 * turn), the rows past the age. Principals go in sorted
 * order, so two writers lock the same rows in the same order.
 */
function recordStatements(
  entries: readonly NewActivity[],
  retention: ActivityRetention,
  nowMs: number,
  sweep: string | null,
): GuardedStatement[] {
  // Each principal's entries, in the order recorded.
  const byPrincipal = new Map<string, NewActivity[]>();
  for (const e of entries) {
    const mine = byPrincipal.get(e.principalId);
    if (mine) mine.push(e);
    else byPrincipal.set(e.principalId, [e]);
  }
  const principals = [...byPrincipal.keys()].sort();
  const out: GuardedStatement[] = principals.map((principalId) => ({
    sql: `INSERT INTO activity_counts (principal_id, n) VALUES (?, ?)
          ON CONFLICT (principal_id) DO UPDATE SET n = activity_counts.n + excluded.n`,
    params: [principalId, byPrincipal.get(principalId)!.length],
  }));
  // The k-th row of a principal's K in this write is number (count after it) - K + k.
  for (const principalId of principals) {
    const mine = byPrincipal.get(principalId)!;
    for (let i = 0; i < mine.length; i += INSERT_ROWS) {
      const chunk = mine.slice(i, i + INSERT_ROWS);
      const params: Param[] = [principalId, principalId];
      for (let k = 0; k < chunk.length; k++) {
        const e = chunk[k]!;
        params.push(
          i + k + 1 - mine.length,
          e.tokenId,
          cut(e.tool, TOOL_MAX),
          OUTCOMES.includes(e.outcome) ? e.outcome : 'refused',
          e.code,
          e.decisionId,
          cut(e.summary, ACTIVITY_SUMMARY_MAX),
          e.at,
        );
      }
      out.push({ sql: insertOf(chunk.length), params });
    }
  }
  const oldest = new Date(nowMs - retention.maxAgeMs).toISOString();
  for (const principalId of [...new Set([...principals, ...(sweep ? [sweep] : [])])].sort()) {
    out.push({
      // Below the first row young enough to keep, or every row when none is.
      sql: `DELETE FROM activity WHERE principal_id = ? AND seq < COALESCE(
                (SELECT seq FROM activity WHERE principal_id = ? AND at >= ? ORDER BY seq LIMIT 1),
                (SELECT n + 1 FROM activity_counts WHERE principal_id = ?))`,
      params: [principalId, principalId, oldest, principalId],
    });
  }
  return out;
}

/** Calls recorded since the last write, and the promise they all share. */
interface Batch {
  entries: NewActivity[];
  done: Promise<void>;
  settle: (err?: unknown) => void;
}

function newBatch(): Batch {
  let settle!: Batch['settle'];
  const done = new Promise<void>((resolve, reject) => {
    settle = (err) => (err === undefined ? resolve() : reject(err));
  });
  // A caller that does not wait for its record must not turn a failed write into a crash.
  done.catch(() => undefined);
  return { entries: [], done, settle };
}

/**
 * Records activity with the calls, in group commits: a call's row is written before its
 * answer leaves (server/call.ts waits for it), so an acknowledged call is on the record
 * whatever happens to the process after. To keep that from costing a commit per call,
 * the rows recorded while one write is under way wait for it and are written together
 * as the next (or at once, when `maxBatch` rows wait): under load a commit carries every
 * call that arrived during the one before, and a quiet server writes a row as soon as it
 * comes (`flushMs` later, 0 by default). The calls of one write share one promise,
 * settled when their rows are committed. A write that fails is tried once more before its
 * calls are told.
 */
export class ActivityWriter {
  #batch: Batch | undefined;
  /** The next write, when one is due: after `flushMs`, or on the next turn of the loop. */
  #due: { cancel(): void } | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** Writes started and not yet settled: while one is, new rows wait to go with the next. */
  #inFlight = 0;
  #swept = '';

  constructor(
    private readonly sql: SqlExecutor,
    readonly retention: ActivityRetention,
    private readonly flushMs: number,
    private readonly maxBatch: number,
  ) {}

  record(entries: readonly NewActivity[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    const batch = (this.#batch ??= newBatch());
    batch.entries.push(...entries);
    if (batch.entries.length >= this.maxBatch) void this.flush();
    else if (this.#inFlight === 0) this.#schedule();
    return batch.done;
  }

  /** The next write starts `flushMs` from now, or on the next turn of the event loop. */
  #schedule(): void {
    if (this.#due !== undefined) return;
    const go = () => void this.flush();
    if (this.flushMs > 0) {
      const timer = setTimeout(go, this.flushMs);
      this.#due = { cancel: () => clearTimeout(timer) };
    } else {
      const immediate = setImmediate(go);
      this.#due = { cancel: () => clearImmediate(immediate) };
    }
  }

  /** Writes everything recorded so far; resolves once it is committed (or given up). */
  flush(): Promise<void> {
    this.#due?.cancel();
    this.#due = undefined;
    const batch = this.#batch;
    this.#batch = undefined;
    // One write at a time, in order: a batch never overtakes the one before it.
    if (batch) {
      this.#inFlight++;
      this.#writing = this.#writing.then(async () => {
        await this.#write(batch);
        // What arrived meanwhile goes next, as one write.
        if (--this.#inFlight === 0 && this.#batch !== undefined) this.#schedule();
      });
    }
    return this.#writing;
  }

  /** The principal whose old rows the next write also sweeps: each in turn, in id order. */
  async #nextSweep(): Promise<string | null> {
    const next =
      (await this.sql.get(
        `SELECT principal_id FROM activity_counts WHERE principal_id > ? ORDER BY principal_id LIMIT 1`,
        [this.#swept],
      )) ?? (await this.sql.get(`SELECT principal_id FROM activity_counts ORDER BY principal_id LIMIT 1`));
    this.#swept = next ? String(next['principal_id']) : '';
    return next ? this.#swept : null;
  }

  async #write(batch: Batch): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const sweep = await this.#nextSweep();
        await this.sql.writeAside(recordStatements(batch.entries, this.retention, Date.now(), sweep));
        return batch.settle();
      } catch (err) {
        if (attempt === 2) return batch.settle(err);
        await new Promise((r) => setTimeout(r, this.flushMs));
      }
    }
  }
}

/**
 * The columns a page shows, and the principal's handle (the author of the member text in
 * them) read once by a subquery rather than joined to each row: a page's rows cost what
 * SQLite hands over for each, column by column, so a row brings only what is drawn, as
 * an array (an object per row, its ten columns named, cost a third of the row's read).
 */
const SELECT_ACTIVITY = `SELECT a.seq, a.token_id, a.tool, a.outcome, a.code, a.decision_id, a.summary, a.at,
    t.label, (SELECT handle FROM principals WHERE id = ?)
  FROM activity a LEFT JOIN tokens t ON t.id = a.token_id`;

const optional = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** A row of SELECT_ACTIVITY, its columns in the order selected. */
function toActivity(r: unknown[], principalId: string): ActivityRecord {
  const [seq, tokenId, tool, outcome, code, decisionId, summary, at, label, handle] = r;
  const author = String(handle);
  return {
    principalId,
    seq: Number(seq),
    tokenId: String(tokenId),
    tokenLabel: typeof label === 'string' ? memberText(label, author) : null,
    tool: memberText(String(tool), author),
    outcome: String(outcome) as ActivityOutcome,
    code: optional(code),
    decisionId: optional(decisionId),
    summary: summary === '' ? null : memberText(String(summary), author),
    at: String(at),
  };
}

/**
 * A principal's activity, one keyset page by number read from an index: (principal,
 * seq), or (principal, token, seq) for one token. Rows past the age bound are never
 * returned, swept or not.
 */
export async function pageActivity(
  sql: SqlExecutor,
  principalId: string,
  filter: ActivityFilter,
  page: PageRequest<number>,
  oldest: string,
): Promise<ActivityRecord[]> {
  const where = ['a.principal_id = ?'];
  const params: Param[] = [principalId, principalId];
  if (filter.tokenId !== undefined) {
    where.push('a.token_id = ?');
    params.push(filter.tokenId);
  }
  where.push('a.at >= ?');
  params.push(oldest);
  const desc = page.newestFirst === true;
  if (page.after !== undefined) {
    where.push(`a.seq ${desc ? '<' : '>'} ?`);
    params.push(page.after);
  }
  params.push(page.limit);
  const rows = await sql.allArrays(
    `${SELECT_ACTIVITY} WHERE ${where.join(' AND ')} ORDER BY a.seq${desc ? ' DESC' : ''} LIMIT ?`,
    params,
  );
  return rows.map((r) => toActivity(r, principalId));
}
