import { memberText } from '../untrusted/index.ts';
import type {
  ActivityFilter,
  ActivityOutcome,
  ActivityRecord,
  ActivityRetention,
  NewActivity,
  PageRequest,
  TimeKey,
} from './contract.ts';
import { newId } from './ids.ts';
import type { GuardedStatement, Param, Row, SqlExecutor } from './sql.ts';

/**
 * The record of what a principal's agents did: one row per tools/call made with one of
 * their tokens. Only the console reads it; no tool does.
 *
 * Retention is enforced here, in the write that records, whatever the number of replicas:
 * - by count: each principal has a counter of the calls ever recorded for them
 *   (activity_counts), each row carries its number, and the write that adds rows
 *   removes that principal's rows numbered more than `maxPerPrincipal` below the
 *   counter — an index range, in the steady state as many rows removed as added. The
 *   counter is one row updated in the same transaction, so replicas number alike;
 * - by age: each write also removes up to `AGE_SWEEP` rows, anyone's, older than
 *   `maxAgeMs` (an index seek on the time), and reads never show an older row, so a
 *   principal whose agents fell silent sees nothing past the bound either.
 */
export const ACTIVITY_RETENTION: ActivityRetention = {
  maxPerPrincipal: 20_000,
  maxAgeMs: 90 * 24 * 3600 * 1000,
};

/** The summary of a call's arguments is cut to this many characters (with "…"). */
export const ACTIVITY_SUMMARY_MAX = 240;
/** A tool name is kept to the registry's longest (an unknown one is the agent's text). */
const TOOL_MAX = 64;
/** Rows past the age bound removed by one write, at most. */
const AGE_SWEEP = 256;
/** Rows per INSERT statement (10 parameters each: far below either engine's limit). */
const INSERT_ROWS = 200;

const OUTCOMES: readonly ActivityOutcome[] = ['done', 'refused', 'queued'];

/** Cuts text to `max` code points, never inside a surrogate pair, marking the cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * The statements that record `entries` as one transaction. First each principal's
 * counter moves past the rows this write adds (one upsert; on PostgreSQL its row lock
 * also queues any other replica's write for the same principal until this one
 * commits); then the rows, numbered below the new count; then each principal's rows
 * more than the bound behind it removed; then a bounded sweep of rows past the age.
 * Principals go in sorted order, so two writers lock the same rows in the same order.
 */
function recordStatements(
  entries: readonly NewActivity[],
  retention: ActivityRetention,
  nowMs: number,
): GuardedStatement[] {
  const added = new Map<string, number>();
  for (const e of entries) added.set(e.principalId, (added.get(e.principalId) ?? 0) + 1);
  const principals = [...added.keys()].sort();
  const out: GuardedStatement[] = principals.map((principalId) => ({
    sql: `INSERT INTO activity_counts (principal_id, n) VALUES (?, ?)
          ON CONFLICT (principal_id) DO UPDATE SET n = activity_counts.n + excluded.n`,
    params: [principalId, added.get(principalId)!],
  }));
  // The k-th row of a principal's K in this write is number (count after it) - K + k.
  const left = new Map(added);
  for (let i = 0; i < entries.length; i += INSERT_ROWS) {
    const chunk = entries.slice(i, i + INSERT_ROWS);
    const params: Param[] = [];
    for (const e of chunk) {
      const below = left.get(e.principalId)! - 1;
      left.set(e.principalId, below);
      params.push(
        newId('ac'),
        e.principalId,
        0 - below,
        e.tokenId,
        cut(e.tool, TOOL_MAX),
        OUTCOMES.includes(e.outcome) ? e.outcome : 'refused',
        e.code,
        e.decisionId,
        cut(e.summary, ACTIVITY_SUMMARY_MAX),
        e.at,
      );
    }
    // VALUES names its columns column1…column10 on both engines.
    out.push({
      sql: `INSERT INTO activity (id, principal_id, seq, token_id, tool, outcome, code, decision_id, summary, at)
            SELECT v.column1, v.column2,
              (SELECT c.n FROM activity_counts c WHERE c.principal_id = v.column2) + CAST(v.column3 AS BIGINT),
              v.column4, v.column5, v.column6, v.column7, v.column8, v.column9, v.column10
            FROM (VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}) AS v`,
      params,
    });
  }
  for (const principalId of principals) {
    out.push({
      sql: `DELETE FROM activity WHERE principal_id = ?
            AND seq <= (SELECT n FROM activity_counts WHERE principal_id = ?) - ?`,
      params: [principalId, principalId, retention.maxPerPrincipal],
    });
  }
  out.push({
    sql: `DELETE FROM activity WHERE id IN (SELECT id FROM activity WHERE at < ? ORDER BY at LIMIT ?)`,
    params: [new Date(nowMs - retention.maxAgeMs).toISOString(), AGE_SWEEP],
  });
  return out;
}

interface Waiting {
  entries: readonly NewActivity[];
  resolve: () => void;
  reject: (err: unknown) => void;
  tries: number;
}

/**
 * Records activity in batches, off the caller's path: what is recorded within
 * `flushMs` (or until `maxBatch` rows wait) is written in one transaction, so a
 * tools/call costs its row, not a commit of its own (a SQLite commit waits for the
 * disk). Each record's promise settles when its rows are committed. Reading the
 * activity, and closing the store, first write what waits: a page shows every call
 * this process answered before it, and a normal shutdown loses nothing. A write that
 * fails is tried once more with the next batch before its records are given up.
 */
export class ActivityWriter {
  #queue: Waiting[] = [];
  #queued = 0;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: SqlExecutor,
    readonly retention: ActivityRetention,
    private readonly flushMs: number,
    private readonly maxBatch: number,
  ) {}

  record(entries: readonly NewActivity[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ entries, resolve, reject, tries: 0 });
      this.#queued += entries.length;
      if (this.#queued >= this.maxBatch) void this.flush();
      else this.#timer ??= setTimeout(() => void this.flush(), this.flushMs);
    });
  }

  /** Writes everything recorded so far; resolves once it is committed (or given up). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue;
    this.#queue = [];
    this.#queued = 0;
    // One write at a time, in order: a batch never overtakes the one before it.
    this.#writing = this.#writing.then(() => this.#write(batch));
    return this.#writing;
  }

  async #write(batch: Waiting[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      await this.sql.writeAside(
        recordStatements(
          batch.flatMap((w) => w.entries),
          this.retention,
          Date.now(),
        ),
      );
    } catch (err) {
      const retry = batch.filter((w) => w.tries++ === 0);
      for (const w of batch) if (!retry.includes(w)) w.reject(err);
      if (retry.length > 0) {
        this.#queue.unshift(...retry);
        this.#queued += retry.reduce((n, w) => n + w.entries.length, 0);
        this.#timer ??= setTimeout(() => void this.flush(), this.flushMs);
      }
      return;
    }
    for (const w of batch) w.resolve();
  }
}

const SELECT_ACTIVITY = `SELECT a.*, p.handle AS principal_handle, t.label AS token_label
  FROM activity a JOIN principals p ON p.id = a.principal_id LEFT JOIN tokens t ON t.id = a.token_id`;

function toActivity(r: Row): ActivityRecord {
  const handle = String(r['principal_handle']);
  const label = r['token_label'];
  const optional = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id: String(r['id']),
    principalId: String(r['principal_id']),
    tokenId: String(r['token_id']),
    tokenLabel: typeof label === 'string' ? memberText(label, handle) : null,
    tool: memberText(String(r['tool']), handle),
    outcome: String(r['outcome']) as ActivityOutcome,
    code: optional(r['code']),
    decisionId: optional(r['decision_id']),
    summary: memberText(String(r['summary']), handle),
    at: String(r['at']),
  };
}

/**
 * A principal's activity, one keyset page read from an index: (principal, time, id),
 * or (principal, token, time, id) for one token. Rows past the age bound are never
 * returned, swept or not.
 */
export async function pageActivity(
  sql: SqlExecutor,
  principalId: string,
  filter: ActivityFilter,
  page: PageRequest<TimeKey>,
  oldest: string,
): Promise<ActivityRecord[]> {
  const where = ['a.principal_id = ?'];
  const params: Param[] = [principalId];
  if (filter.tokenId !== undefined) {
    where.push('a.token_id = ?');
    params.push(filter.tokenId);
  }
  where.push('a.at >= ?');
  params.push(oldest);
  const desc = page.newestFirst === true;
  if (page.after) {
    where.push(`(a.at, a.id) ${desc ? '<' : '>'} (?, ?)`);
    params.push(page.after.at, page.after.id);
  }
  const order = desc ? 'a.at DESC, a.id DESC' : 'a.at, a.id';
  params.push(page.limit);
  const rows = await sql.all(
    `${SELECT_ACTIVITY} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`,
    params,
  );
  return rows.map(toActivity);
}
