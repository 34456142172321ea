import { defaultMandate, type Mandate } from '../core/mandate.ts';
import type { PrincipalStatus } from '../core/tiers.ts';
import type {
  ActivityFilter,
  ActivityRecord,
  ActivityRetention,
  NewActivity,
  Credential,
  PageRequest,
  DecisionPageFilter,
  PrincipalPage,
  PrincipalPageFilter,
  TimeKey,
  DecisionOutcome,
  DecisionRecord,
  DecisionStatus,
  EvidenceOrigin,
  EvidenceRecord,
  NewConnection,
  NewPrincipal,
  NewToken,
  PrincipalRecord,
  ProfilePatch,
  QuestionRecord,
  QuestionStatus,
  ReviewRecord,
  ReviewVerdict,
  Store,
  TokenRecord,
} from './contract.ts';
import * as activity from './activity.ts';
import {
  PRIVATE_WORDS_RETENTION,
  type HeldFingerprint,
  type PrivateWordsRetention,
} from '../core/private-words.ts';
import * as privateWords from './private-words.ts';
import { ConsoleSql } from './console-sql.ts';
import { newId } from './ids.ts';
import * as pages from './pages.ts';
import * as buckets from './rate-buckets.ts';
import type { BucketRate, BucketTake } from './rate-buckets.ts';
import {
  emptyMandate,
  mandateColumns,
  SELECT,
  toCredential,
  toDecision,
  toEvidence,
  toMandate,
  toPrincipal,
  toQuestion,
  toReview,
  toToken,
} from './rows.ts';
import type { Param, SqlExecutor } from './sql.ts';

const now = (): string => new Date().toISOString();

// Whole strings, made once: the executor keys its prepared statements by the text, and a
// text built per request is hashed anew on every lookup.
const CREDENTIAL_BY_HASH = `${SELECT.credential} WHERE t.token_hash = ?`;
const CREDENTIAL_BY_GRANT = `${SELECT.credential} WHERE t.grant_id = ? AND t.origin = 'oauth'`;
const str = (v: unknown): string => String(v);

/** How a store batches and bounds activity; the defaults unless told (tests and benches tell). */
export interface SqlStoreOptions {
  activityRetention?: ActivityRetention;
  /** How long a recorded call waits for others before a write starts, when none is under way (default 0: the next turn of the event loop). */
  activityFlushMs?: number;
  /** Rows that, waiting, are written at once without waiting longer (default 1,000). */
  activityBatch?: number;
  /** The bound on each principal's private-words fingerprints (default PRIVATE_WORDS_RETENTION). */
  privateWordsRetention?: PrivateWordsRetention;
}

/** The Store contract over any SqlExecutor: the same SQL runs on SQLite and PostgreSQL. */
export class SqlStore extends ConsoleSql implements Store {
  readonly #activity: activity.ActivityWriter;
  readonly #privateWords: PrivateWordsRetention;

  constructor(
    override readonly sql: SqlExecutor,
    options: SqlStoreOptions = {},
  ) {
    super(sql);
    this.#activity = new activity.ActivityWriter(
      sql,
      options.activityRetention ?? activity.ACTIVITY_RETENTION,
      options.activityFlushMs ?? 0,
      options.activityBatch ?? 1_000,
    );
    this.#privateWords = options.privateWordsRetention ?? PRIVATE_WORDS_RETENTION;
  }

  get kind(): string {
    return this.sql.kind;
  }

  /** Writes the activity that waits, then closes: a normal shutdown loses no record. */
  async close(): Promise<void> {
    await this.#activity.flush();
    await this.sql.close();
  }

  async createPrincipal(p: NewPrincipal): Promise<PrincipalRecord> {
    const id = newId('pr');
    const at = now();
    const m = mandateColumns(defaultMandate());
    await this.sql.batch([
      {
        sql: `INSERT INTO principals (id, handle, status, accepts_questions, display_name, headline, bio, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        params: [
          id,
          p.handle,
          p.status,
          p.acceptsQuestions === false ? 0 : 1,
          p.displayName,
          p.headline ?? '',
          p.bio ?? '',
          at,
          at,
        ],
      },
      {
        sql: `INSERT INTO mandates (principal_id, scopes, consult_counterparts, consult_daily, reviews_need_approval, terms, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?)`,
        params: [id, m.scopes, m.consult_counterparts, m.consult_daily, m.reviews_need_approval, m.terms, at],
      },
      ...pages.termStatements(id, {
        handle: p.handle,
        displayName: p.displayName,
        headline: p.headline ?? '',
      }),
    ]);
    return (await this.getPrincipalById(id)) as PrincipalRecord;
  }

  async getPrincipalById(id: string): Promise<PrincipalRecord | null> {
    const r = await this.sql.get(`SELECT * FROM principals WHERE id = ?`, [id]);
    return r ? toPrincipal(r) : null;
  }

  async getPrincipalByHandle(handle: string): Promise<PrincipalRecord | null> {
    const r = await this.sql.get(`SELECT * FROM principals WHERE handle = ?`, [handle]);
    return r ? toPrincipal(r) : null;
  }

  async hasPrincipals(): Promise<boolean> {
    return (await this.sql.get(`SELECT 1 AS one FROM principals LIMIT 1`, [])) !== undefined;
  }

  async listPrincipals(
    filter: { status?: PrincipalStatus; acceptsQuestions?: boolean } = {},
  ): Promise<PrincipalRecord[]> {
    const where: string[] = [];
    const params: Param[] = [];
    if (filter.status) {
      where.push('status = ?');
      params.push(filter.status);
    }
    if (filter.acceptsQuestions !== undefined) {
      where.push('accepts_questions = ?');
      params.push(filter.acceptsQuestions ? 1 : 0);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    return (await this.sql.all(`SELECT * FROM principals ${clause} ORDER BY handle`, params)).map(
      toPrincipal,
    );
  }

  async setPrincipalStatus(id: string, status: PrincipalStatus): Promise<void> {
    await this.sql.run(`UPDATE principals SET status = ?, updated_at = ? WHERE id = ?`, [status, now(), id]);
  }

  async suspendPrincipal(id: string, at: string, withdrawal: DecisionOutcome): Promise<void> {
    await this.sql.write([
      { sql: `UPDATE principals SET status = 'suspended', updated_at = ? WHERE id = ?`, params: [at, id] },
      ...this.grantEndingsOf(id, at, withdrawal),
    ]);
  }

  async updateProfile(id: string, patch: ProfilePatch): Promise<PrincipalRecord> {
    const sets: string[] = [];
    const params: Param[] = [];
    const cols: [keyof ProfilePatch, string][] = [
      ['displayName', 'display_name'],
      ['headline', 'headline'],
      ['bio', 'bio'],
    ];
    for (const [key, col] of cols) {
      const v = patch[key];
      if (typeof v === 'string') {
        sets.push(`${col} = ?`);
        params.push(v);
      }
    }
    if (patch.acceptsQuestions !== undefined) {
      sets.push('accepts_questions = ?');
      params.push(patch.acceptsQuestions ? 1 : 0);
    }
    sets.push('updated_at = ?');
    params.push(now(), id);
    const update = { sql: `UPDATE principals SET ${sets.join(', ')} WHERE id = ?`, params };
    if (patch.displayName === undefined && patch.headline === undefined)
      await this.sql.run(update.sql, params);
    else {
      // The terms follow the words: rewritten with the profile, in one transaction.
      const raw = await this.sql.get(`SELECT handle, display_name, headline FROM principals WHERE id = ?`, [
        id,
      ]);
      if (raw) {
        await this.sql.batch([
          update,
          ...pages.termStatements(id, {
            handle: String(raw['handle']),
            displayName: patch.displayName ?? String(raw['display_name']),
            headline: patch.headline ?? String(raw['headline']),
          }),
        ]);
      }
    }
    return (await this.getPrincipalById(id)) as PrincipalRecord;
  }

  async insertToken(t: NewToken): Promise<TokenRecord> {
    const id = newId('tok');
    const insert = tokenInsert(id, t);
    await this.sql.run(insert.sql, insert.params);
    return (await this.getToken(id)) as TokenRecord;
  }

  async connectOAuthClient(c: NewConnection): Promise<TokenRecord> {
    if (c.grant.model !== 'Grant')
      throw new TypeError(`a connection stands for a Grant, not a ${c.grant.model}`);
    const id = newId('tok');
    const who = [c.principalId, c.clientId];
    const earlier = `SELECT id FROM tokens WHERE principal_id = ? AND client_id = ? AND origin = 'oauth' AND revoked_at IS NULL`;
    const earlierGrants = `SELECT grant_id FROM tokens WHERE principal_id = ? AND client_id = ? AND origin = 'oauth'
      AND revoked_at IS NULL AND grant_id IS NOT NULL`;
    await this.sql.write([
      // The earlier connections' queued requests, their grants and records, then the rows
      // themselves: each statement finds them as still live, so the order matters.
      {
        sql: `UPDATE decisions SET status = 'stale', outcome = ?, decided_at = ? WHERE status = 'pending' AND token_id IN (${earlier})`,
        params: [JSON.stringify(c.withdrawal), c.at, ...who],
      },
      {
        sql: `DELETE FROM oauth_records WHERE grant_id IN (${earlierGrants}) OR (model = 'Grant' AND id IN (${earlierGrants}))`,
        params: [...who, ...who],
      },
      {
        sql: `UPDATE tokens SET revoked_at = ? WHERE principal_id = ? AND client_id = ? AND origin = 'oauth' AND revoked_at IS NULL`,
        params: [c.at, ...who],
      },
      {
        sql: `INSERT INTO oauth_records (model, id, payload, grant_id, uid, expires_at) VALUES ('Grant', ?, ?, NULL, NULL, ?)`,
        params: [c.grant.id, c.grant.payload, c.grant.expiresAt],
      },
      tokenInsert(id, {
        principalId: c.principalId,
        label: c.label,
        hash: c.hash,
        scopes: c.scopes,
        expiresAt: c.expiresAt ?? null,
        origin: 'oauth',
        clientId: c.clientId,
        grantId: c.grant.id,
      }),
    ]);
    return (await this.getToken(id)) as TokenRecord;
  }

  async findCredential(hash: string): Promise<Credential | null> {
    const r = await this.sql.get(CREDENTIAL_BY_HASH, [hash]);
    return r ? toCredential(r) : null;
  }

  async findCredentialByGrant(grantId: string): Promise<Credential | null> {
    const r = await this.sql.get(CREDENTIAL_BY_GRANT, [grantId]);
    return r ? toCredential(r) : null;
  }

  async getToken(id: string): Promise<TokenRecord | null> {
    const r = await this.sql.get(`${SELECT.token} WHERE t.id = ?`, [id]);
    return r ? toToken(r, str(r['principal_handle'])) : null;
  }

  async listTokens(principalId: string): Promise<TokenRecord[]> {
    return (
      await this.sql.all(`${SELECT.token} WHERE t.principal_id = ? ORDER BY t.created_at, t.id`, [
        principalId,
      ])
    ).map((r) => toToken(r, str(r['principal_handle'])));
  }

  async revokeToken(id: string, at: string, withdrawal?: DecisionOutcome): Promise<boolean> {
    const changed = await this.sql.write([
      {
        sql: `UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`,
        params: [at, id],
        mustChange: true,
      },
      // An OAuth connection's codes, access and refresh tokens and grant go with it.
      {
        sql: `DELETE FROM oauth_records WHERE grant_id IN (SELECT grant_id FROM tokens WHERE id = ? AND grant_id IS NOT NULL)
              OR (model = 'Grant' AND id IN (SELECT grant_id FROM tokens WHERE id = ? AND grant_id IS NOT NULL))`,
        params: [id, id],
      },
      ...(withdrawal
        ? [
            {
              sql: `UPDATE decisions SET status = 'stale', outcome = ?, decided_at = ? WHERE token_id = ? AND status = 'pending'`,
              params: [JSON.stringify(withdrawal), at, id],
            },
          ]
        : []),
    ]);
    return changed !== null;
  }

  async touchToken(id: string, at: string): Promise<void> {
    await this.sql.run(`UPDATE tokens SET last_used_at = ? WHERE id = ?`, [at, id]);
  }

  async getMandate(principalId: string): Promise<Mandate> {
    const r = await this.sql.get(`SELECT * FROM mandates WHERE principal_id = ?`, [principalId]);
    return r ? toMandate(r) : emptyMandate();
  }

  async setMandate(principalId: string, mandate: Mandate): Promise<Mandate> {
    const m = mandateColumns(mandate);
    const at = now();
    const changed = await this.sql.run(
      `UPDATE mandates SET scopes = ?, consult_counterparts = ?, consult_daily = ?, reviews_need_approval = ?, terms = ?, updated_at = ?
       WHERE principal_id = ?`,
      [m.scopes, m.consult_counterparts, m.consult_daily, m.reviews_need_approval, m.terms, at, principalId],
    );
    if (changed === 0) {
      await this.sql.run(
        `INSERT INTO mandates (principal_id, scopes, consult_counterparts, consult_daily, reviews_need_approval, terms, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [
          principalId,
          m.scopes,
          m.consult_counterparts,
          m.consult_daily,
          m.reviews_need_approval,
          m.terms,
          at,
        ],
      );
    }
    return this.getMandate(principalId);
  }

  async addEvidence(e: {
    principalId: string;
    origin: EvidenceOrigin;
    claim: string;
    artifactRef: string | null;
  }): Promise<EvidenceRecord> {
    const id = newId('ev');
    await this.sql.run(
      `INSERT INTO evidence (id, principal_id, origin, claim, artifact_ref, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
      [id, e.principalId, e.origin, e.claim, e.artifactRef, now()],
    );
    return toEvidence((await this.sql.get(`${SELECT.evidence} WHERE e.id = ?`, [id]))!);
  }

  async listEvidence(principalId: string): Promise<EvidenceRecord[]> {
    return (
      await this.sql.all(`${SELECT.evidence} WHERE e.principal_id = ? ORDER BY e.created_at, e.id`, [
        principalId,
      ])
    ).map(toEvidence);
  }

  async createQuestion(q: { askerId: string; targetId: string; question: string }): Promise<QuestionRecord> {
    const id = newId('q');
    await this.sql.run(
      `INSERT INTO questions (id, asker_id, target_id, question, status, asked_at) VALUES (?, ?, ?, ?, 'open', ?)`,
      [id, q.askerId, q.targetId, q.question, now()],
    );
    return (await this.getQuestion(id)) as QuestionRecord;
  }

  async createQuestionWithinLimit(
    q: { askerId: string; targetId: string; question: string },
    limit: { max: number; since: string },
  ): Promise<QuestionRecord | null> {
    const id = newId('q');
    const done = await this.sql.write([
      // Locks the asker's row until commit: concurrent askers of one principal queue here,
      // on every replica, and each then counts what the previous one committed.
      { sql: `UPDATE principals SET id = id WHERE id = ?`, params: [q.askerId], mustChange: true },
      {
        sql: `INSERT INTO questions (id, asker_id, target_id, question, status, asked_at)
              SELECT ?, ?, ?, ?, 'open', ?
              WHERE (SELECT COUNT(*) FROM questions WHERE asker_id = ? AND asked_at >= ?) < ?`,
        params: [id, q.askerId, q.targetId, q.question, now(), q.askerId, limit.since, limit.max],
        mustChange: true,
      },
    ]);
    return done ? this.getQuestion(id) : null;
  }

  async getQuestion(id: string): Promise<QuestionRecord | null> {
    const r = await this.sql.get(`${SELECT.question} WHERE q.id = ?`, [id]);
    return r ? toQuestion(r) : null;
  }

  async listQuestions(filter: {
    targetId?: string;
    askerId?: string;
    status?: QuestionStatus;
  }): Promise<QuestionRecord[]> {
    const where: string[] = [];
    const params: Param[] = [];
    if (filter.targetId) {
      where.push('q.target_id = ?');
      params.push(filter.targetId);
    }
    if (filter.askerId) {
      where.push('q.asker_id = ?');
      params.push(filter.askerId);
    }
    if (filter.status) {
      where.push('q.status = ?');
      params.push(filter.status);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    return (await this.sql.all(`${SELECT.question} ${clause} ORDER BY q.asked_at, q.id`, params)).map(
      toQuestion,
    );
  }

  async answerQuestion(id: string, answer: string, at: string): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE questions SET answer = ?, status = 'answered', answered_at = ? WHERE id = ? AND status = 'open'`,
      [answer, at, id],
    );
    return changed > 0;
  }

  async countQuestionsAskedSince(askerId: string, since: string): Promise<number> {
    const r = await this.sql.get(`SELECT COUNT(*) AS n FROM questions WHERE asker_id = ? AND asked_at >= ?`, [
      askerId,
      since,
    ]);
    return Number(r?.['n'] ?? 0);
  }

  async addReview(r: {
    reviewerId: string;
    candidateId: string;
    verdict: ReviewVerdict;
    note: string;
  }): Promise<ReviewRecord | null> {
    const id = newId('rv');
    // The unique index on (reviewer_id, candidate_id) decides, on every replica at once.
    const inserted = await this.sql.run(
      `INSERT INTO reviews (id, reviewer_id, candidate_id, verdict, note, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (reviewer_id, candidate_id) DO NOTHING`,
      [id, r.reviewerId, r.candidateId, r.verdict, r.note, now()],
    );
    if (inserted === 0) return null;
    return toReview((await this.sql.get(`${SELECT.review} WHERE r.id = ?`, [id]))!);
  }

  async listReviews(filter: { candidateId?: string; reviewerId?: string }): Promise<ReviewRecord[]> {
    const where: string[] = [];
    const params: Param[] = [];
    if (filter.candidateId) {
      where.push('r.candidate_id = ?');
      params.push(filter.candidateId);
    }
    if (filter.reviewerId) {
      where.push('r.reviewer_id = ?');
      params.push(filter.reviewerId);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    return (await this.sql.all(`${SELECT.review} ${clause} ORDER BY r.created_at, r.id`, params)).map(
      toReview,
    );
  }

  async createDecision(d: {
    principalId: string;
    tokenId: string | null;
    tool: string;
    arguments: Record<string, unknown>;
    reasonCode: string;
    reason: string;
    requestKey?: string | null;
  }): Promise<DecisionRecord> {
    const id = newId('dc');
    await this.sql.run(
      `INSERT INTO decisions (id, principal_id, token_id, tool, arguments, reason_code, reason, status, created_at, request_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      [
        id,
        d.principalId,
        d.tokenId,
        d.tool,
        JSON.stringify(d.arguments),
        d.reasonCode,
        d.reason,
        now(),
        d.requestKey ?? null,
      ],
    );
    return (await this.getDecision(id)) as DecisionRecord;
  }

  async findDenial(principalId: string, requestKey: string, since: string): Promise<DecisionRecord | null> {
    const r = await this.sql.get(
      `${SELECT.decision} WHERE d.principal_id = ? AND d.request_key = ? AND d.status = 'denied' AND d.decided_at >= ?
       ORDER BY d.decided_at DESC, d.id DESC LIMIT 1`,
      [principalId, requestKey, since],
    );
    return r ? toDecision(r) : null;
  }

  async findPending(principalId: string, requestKey: string): Promise<DecisionRecord | null> {
    const r = await this.sql.get(
      `${SELECT.decision} WHERE d.principal_id = ? AND d.request_key = ? AND d.status = 'pending'
       ORDER BY d.created_at, d.id LIMIT 1`,
      [principalId, requestKey],
    );
    return r ? toDecision(r) : null;
  }

  async getDecision(id: string): Promise<DecisionRecord | null> {
    const r = await this.sql.get(`${SELECT.decision} WHERE d.id = ?`, [id]);
    return r ? toDecision(r) : null;
  }

  async listDecisions(
    principalId: string,
    filter: { status?: DecisionStatus } = {},
  ): Promise<DecisionRecord[]> {
    const params: Param[] = [principalId];
    let clause = 'WHERE d.principal_id = ?';
    if (filter.status) {
      clause += ' AND d.status = ?';
      params.push(filter.status);
    }
    return (await this.sql.all(`${SELECT.decision} ${clause} ORDER BY d.created_at, d.id`, params)).map(
      toDecision,
    );
  }

  async claimDecision(
    id: string,
    status: 'approved' | 'denied',
    note: string | null,
    at: string,
  ): Promise<boolean> {
    // An approval also needs the asking token to be live at this instant, in the same write,
    // so a revocation landing between a check and the claim cannot slip an approval through.
    const tokenLive =
      status === 'approved'
        ? ` AND (token_id IS NULL OR EXISTS (SELECT 1 FROM tokens t WHERE t.id = decisions.token_id
              AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ?)))`
        : '';
    const changed = await this.sql.run(
      `UPDATE decisions SET status = ?, note = ?, decided_at = ? WHERE id = ? AND status = 'pending'${tokenLive}`,
      status === 'approved' ? [status, note, at, id, at] : [status, note, at, id],
    );
    return changed > 0;
  }

  async closeStale(id: string, outcome: DecisionOutcome, at: string): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE decisions SET status = 'stale', outcome = ?, decided_at = ? WHERE id = ? AND status = 'pending'`,
      [JSON.stringify(outcome), at, id],
    );
    return changed > 0;
  }

  #termsBackfilled: Promise<number> | undefined;

  async pagePrincipals(filter: PrincipalPageFilter, page: PageRequest<string>): Promise<PrincipalPage> {
    if (filter.query !== undefined) {
      this.#termsBackfilled ??= pages.backfillTerms(this.sql);
      await this.#termsBackfilled;
    }
    return pages.pagePrincipals(this.sql, filter, page);
  }

  countPrincipals(filter: { status?: PrincipalStatus } = {}): Promise<number> {
    return pages.countPrincipals(this.sql, filter);
  }

  pageEvidence(principalId: string, page: PageRequest<TimeKey>): Promise<EvidenceRecord[]> {
    return pages.pageEvidence(this.sql, principalId, page);
  }

  countEvidenceByOrigin(principalId: string): Promise<Record<string, number>> {
    return pages.countEvidenceByOrigin(this.sql, principalId);
  }

  pageReviews(candidateId: string, page: PageRequest<TimeKey>): Promise<ReviewRecord[]> {
    return pages.pageReviews(this.sql, candidateId, page);
  }

  countReviews(candidateId: string): Promise<number> {
    return pages.countReviews(this.sql, candidateId);
  }

  pageQuestions(
    filter: { targetId: string; status?: QuestionStatus } | { askerId: string },
    page: PageRequest<TimeKey>,
  ): Promise<QuestionRecord[]> {
    return pages.pageQuestions(this.sql, filter, page);
  }

  pageDecisions(
    principalId: string,
    filter: DecisionPageFilter,
    page: PageRequest<TimeKey>,
  ): Promise<DecisionRecord[]> {
    return pages.pageDecisions(this.sql, principalId, filter, page);
  }

  countDecisions(principalId: string, filter: { status?: DecisionStatus }): Promise<number> {
    return pages.countDecisions(this.sql, principalId, filter);
  }

  recordActivity(entries: readonly NewActivity[]): Promise<void> {
    return this.#activity.record(entries);
  }

  async pageActivity(
    principalId: string,
    filter: ActivityFilter,
    page: PageRequest<number>,
  ): Promise<ActivityRecord[]> {
    await this.#activity.flush();
    const oldest = new Date(Date.now() - this.#activity.retention.maxAgeMs).toISOString();
    return activity.pageActivity(this.sql, principalId, filter, page, oldest);
  }

  recordPrivateWords(principalId: string, served: readonly HeldFingerprint[], at: Date): Promise<void> {
    return privateWords.recordPrivateWords(this.sql, this.#privateWords, principalId, served, at);
  }

  findPrivateWords(
    principalId: string,
    fingerprints: readonly string[],
    at: Date,
  ): Promise<HeldFingerprint[]> {
    const since = new Date(at.getTime() - this.#privateWords.maxAgeMs).toISOString();
    return privateWords.findPrivateWords(this.sql, principalId, fingerprints, since);
  }

  countPrivateWords(principalId: string): Promise<number> {
    return privateWords.countPrivateWords(this.sql, principalId);
  }

  reviewVerdicts(reviewerId: string, candidateIds: string[]): Promise<Map<string, ReviewVerdict>> {
    return pages.reviewVerdicts(this.sql, reviewerId, candidateIds);
  }

  serverSecret(name: string): Promise<string> {
    return pages.serverSecret(this.sql, name);
  }

  takeFromBucket(key: string, rate: BucketRate, nowMs: number, count?: number): Promise<BucketTake> {
    return buckets.takeFromBucket(this.sql, key, rate, nowMs, count);
  }

  sweepBuckets(beforeMs: number): Promise<number> {
    return buckets.sweepBuckets(this.sql, beforeMs);
  }

  async recordDecisionOutcome(id: string, outcome: DecisionOutcome): Promise<void> {
    await this.sql.run(`UPDATE decisions SET outcome = ? WHERE id = ?`, [JSON.stringify(outcome), id]);
  }
}

function tokenInsert(id: string, t: NewToken): { sql: string; params: Param[] } {
  return {
    sql: `INSERT INTO tokens (id, principal_id, label, token_hash, scopes, created_at, expires_at, origin, client_id, grant_id)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    params: [
      id,
      t.principalId,
      t.label,
      t.hash,
      JSON.stringify(t.scopes),
      now(),
      t.expiresAt,
      t.origin ?? 'static',
      t.clientId ?? null,
      t.grantId ?? null,
    ],
  };
}
