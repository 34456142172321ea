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
 * - by count: each principal's rows carry a sequence number (the principal's highest
 *   plus one, read from an index), and the write that adds rows removes that principal's
 *   rows more than `maxPerPrincipal` behind the newest — one index seek, and in the
 *   steady state as many rows removed as added;
 * - by age: each write also removes up to `AGE_SWEEP` rows, anyone's, older than
 *   `maxAgeMs` (an index seek on the time), and reads never show an older row, so a
 *   principal whose agents fell silent sees nothing past the bound either.
 * Two replicas on PostgreSQL may give two rows one sequence number (each read the same
 * highest one); the count then holds within the rows written at the same moment.
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
 * The statements that record `entries` as one transaction: the rows, each numbered
 * after its principal's highest (the k-th of a principal in this write gets highest + k),
 * then each principal's rows past the count removed, then a bounded sweep of rows past
 * the age. Principals are pruned in sorted order, so two writers that prune the same
 * principals take their rows' locks in the same order.
 */
function recordStatements(
  entries: readonly NewActivity[],
  retention: ActivityRetention,
  nowMs: number,
): GuardedStatement[] {
  const out: GuardedStatement[] = [];
  const nth = new Map<string, number>();
  for (let i = 0; i < entries.length; i += INSERT_ROWS) {
    const chunk = entries.slice(i, i + INSERT_ROWS);
    const params: Param[] = [];
    for (const e of chunk) {
      const k = (nth.get(e.principalId) ?? 0) + 1;
      nth.set(e.principalId, k);
      params.push(
        newId('ac'),
        e.principalId,
        k,
        e.tokenId,
        cut(e.tool, TOOL_MAX),
        OUTCOMES.includes(e.outcome) ? e.outcome : 'refused',
        e.code,
        e.decisionId,
        cut(e.summary, ACTIVITY_SUMMARY_MAX),
        e.at,
      );
    }
    // VALUES names its columns column1…column10 on both engines. Both read the whole
    // SELECT before inserting, so every row of the chunk numbers from the same highest.
    out.push({
      sql: `INSERT INTO activity (id, principal_id, seq, token_id, tool, outcome, code, decision_id, summary, at)
            SELECT v.column1, v.column2,
              COALESCE((SELECT MAX(a.seq) FROM activity a WHERE a.principal_id = v.column2), 0) + CAST(v.column3 AS BIGINT),
              v.column4, v.column5, v.column6, v.column7, v.column8, v.column9, v.column10
            FROM (VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}) AS v`,
      params,
    });
  }
  for (const principalId of [...nth.keys()].sort()) {
    out.push({
      sql: `DELETE FROM activity WHERE principal_id = ?
            AND seq <= (SELECT MAX(seq) FROM activity WHERE principal_id = ?) - ?`,
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
