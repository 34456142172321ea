import { randomBytes } from 'node:crypto';
import type { PrincipalStatus } from '../core/tiers.ts';
import type {
  DecisionPageFilter,
  DecisionRecord,
  DecisionStatus,
  EvidenceRecord,
  PageRequest,
  PrincipalPage,
  PrincipalPageFilter,
  QuestionRecord,
  QuestionStatus,
  ReviewRecord,
  ReviewVerdict,
  TimeKey,
} from './contract.ts';
import { SELECT, toDecision, toEvidence, toPrincipal, toQuestion, toReview } from './rows.ts';
import { queryRanges, termsOf } from './search.ts';
import type { Param, SqlExecutor } from './sql.ts';

/**
 * Keyset pages: each reads an index in list order from just after the last row the
 * caller saw, so a page deep in a large table costs what the first one costs, and a
 * row inserted meanwhile is neither skipped nor repeated by the rows around it.
 */

/**
 * `(col_a, col_b) > (?, ?)` (or `<` newest first): both engines compare row values and
 * seek an index with it, forwards or backwards. Returns the matching ORDER BY.
 */
function afterTime(cols: string, page: PageRequest<TimeKey>, where: string[], params: Param[]): string {
  if (page.after) {
    where.push(`(${cols}) ${page.newestFirst ? '<' : '>'} (?, ?)`);
    params.push(page.after.at, page.after.id);
  }
  return cols
    .split(',')
    .map((c) => `${c.trim()}${page.newestFirst ? ' DESC' : ''}`)
    .join(', ');
}

const clause = (where: string[]): string => (where.length ? `WHERE ${where.join(' AND ')}` : '');

/**
 * How a search is planned, from each word's prefix-range size (counted only up to
 * `broad`, a bounded index walk):
 * - a narrow word (at most `narrow` terms) drives: candidates are read from its range,
 *   the other words checked per candidate, and the few survivors sorted by handle;
 * - else, several words whose matches, were the words independent, would fill a page
 *   within half a window of the handle walk: the walk (below) is cheapest;
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
const SEARCH_PLAN: SearchPlan = { narrow: 2_000, broad: 20_000, window: 10_000 };

type Range = { low: string; high: string };

async function rangeSize(sql: SqlExecutor, r: Range, cap: number): Promise<number> {
  const row = await sql.get(
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM principal_terms WHERE term >= ? AND term < ? LIMIT ?) x`,
    [r.low, r.high, cap + 1],
  );
  return Number(row?.['n'] ?? 0);
}

/** The ranges whose terms name the candidates, or none for the handle walk. */
async function drivingRanges(
  sql: SqlExecutor,
  ranges: Range[],
  plan: SearchPlan,
  limit: number,
  principals: number,
): Promise<Range[]> {
  const sizes = await Promise.all(ranges.map((r) => rangeSize(sql, r, plan.broad)));
  const narrowest = sizes.indexOf(Math.min(...sizes));
  if (sizes[narrowest]! <= plan.narrow) return [ranges[narrowest]!];
  if (ranges.length < 2) return [];
  const density = sizes.reduce((d, s) => d * Math.min(1, s / Math.max(principals, 1)), 1);
  if (limit / density <= plan.window / 2) return [];
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
  const total = await estimatePrincipals(sql);
  const drive = await drivingRanges(sql, ranges, plan, page.limit, total);
  const checks = ranges.filter((r) => !drive.includes(r));
  const checkParams = checks.flatMap((r) => [r.low, r.high]);
  if (drive.length === 0) {
    const checked = [...where, ...checks.map(() => hasTerm)];
    return walk(sql, filter, page.after, checked, [...params, ...checkParams], page.limit, plan);
  }
  // Two steps, so neither engine's planner can guess its way into a full scan: the
  // candidates from the term index (at most plan.broad ids), then those principals by id.
  const candidates = drive
    .map(() => 'SELECT principal_id FROM principal_terms WHERE term >= ? AND term < ?')
    .join(' INTERSECT ');
  const ids = await sql.all(
    drive.length === 1 ? candidates.replace('SELECT', 'SELECT DISTINCT') : candidates,
    [...drive.flatMap((r) => [r.low, r.high])],
  );
  if (ids.length === 0) return { rows: [] };
  // Read from the id list (SQLite joins in the order written only with CROSS JOIN).
  const byId =
    sql.kind === 'sqlite'
      ? 'json_each(?) j CROSS JOIN principals p ON p.id = j.value'
      : 'jsonb_array_elements_text(CAST(? AS jsonb)) AS j(id) JOIN principals p ON p.id = j.id';
  const rows = await sql.all(
    `SELECT p.* FROM ${byId} ${clause([...where, ...checks.map(() => hasTerm)])} ORDER BY p.handle LIMIT ?`,
    [JSON.stringify(ids.map((r) => String(r['principal_id']))), ...params, ...checkParams, page.limit],
  );
  return { rows: rows.map(toPrincipal) };
}

/**
 * The handle walk: at most `plan.window` principals checked. The window's last handle is
 * found first on the (status, handle) index alone, then the page is read up to it in
 * handle order, stopping as soon as it is full; a short page says where the window ended.
 */
async function walk(
  sql: SqlExecutor,
  filter: PrincipalPageFilter,
  after: string | undefined,
  where: string[],
  params: Param[],
  limit: number,
  plan: SearchPlan,
): Promise<PrincipalPage> {
  const edgeWhere: string[] = [];
  const edgeParams: Param[] = [];
  if (filter.status !== undefined) {
    edgeWhere.push('status = ?');
    edgeParams.push(filter.status);
  }
  if (after !== undefined) {
    edgeWhere.push('handle > ?');
    edgeParams.push(after);
  }
  const edgeRow = await sql.get(
    `SELECT handle FROM principals ${clause(edgeWhere)} ORDER BY handle LIMIT 1 OFFSET ?`,
    [...edgeParams, plan.window - 1],
  );
  const edge = edgeRow ? String(edgeRow['handle']) : undefined;
  const rows = await sql.all(
    `SELECT p.* FROM principals p ${clause(edge === undefined ? where : [...where, 'p.handle <= ?'])}
     ORDER BY p.handle LIMIT ?`,
    [...params, ...(edge === undefined ? [] : [edge]), limit],
  );
  return {
    rows: rows.map(toPrincipal),
    ...(rows.length < limit && edge !== undefined ? { walkedTo: edge } : {}),
  };
}

/**
 * Roughly how many principals there are, without counting them: SQLite's largest rowid
 * (principals are never deleted), PostgreSQL's planner statistics (counted when the
 * table has none yet). A search plan needs only the order of magnitude.
 */
async function estimatePrincipals(sql: SqlExecutor): Promise<number> {
  const row =
    sql.kind === 'sqlite'
      ? await sql.get(`SELECT MAX(rowid) AS n FROM principals`)
      : await sql.get(`SELECT reltuples AS n FROM pg_class WHERE oid = to_regclass('principals')`);
  const n = Number(row?.['n'] ?? -1);
  return n >= 0 ? n : countPrincipals(sql, {});
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
  const order = afterTime('e.created_at, e.id', page, where, params);
  params.push(page.limit);
  const rows = await sql.all(`${SELECT.evidence} ${clause(where)} ORDER BY ${order} LIMIT ?`, params);
  return rows.map(toEvidence);
}

export async function pageReviews(
  sql: SqlExecutor,
  candidateId: string,
  page: PageRequest<TimeKey>,
): Promise<ReviewRecord[]> {
  const where = ['r.candidate_id = ?'];
  const params: Param[] = [candidateId];
  const order = afterTime('r.created_at, r.id', page, where, params);
  params.push(page.limit);
  const rows = await sql.all(`${SELECT.review} ${clause(where)} ORDER BY ${order} LIMIT ?`, params);
  return rows.map(toReview);
}

export async function countReviews(sql: SqlExecutor, candidateId: string): Promise<number> {
  const row = await sql.get(`SELECT COUNT(*) AS n FROM reviews WHERE candidate_id = ?`, [candidateId]);
  return Number(row?.['n'] ?? 0);
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
  const order = afterTime('q.asked_at, q.id', page, where, params);
  params.push(page.limit);
  const rows = await sql.all(`${SELECT.question} ${clause(where)} ORDER BY ${order} LIMIT ?`, params);
  return rows.map(toQuestion);
}

export async function pageDecisions(
  sql: SqlExecutor,
  principalId: string,
  filter: DecisionPageFilter,
  page: PageRequest<TimeKey>,
): Promise<DecisionRecord[]> {
  const where = ['d.principal_id = ?'];
  const params: Param[] = [principalId];
  if (filter.status) {
    where.push('d.status = ?');
    params.push(filter.status);
  }
  if (filter.decided) where.push(`d.status <> 'pending'`);
  const order = afterTime('d.created_at, d.id', page, where, params);
  params.push(page.limit);
  const rows = await sql.all(`${SELECT.decision} ${clause(where)} ORDER BY ${order} LIMIT ?`, params);
  return rows.map(toDecision);
}

export async function countDecisions(
  sql: SqlExecutor,
  principalId: string,
  filter: { status?: DecisionStatus },
): Promise<number> {
  const r = filter.status
    ? await sql.get(`SELECT COUNT(*) AS n FROM decisions WHERE principal_id = ? AND status = ?`, [
        principalId,
        filter.status,
      ])
    : await sql.get(`SELECT COUNT(*) AS n FROM decisions WHERE principal_id = ?`, [principalId]);
  return Number(r?.['n'] ?? 0);
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
