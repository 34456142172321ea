import { randomBytes } from 'node:crypto';
import type { PrincipalStatus } from '../core/tiers.ts';
import type {
  DecisionRecord,
  DecisionStatus,
  EvidenceRecord,
  PageRequest,
  PrincipalPage,
  PrincipalPageFilter,
  QuestionRecord,
  QuestionStatus,
  ReviewVerdict,
  TimeKey,
} from './contract.ts';
import { SELECT, toDecision, toEvidence, toPrincipal, toQuestion } from './rows.ts';
import { queryRanges, termsOf } from './search.ts';
import type { Param, SqlExecutor } from './sql.ts';

/**
 * Keyset pages: each reads an index in list order from just after the last row the
 * caller saw, so a page deep in a large table costs what the first one costs, and a
 * row inserted meanwhile is neither skipped nor repeated by the rows around it.
 */

/** `(col_a, col_b) > (?, ?)`: both engines compare row values and seek an index with it. */
function afterTime(cols: string, page: PageRequest<TimeKey>, where: string[], params: Param[]): void {
  if (page.after) {
    where.push(`(${cols}) > (?, ?)`);
    params.push(page.after.at, page.after.id);
  }
}

const clause = (where: string[]): string => (where.length ? `WHERE ${where.join(' AND ')}` : '');

/**
 * How a search is planned, from each word's prefix-range size (counted only up to
 * `broad`, a bounded index walk):
 * - a narrow word (at most `narrow` terms) drives: candidates are read from its range,
 *   the other words checked per candidate, and the few survivors sorted by handle;
 * - else, several words of which some are at most `broad`: those ranges are intersected
 *   in the term index (cost: the sum of those ranges), so words that rarely meet cost little;
 * - else (one broad word, or every word very broad): matches are dense, so the handle
 *   index is walked and each row checked, at most `window` rows per call. A walk that
 *   ends its window before filling the page says where it stopped, and the next page
 *   starts there: no search costs more than a bounded amount of work per request.
 */
export interface SearchPlan {
  narrow: number;
  broad: number;
  window: number;
}
export const SEARCH_PLAN: SearchPlan = { narrow: 2_000, broad: 20_000, window: 10_000 };

type Range = { low: string; high: string };

async function rangeSize(sql: SqlExecutor, r: Range, cap: number): Promise<number> {
  const row = await sql.get(
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM principal_terms WHERE term >= ? AND term < ? LIMIT ?) x`,
    [r.low, r.high, cap + 1],
  );
  return Number(row?.['n'] ?? 0);
}

/** The ranges whose terms name the candidates, or none for the handle walk. */
async function drivingRanges(sql: SqlExecutor, ranges: Range[], plan: SearchPlan): Promise<Range[]> {
  const sizes = await Promise.all(ranges.map((r) => rangeSize(sql, r, plan.broad)));
  const narrowest = sizes.indexOf(Math.min(...sizes));
  if (sizes[narrowest]! <= plan.narrow) return [ranges[narrowest]!];
  if (ranges.length < 2) return [];
  return ranges.filter((_, i) => sizes[i]! <= plan.broad);
}

const hasTerm =
  'EXISTS (SELECT 1 FROM principal_terms t WHERE t.principal_id = p.id AND t.term >= ? AND t.term < ?)';

export async function pagePrincipals(
  sql: SqlExecutor,
  filter: PrincipalPageFilter,
  page: PageRequest<string>,
  plan: SearchPlan = SEARCH_PLAN,
): Promise<PrincipalPage> {
  const where: string[] = [];
  const params: Param[] = [];
  if (filter.status !== undefined) {
    where.push('p.status = ?');
    params.push(filter.status);
  }
  if (filter.acceptsQuestions !== undefined) {
    where.push('p.accepts_questions = ?');
    params.push(filter.acceptsQuestions ? 1 : 0);
  }
  if (page.after !== undefined) {
    where.push('p.handle > ?');
    params.push(page.after);
  }
  if (filter.query === undefined) {
    const rows = await sql.all(`SELECT p.* FROM principals p ${clause(where)} ORDER BY p.handle LIMIT ?`, [
      ...params,
      page.limit,
    ]);
    return { rows: rows.map(toPrincipal) };
  }
  const ranges = queryRanges(filter.query);
  if (ranges.length === 0) return { rows: [] }; // only punctuation: nothing matches
  const drive = await drivingRanges(sql, ranges, plan);
  const checks = ranges.filter((r) => !drive.includes(r));
  const checkParams = checks.flatMap((r) => [r.low, r.high]);
  if (drive.length === 0)
    return walk(
      sql,
      where,
      params,
      checks.map(() => hasTerm),
      checkParams,
      page.limit,
      plan,
    );
  const candidates = drive
    .map(() => 'SELECT principal_id FROM principal_terms WHERE term >= ? AND term < ?')
    .join(' INTERSECT ');
  // SQLite joins in the order written only with CROSS JOIN; PostgreSQL plans it itself.
  const join = sql.kind === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const rows = await sql.all(
    `SELECT p.* FROM (${drive.length === 1 ? candidates.replace('SELECT', 'SELECT DISTINCT') : candidates}) m
     ${join} principals p ON p.id = m.principal_id ${clause([...where, ...checks.map(() => hasTerm)])}
     ORDER BY p.handle LIMIT ?`,
    [...drive.flatMap((r) => [r.low, r.high]), ...params, ...checkParams, page.limit],
  );
  return { rows: rows.map(toPrincipal) };
}

/** The handle walk: at most `plan.window` rows checked, and where it stopped when the page is short. */
async function walk(
  sql: SqlExecutor,
  where: string[],
  params: Param[],
  checks: string[],
  checkParams: Param[],
  limit: number,
  plan: SearchPlan,
): Promise<PrincipalPage> {
  const window = `SELECT p.* FROM principals p ${clause(where)} ORDER BY p.handle LIMIT ?`;
  const rows = await sql.all(`SELECT p.* FROM (${window}) p ${clause(checks)} ORDER BY p.handle LIMIT ?`, [
    ...params,
    plan.window,
    ...checkParams,
    limit,
  ]);
  if (rows.length >= limit) return { rows: rows.map(toPrincipal) };
  const edge = await sql.get(
    `SELECT p.handle FROM principals p ${clause(where)} ORDER BY p.handle LIMIT 1 OFFSET ?`,
    [...params, plan.window - 1],
  );
  return { rows: rows.map(toPrincipal), ...(edge ? { walkedTo: String(edge['handle']) } : {}) };
}

export async function countPrincipals(
  sql: SqlExecutor,
  filter: { status?: PrincipalStatus },
): Promise<number> {
  const r = filter.status
    ? await sql.get(`SELECT COUNT(*) AS n FROM principals WHERE status = ?`, [filter.status])
    : await sql.get(`SELECT COUNT(*) AS n FROM principals`);
  return Number(r?.['n'] ?? 0);
}

export async function pageEvidence(
  sql: SqlExecutor,
  principalId: string,
  page: PageRequest<TimeKey>,
): Promise<EvidenceRecord[]> {
  const where = ['e.principal_id = ?'];
  const params: Param[] = [principalId];
  afterTime('e.created_at, e.id', page, where, params);
  params.push(page.limit);
  const rows = await sql.all(
    `${SELECT.evidence} ${clause(where)} ORDER BY e.created_at, e.id LIMIT ?`,
    params,
  );
  return rows.map(toEvidence);
}

export async function countEvidenceByOrigin(
  sql: SqlExecutor,
  principalId: string,
): Promise<Record<string, number>> {
  const rows = await sql.all(
    `SELECT origin, COUNT(*) AS n FROM evidence WHERE principal_id = ? GROUP BY origin ORDER BY origin`,
    [principalId],
  );
  return Object.fromEntries(rows.map((r) => [String(r['origin']), Number(r['n'])]));
}

export async function pageQuestions(
  sql: SqlExecutor,
  filter: { targetId: string; status?: QuestionStatus } | { askerId: string },
  page: PageRequest<TimeKey>,
): Promise<QuestionRecord[]> {
  const where: string[] = [];
  const params: Param[] = [];
  if ('askerId' in filter) {
    where.push('q.asker_id = ?');
    params.push(filter.askerId);
  } else {
    where.push('q.target_id = ?');
    params.push(filter.targetId);
    if (filter.status) {
      where.push('q.status = ?');
      params.push(filter.status);
    }
  }
  afterTime('q.asked_at, q.id', page, where, params);
  params.push(page.limit);
  const rows = await sql.all(`${SELECT.question} ${clause(where)} ORDER BY q.asked_at, q.id LIMIT ?`, params);
  return rows.map(toQuestion);
}

export async function pageDecisions(
  sql: SqlExecutor,
  principalId: string,
  filter: { status?: DecisionStatus },
  page: PageRequest<TimeKey>,
): Promise<DecisionRecord[]> {
  const where = ['d.principal_id = ?'];
  const params: Param[] = [principalId];
  if (filter.status) {
    where.push('d.status = ?');
    params.push(filter.status);
  }
  afterTime('d.created_at, d.id', page, where, params);
  params.push(page.limit);
  const rows = await sql.all(
    `${SELECT.decision} ${clause(where)} ORDER BY d.created_at, d.id LIMIT ?`,
    params,
  );
  return rows.map(toDecision);
}

export async function reviewVerdicts(
  sql: SqlExecutor,
  reviewerId: string,
  candidateIds: string[],
): Promise<Map<string, ReviewVerdict>> {
  const out = new Map<string, ReviewVerdict>();
  if (candidateIds.length === 0) return out;
  const rows = await sql.all(
    `SELECT candidate_id, verdict FROM reviews WHERE reviewer_id = ? AND candidate_id IN (${candidateIds.map(() => '?').join(', ')})
     ORDER BY created_at`,
    [reviewerId, ...candidateIds],
  );
  for (const r of rows) out.set(String(r['candidate_id']), String(r['verdict']) as ReviewVerdict);
  return out;
}

/** Reads the named secret, creating it first if no replica has yet (the first insert wins). */
export async function serverSecret(sql: SqlExecutor, name: string): Promise<string> {
  await sql.run(
    `INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`,
    [name, randomBytes(32).toString('base64url'), new Date().toISOString()],
  );
  const r = await sql.get(`SELECT value FROM server_secrets WHERE name = ?`, [name]);
  return String(r!['value']);
}

/** The statements that (re)write a principal's search terms. */
export function termStatements(
  principalId: string,
  p: { handle: string; displayName: string; headline: string },
): { sql: string; params: Param[] }[] {
  const terms = termsOf(p);
  const out: { sql: string; params: Param[] }[] = [
    { sql: `DELETE FROM principal_terms WHERE principal_id = ?`, params: [principalId] },
  ];
  if (terms.length > 0) {
    out.push({
      sql: `INSERT INTO principal_terms (term, principal_id) VALUES ${terms.map(() => '(?, ?)').join(', ')}
            ON CONFLICT (term, principal_id) DO NOTHING`,
      params: terms.flatMap((t) => [t, principalId]),
    });
  }
  return out;
}

/**
 * Indexes principals that have no terms yet (those created before search existed).
 * Idempotent and cheap when there is nothing to do: one anti-join on an index.
 */
export async function backfillTerms(sql: SqlExecutor): Promise<number> {
  const rows = await sql.all(
    `SELECT p.id, p.handle, p.display_name, p.headline FROM principals p
     WHERE NOT EXISTS (SELECT 1 FROM principal_terms t WHERE t.principal_id = p.id)`,
  );
  for (let i = 0; i < rows.length; i += 500) {
    await sql.batch(
      rows.slice(i, i + 500).flatMap((r) =>
        termStatements(String(r['id']), {
          handle: String(r['handle']),
          displayName: String(r['display_name']),
          headline: String(r['headline']),
        }),
      ),
    );
  }
  return rows.length;
}
