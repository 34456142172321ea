import { SEVERAL_AUTHORS, type HeldFingerprint, type PrivateWordsRetention } from '../core/private-words.ts';
import type { GuardedStatement, Param, SqlExecutor } from './sql.ts';

/**
 * Fingerprints of words another member wrote privately to a principal, as served to
 * the principal's agents (core/private-words.ts decides; this only keeps them). One row
 * per (principal, fingerprint): the author's handle (SEVERAL_AUTHORS once two members
 * have written those words to the principal) and when it was last served. No text.
 *
 * The bound holds in the write that records, on every replica: that write first locks
 * the principal's row (so two replicas recording for one principal take turns), removes
 * the rows served longer ago than the age, then, while the principal holds more than the
 * count, removes the least recently served rows of the author holding the most. Reads
 * never count a row past the age, swept or not.
 */

/** A fingerprint served again within this long is not written again (a polled inbox costs one read). */
const REFRESH_MS = 3600 * 1000;
/** Fingerprints per statement: 4 parameters a row stays far below either engine's limit. */
const CHUNK = 400;
/** Eviction passes per write: each takes from the author then holding the most. */
const EVICTION_PASSES = 4;

const EVICT = `DELETE FROM private_words WHERE principal_id = ? AND fingerprint IN (
  SELECT fingerprint FROM private_words
  WHERE principal_id = ? AND author_handle = (
    SELECT author_handle FROM private_words WHERE principal_id = ?
    GROUP BY author_handle ORDER BY COUNT(*) DESC, author_handle LIMIT 1)
  ORDER BY served_at, fingerprint
  LIMIT (SELECT CASE WHEN COUNT(*) > ? THEN COUNT(*) - ? ELSE 0 END FROM private_words WHERE principal_id = ?))`;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** Which of `fingerprints` the principal holds, served at or after `since`. */
export async function findPrivateWords(
  sql: SqlExecutor,
  principalId: string,
  fingerprints: readonly string[],
  since: string,
): Promise<HeldFingerprint[]> {
  const held: HeldFingerprint[] = [];
  for (const part of chunks([...new Set(fingerprints)], CHUNK)) {
    // The age is checked here, not in SQL: with it there, SQLite walks the principal's rows by
    // time instead of looking each fingerprint up by the primary key.
    const rows = await sql.all(
      `SELECT fingerprint, author_handle, served_at FROM private_words
       WHERE principal_id = ? AND fingerprint IN (${marks(part.length)})`,
      [principalId, ...part],
    );
    for (const r of rows) {
      if (String(r['served_at']) < since) continue;
      held.push({ fingerprint: String(r['fingerprint']), author: String(r['author_handle']) });
    }
  }
  return held;
}

/**
 * Records `served` for the principal at `at` and keeps the bound. Fingerprints already
 * held and served within REFRESH_MS are left as they are, so reading the same inbox
 * again writes nothing.
 */
export async function recordPrivateWords(
  sql: SqlExecutor,
  retention: PrivateWordsRetention,
  principalId: string,
  served: readonly HeldFingerprint[],
  at: Date,
): Promise<void> {
  const byFingerprint = new Map<string, string>();
  for (const s of served) if (!byFingerprint.has(s.fingerprint)) byFingerprint.set(s.fingerprint, s.author);
  if (byFingerprint.size === 0) return;
  // Held and served lately, by this author or by several already: nothing to write.
  const fresh = new Map(
    (await findPrivateWords(sql, principalId, [...byFingerprint.keys()], iso(at.getTime() - REFRESH_MS))).map(
      (h) => [h.fingerprint, h.author],
    ),
  );
  const due = [...byFingerprint].filter(([fp, author]) => {
    const held = fresh.get(fp);
    return held !== author && held !== SEVERAL_AUTHORS;
  });
  if (due.length === 0) return;
  const now = at.toISOString();
  const statements: GuardedStatement[] = [
    // Locks the principal's row until commit: replicas recording for one principal take turns.
    { sql: `UPDATE principals SET id = id WHERE id = ?`, params: [principalId] },
  ];
  for (const part of chunks(due, CHUNK / 4)) {
    const params: Param[] = [];
    for (const [fp, author] of part) params.push(principalId, fp, author, now);
    statements.push({
      sql: `INSERT INTO private_words (principal_id, fingerprint, author_handle, served_at)
            VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')}
            ON CONFLICT (principal_id, fingerprint)
            DO UPDATE SET served_at = excluded.served_at, author_handle = CASE
              WHEN private_words.author_handle = excluded.author_handle THEN excluded.author_handle
              ELSE '${SEVERAL_AUTHORS}' END`,
      params,
    });
  }
  statements.push({
    sql: `DELETE FROM private_words WHERE principal_id = ? AND served_at < ?`,
    params: [principalId, iso(at.getTime() - retention.maxAgeMs)],
  });
  const max = retention.maxPerPrincipal;
  for (let i = 0; i < EVICTION_PASSES; i++)
    statements.push({ sql: EVICT, params: [principalId, principalId, principalId, max, max, principalId] });
  await sql.write(statements);
}

/** How many fingerprints the principal holds (for tests and the bench: the bound, measured). */
export async function countPrivateWords(sql: SqlExecutor, principalId: string): Promise<number> {
  const r = await sql.get(`SELECT COUNT(*) AS n FROM private_words WHERE principal_id = ?`, [principalId]);
  return Number(r?.['n'] ?? 0);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
