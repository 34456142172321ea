import type { SqlExecutor } from './sql.ts';

/**
 * Rate-limit buckets held by the store, shared by every replica: taking a request is
 * one conditional upsert, so N replicas cannot together let through more than the
 * bucket holds (no read-then-write). A bucket refills continuously; a replica whose
 * clock is behind another's neither drains nor overfills it (time never runs back).
 */

export interface BucketRate {
  perSecond: number;
  burst: number;
}

export type BucketTake = { ok: true } | { ok: false; tokens: number };

/** Both engines spell min/max of two values differently. */
const fns = (sql: SqlExecutor) =>
  sql.kind === 'sqlite' ? { least: 'MIN', greatest: 'MAX' } : { least: 'LEAST', greatest: 'GREATEST' };

const num = 'CAST(? AS DOUBLE PRECISION)';

/** Takes `count` from the bucket in one statement: all of them, or none (a new bucket starts full). */
export async function takeFromBucket(
  sql: SqlExecutor,
  key: string,
  rate: BucketRate,
  nowMs: number,
  count = 1,
): Promise<BucketTake> {
  const { least, greatest } = fns(sql);
  const perMs = rate.perSecond / 1000;
  const refilled = `${least}(${num}, rate_buckets.tokens + ${greatest}(0, ${num} - rate_buckets.at_ms) * ${num})`;
  const refilledParams = [rate.burst, nowMs, perMs];
  const take = {
    sql: `INSERT INTO rate_buckets (bucket, tokens, at_ms) SELECT ?, ${num}, ${num} WHERE ${num} >= 0
     ON CONFLICT (bucket) DO UPDATE SET tokens = ${refilled} - ${num}, at_ms = ${greatest}(rate_buckets.at_ms, ${num})
     WHERE ${refilled} >= ${num}`,
    params: [
      key,
      rate.burst - count,
      nowMs,
      rate.burst - count,
      ...refilledParams,
      count,
      nowMs,
      ...refilledParams,
      count,
    ],
  };
  // A bucket is not worth a disk flush per request: on PostgreSQL this one transaction
  // commits without waiting for its WAL to reach disk (a crash forgets a few takes, no
  // more). SQLite's synchronous setting belongs to the shared connection, so it stays.
  const changed =
    sql.kind === 'postgres'
      ? ((await sql.write([{ sql: 'SET LOCAL synchronous_commit TO OFF', params: [] }, take]))?.[1] ?? 0)
      : await sql.run(take.sql, take.params);
  if (changed > 0) return { ok: true };
  const row = await sql.get(`SELECT tokens, at_ms FROM rate_buckets WHERE bucket = ?`, [key]);
  const tokens = Number(row?.['tokens'] ?? 0) + Math.max(0, nowMs - Number(row?.['at_ms'] ?? nowMs)) * perMs;
  return { ok: false, tokens: Math.min(rate.burst, tokens) };
}

/** Drops buckets untouched since `beforeMs` (full again by then, so nothing changes). */
export async function sweepBuckets(sql: SqlExecutor, beforeMs: number): Promise<number> {
  return sql.run(`DELETE FROM rate_buckets WHERE at_ms < ${num}`, [beforeMs]);
}
