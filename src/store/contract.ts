import type { BucketRate, BucketTake } from './rate-buckets.ts';
import type { Mandate } from '../core/mandate.ts';
import type { HeldFingerprint } from '../core/private-words.ts';
import type { PrincipalStatus } from '../core/tiers.ts';
import type { MemberText } from '../untrusted/index.ts';

/**
 * The store contract. Only store/ talks SQL; tools and the server see these records.
 * Every field a member (or their agent) wrote comes out as MemberText, which no tool
 * result accepts until untrusted/ has wrapped it.
 */

export interface PrincipalRecord {
  id: string;
  /** Operator-chosen identifier, validated as [a-z0-9_-]: not free text. */
  handle: string;
  status: PrincipalStatus;
  /** Holds the club's operator role (admits, suspends, makes sign-in links) in the console. */
  operator: boolean;
  acceptsQuestions: boolean;
  displayName: MemberText;
  headline: MemberText;
  bio: MemberText;
  createdAt: string;
  updatedAt: string;
}

export interface TokenRecord {
  id: string;
  principalId: string;
  /** Chosen by the principal: member text like the rest. */
  label: MemberText;
  /** As stored. May be anything a forged row holds: policy never trusts it beyond the intersection. */
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** 'static': issued in the console or CLI and pasted into a configuration; 'oauth': granted to a client on the consent page. */
  origin: TokenOrigin;
  /** The OAuth client it was granted to (its client_id: a metadata document URL or a registered id). */
  clientId: string | null;
}

type TokenOrigin = 'static' | 'oauth';

/**
 * Who a principal is and their standing, without what they wrote about themselves: what
 * a request needs of its caller's principal (profile text is read where a tool shows it).
 */
export type PrincipalRef = Pick<PrincipalRecord, 'id' | 'handle' | 'status'>;

/** What one bearer lookup returns: the token, its principal and the principal's current mandate. */
export interface Credential {
  token: TokenRecord;
  principal: PrincipalRef;
  mandate: Mandate;
}

export type EvidenceOrigin = 'manual' | 'commit' | 'document' | 'calendar';

export interface EvidenceRecord {
  id: string;
  principalId: string;
  origin: EvidenceOrigin;
  claim: MemberText;
  /** Validated by form when filed, but written by the member all the same. */
  artifactRef: MemberText | null;
  createdAt: string;
}

export type QuestionStatus = 'open' | 'answered';

export interface QuestionRecord {
  id: string;
  askerId: string;
  askerHandle: string;
  targetId: string;
  targetHandle: string;
  question: MemberText;
  answer: MemberText | null;
  status: QuestionStatus;
  askedAt: string;
  answeredAt: string | null;
}

export type ReviewVerdict = 'support' | 'oppose';

export interface ReviewRecord {
  id: string;
  reviewerId: string;
  reviewerHandle: string;
  candidateId: string;
  verdict: ReviewVerdict;
  note: MemberText;
  createdAt: string;
}

/** `stale`: closed unexecuted because the authority behind the request lapsed (outcome says why). */
export type DecisionStatus = 'pending' | 'approved' | 'denied' | 'stale';

export interface DecisionRecord {
  id: string;
  principalId: string;
  /** The token whose agent asked; null when the principal acted directly. */
  tokenId: string | null;
  tool: string;
  /** The request exactly as the agent sent it, for executing it on approval. `unknown` on purpose: not Json. */
  arguments: Record<string, unknown>;
  /** The same request as text its agent wrote, attributed to the principal: what a reader is shown. */
  argumentsText: MemberText;
  reasonCode: string;
  reason: string;
  status: DecisionStatus;
  note: MemberText | null;
  /** On approval, what executing the stored request gave (server-written ids and codes only). */
  outcome: DecisionOutcome | null;
  /** What makes a later request "the same" as this one (core/same-request.ts); null for decisions from before keys. */
  requestKey: string | null;
  createdAt: string;
  decidedAt: string | null;
}

/** The stored result of an approved request (its ids/status fields, or the refusal it met), or why a stale one was closed. */
export type DecisionOutcome =
  | { ok: true; result: Record<string, string | number | boolean | null> }
  | { ok: false; refusal: { code: string; reason: string; next: string } };

export interface NewPrincipal {
  handle: string;
  status: PrincipalStatus;
  displayName: string;
  headline?: string;
  bio?: string;
  acceptsQuestions?: boolean;
}

export interface ProfilePatch {
  displayName?: string;
  headline?: string;
  bio?: string;
  acceptsQuestions?: boolean;
}

export interface NewToken {
  principalId: string;
  label: string;
  hash: string;
  scopes: string[];
  expiresAt: string | null;
  origin?: TokenOrigin;
  clientId?: string;
  /** The authorization server's grant whose access and refresh tokens act as this token. */
  grantId?: string;
}

/** One artifact of the authorization server (code, access token, grant, client…), as its library stores it. */
export interface OAuthRecord {
  payload: string;
  consumedAt: string | null;
}

/** A record as the authorization server saves it. */
export interface OAuthSaved {
  model: string;
  id: string;
  payload: string;
  grantId: string | null;
  uid: string | null;
  expiresAt: string | null;
}

/**
 * The authorization server's persistence, shaped after its library's adapter: records by
 * model and id, with expiry, consumption (codes, rotated refresh tokens) and revocation of
 * everything one grant issued. Expired records are never returned.
 */
export interface OAuthStore {
  oauthSave(r: OAuthSaved): Promise<void>;
  oauthFind(model: string, id: string, now: string): Promise<OAuthRecord | null>;
  oauthFindByUid(model: string, uid: string, now: string): Promise<OAuthRecord | null>;
  oauthConsume(model: string, id: string, at: string): Promise<void>;
  oauthDestroy(model: string, id: string): Promise<void>;
  /**
   * Ends a grant: removes it and everything issued under it and, in the same write,
   * marks the connection (the token row bound to it) revoked at `at`, closing that
   * token's pending decisions as stale with `withdrawal`. A revoked grant leaves no
   * live-looking connection behind.
   */
  oauthRevokeByGrant(grantId: string, at: string, withdrawal?: DecisionOutcome): Promise<void>;
}

/** A client the principal approved on the consent page, as one transaction writes it. */
export interface NewConnection {
  principalId: string;
  clientId: string;
  label: string;
  /** Of a secret never presented: the connection is used through its access tokens only. */
  hash: string;
  scopes: string[];
  /** When the connection ends by itself, as the principal chose on the consent page; null: only when revoked. */
  expiresAt?: string | null;
  /** The authorization server's grant for exactly these scopes (model 'Grant'); the token row is bound to its id. */
  grant: OAuthSaved;
  /** When the principal's earlier live connections of this client end. */
  at: string;
  /** What the pending decisions of those earlier connections are closed with. */
  withdrawal: DecisionOutcome;
}

/** Where a keyset page starts: after the row with these sort keys (exclusive). */
export interface DecisionPageFilter {
  status?: DecisionStatus;
  decided?: boolean;
}

export interface PageRequest<K> {
  after?: K;
  /** Rows wanted; stores return at most this many. */
  limit: number;
  /** Time-ordered lists only: newest first, `after` then meaning "older than". */
  newestFirst?: boolean;
}

/** Position of a time-ordered row: its creation time, then its id as the tiebreak. */
export interface TimeKey {
  at: string;
  id: string;
}

/**
 * A page of principals. A search checks a bounded number of rows per call; when it
 * stops there before filling the page, `walkedTo` is the last handle it checked and the
 * next page starts after it (the page may then be short, even empty, yet not the last).
 */
export interface PrincipalPage {
  rows: PrincipalRecord[];
  walkedTo?: string;
}

export interface PrincipalPageFilter {
  /** Only principals of this status; every status when absent (the operator's list). */
  status?: PrincipalStatus;
  acceptsQuestions?: boolean;
  /** Free text: every word must start one of the principal's handle, name or headline words. */
  query?: string;
}

/** What one tools/call came to: its handler's answer, a refusal (with its code), or a decision queued. */
export type ActivityOutcome = 'done' | 'refused' | 'queued';

/** One tools/call made with a principal's token, as recorded. */
export interface NewActivity {
  principalId: string;
  tokenId: string;
  /** The tool asked for: a registered name, or whatever name the agent sent for one it cannot call. */
  tool: string;
  outcome: ActivityOutcome;
  /** The refusal code when refused, the reason it was queued when queued; null when done. */
  code: string | null;
  decisionId: string | null;
  /** The arguments in short, as the agent sent them (the store cuts it to its bound). */
  summary: string;
  /** When the call arrived. */
  at: string;
}

/** A recorded call as the console reads it; everything the agent wrote is member text. */
export interface ActivityRecord {
  principalId: string;
  /** Its number among the principal's calls, in the order recorded: the key of a page. */
  seq: number;
  tokenId: string;
  /** The token's label (its principal's words); null if the token row is gone. */
  tokenLabel: MemberText | null;
  tool: MemberText;
  outcome: ActivityOutcome;
  code: string | null;
  decisionId: string | null;
  /** What the agent sent, in short; null when it sent no arguments. */
  summary: MemberText | null;
  at: string;
}

export interface ActivityFilter {
  /** Only the calls made with this token (one of the principal's). */
  tokenId?: string;
}

/** How long the store keeps activity: every row younger than `maxAgeMs`, none older. */
export interface ActivityRetention {
  maxAgeMs: number;
}

/** A console session, found by the hash of its cookie value. */
export interface ConsoleSessionRecord {
  principalId: string;
  /** The per-session token every state-changing console request must carry. */
  csrf: string;
  createdAt: string;
  lastSeenAt: string;
  /** Absolute end; idle expiry is judged from lastSeenAt by the console. */
  expiresAt: string;
}

export interface PasskeyRecord {
  /** The WebAuthn credential id, base64url. */
  id: string;
  principalId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** What consuming a sign-in link found: only `ok` signs anyone in. */
export type LinkUse = { result: 'ok'; principalId: string } | { result: 'used' | 'expired' | 'unknown' };

/** The console's records: sign-in links, sessions, passkeys and WebAuthn challenges (secrets hashed). */
export interface ConsoleStore {
  setOperator(id: string, operator: boolean): Promise<void>;

  createLoginLink(l: { hash: string; principalId: string; expiresAt: string }): Promise<void>;
  /** Marks the link used in one conditional write, so a link signs in at most once even under a race. */
  consumeLoginLink(hash: string, at: string): Promise<LinkUse>;

  /** `at` is the sign-in instant (created and last seen), from the caller's clock. */
  createSession(s: {
    hash: string;
    principalId: string;
    csrf: string;
    at: string;
    expiresAt: string;
  }): Promise<void>;
  getSession(hash: string): Promise<ConsoleSessionRecord | null>;
  touchSession(hash: string, at: string): Promise<void>;
  deleteSession(hash: string): Promise<void>;
  /** Ends every console session of a principal (suspension); resolves to how many ended. */
  deleteSessionsOf(principalId: string): Promise<number>;

  addPasskey(p: Omit<PasskeyRecord, 'createdAt' | 'lastUsedAt'>): Promise<PasskeyRecord>;
  getPasskey(id: string): Promise<PasskeyRecord | null>;
  listPasskeys(principalId: string): Promise<PasskeyRecord[]>;
  /** Records a use: the new signature counter and when. */
  usePasskey(id: string, counter: number, at: string): Promise<void>;
  deletePasskey(id: string, principalId: string): Promise<boolean>;

  saveChallenge(c: {
    hash: string;
    purpose: string;
    principalId: string | null;
    expiresAt: string;
  }): Promise<void>;
  /** Takes a challenge once: true only the first time, and only before it expired. */
  takeChallenge(hash: string, purpose: string, at: string): Promise<{ principalId: string | null } | null>;
}

export interface Store extends ConsoleStore, OAuthStore {
  /** Which backend this is, for diagnostics ("sqlite", "postgres"). */
  readonly kind: string;
  close(): Promise<void>;

  createPrincipal(p: NewPrincipal): Promise<PrincipalRecord>;
  getPrincipalById(id: string): Promise<PrincipalRecord | null>;
  getPrincipalByHandle(handle: string): Promise<PrincipalRecord | null>;
  /** Whether the store holds any principal at all: false on a fresh, empty store (a likely wrong one). */
  hasPrincipals(): Promise<boolean>;
  listPrincipals(filter?: {
    status?: PrincipalStatus;
    acceptsQuestions?: boolean;
  }): Promise<PrincipalRecord[]>;
  setPrincipalStatus(id: string, status: PrincipalStatus): Promise<void>;
  /**
   * Suspends a principal and, in the same write, ends every OAuth grant of theirs for good
   * (connections revoked, their queued requests closed as stale with `withdrawal`, codes,
   * access and refresh tokens deleted): reinstating them later brings none of it back.
   */
  suspendPrincipal(id: string, at: string, withdrawal: DecisionOutcome): Promise<void>;
  updateProfile(id: string, patch: ProfilePatch): Promise<PrincipalRecord>;

  insertToken(t: NewToken): Promise<TokenRecord>;
  /**
   * Connects an OAuth client in one transaction: the principal's earlier live
   * connections of this client are revoked (their grants, tokens and pending
   * decisions with them), the new grant is saved and the token row that stands for it
   * inserted. If any step fails, nothing is written.
   */
  connectOAuthClient(c: NewConnection): Promise<TokenRecord>;
  /** The hot path: one lookup by token hash, returning the token, principal and mandate together. */
  findCredential(hash: string): Promise<Credential | null>;
  /** The same lookup for an OAuth access token, by the grant it was issued under. */
  findCredentialByGrant(grantId: string): Promise<Credential | null>;
  getToken(id: string): Promise<TokenRecord | null>;
  listTokens(principalId: string): Promise<TokenRecord[]>;
  /**
   * Revokes a token and, in the same transaction, closes its pending decisions as
   * stale with `withdrawal` as their outcome. False when it was revoked already.
   */
  revokeToken(id: string, at: string, withdrawal?: DecisionOutcome): Promise<boolean>;
  touchToken(id: string, at: string): Promise<void>;

  getMandate(principalId: string): Promise<Mandate>;
  setMandate(principalId: string, mandate: Mandate): Promise<Mandate>;

  addEvidence(e: {
    principalId: string;
    origin: EvidenceOrigin;
    claim: string;
    artifactRef: string | null;
  }): Promise<EvidenceRecord>;
  listEvidence(principalId: string): Promise<EvidenceRecord[]>;

  createQuestion(q: { askerId: string; targetId: string; question: string }): Promise<QuestionRecord>;
  /**
   * Creates the question only if the asker asked fewer than `max` since `since`:
   * one conditional write under the asker's lock, so the limit holds across
   * replicas. Null when the limit was reached (nothing written).
   */
  createQuestionWithinLimit(
    q: { askerId: string; targetId: string; question: string },
    limit: { max: number; since: string },
  ): Promise<QuestionRecord | null>;
  getQuestion(id: string): Promise<QuestionRecord | null>;
  listQuestions(filter: {
    targetId?: string;
    askerId?: string;
    status?: QuestionStatus;
  }): Promise<QuestionRecord[]>;
  /** Sets the answer only if the question is still open; false when it was answered already. */
  answerQuestion(id: string, answer: string, at: string): Promise<boolean>;
  countQuestionsAskedSince(askerId: string, since: string): Promise<number>;

  addReview(r: {
    reviewerId: string;
    candidateId: string;
    verdict: ReviewVerdict;
    note: string;
  }): Promise<ReviewRecord | null>;
  listReviews(filter: { candidateId?: string; reviewerId?: string }): Promise<ReviewRecord[]>;

  createDecision(d: {
    principalId: string;
    tokenId: string | null;
    tool: string;
    arguments: Record<string, unknown>;
    reasonCode: string;
    reason: string;
    requestKey?: string | null;
  }): Promise<DecisionRecord>;
  getDecision(id: string): Promise<DecisionRecord | null>;
  /** The latest decision with this request key that the principal denied at or after `since` (ISO), if any. */
  findDenial(principalId: string, requestKey: string, since: string): Promise<DecisionRecord | null>;
  /** The oldest decision with this request key still waiting for the principal, if any (one indexed row, however long the queue). */
  findPending(principalId: string, requestKey: string): Promise<DecisionRecord | null>;
  listDecisions(principalId: string, filter?: { status?: DecisionStatus }): Promise<DecisionRecord[]>;
  /**
   * Moves a pending decision to approved/denied; false when it was no longer pending
   * (no double decisions) or, for an approval, when the token that asked has been
   * revoked or has expired by `at`: one conditional write.
   */
  claimDecision(id: string, status: 'approved' | 'denied', note: string | null, at: string): Promise<boolean>;
  /** Closes a pending decision as stale, unexecuted, with why; false when it was no longer pending. */
  closeStale(id: string, outcome: DecisionOutcome, at: string): Promise<boolean>;
  recordDecisionOutcome(id: string, outcome: DecisionOutcome): Promise<void>;

  // Paged reads: keyset pages on a stable order, served by an index (never OFFSET).
  /** Principals of a status by handle, optionally matching a search query. */
  pagePrincipals(filter: PrincipalPageFilter, page: PageRequest<string>): Promise<PrincipalPage>;
  countPrincipals(filter?: { status?: PrincipalStatus }): Promise<number>;
  /** A principal's evidence, oldest first. */
  pageEvidence(principalId: string, page: PageRequest<TimeKey>): Promise<EvidenceRecord[]>;
  countEvidenceByOrigin(principalId: string): Promise<Record<string, number>>;
  /** The members' reviews of a candidate, oldest first. */
  pageReviews(candidateId: string, page: PageRequest<TimeKey>): Promise<ReviewRecord[]>;
  countReviews(candidateId: string): Promise<number>;
  /** Questions to one target or from one asker, oldest first. */
  pageQuestions(
    filter: { targetId: string; status?: QuestionStatus } | { askerId: string },
    page: PageRequest<TimeKey>,
  ): Promise<QuestionRecord[]>;
  /** A principal's decisions of a status, or every decided one (`decided`: not pending). */
  pageDecisions(
    principalId: string,
    filter: DecisionPageFilter,
    page: PageRequest<TimeKey>,
  ): Promise<DecisionRecord[]>;
  countDecisions(principalId: string, filter: { status?: DecisionStatus }): Promise<number>;
  /**
   * Records tools/calls made with principals' tokens. Written in batches with the
   * retention enforced in the same transaction (store/activity.ts); resolves when these
   * rows are committed, so a caller need not wait for it. Nothing recorded is lost to a
   * read (which writes what waits first) or to close().
   */
  recordActivity(entries: readonly NewActivity[]): Promise<void>;
  /**
   * Remembers fingerprints of words other members wrote privately to the principal, as
   * served to the principal's agents at `at` (core/private-words.ts): no text, each with
   * its author. Bounded per principal by count and age; the bound holds across replicas.
   */
  recordPrivateWords(principalId: string, served: readonly HeldFingerprint[], at: Date): Promise<void>;
  /** Which of these fingerprints the principal holds, within the retention age at `at`. */
  findPrivateWords(
    principalId: string,
    fingerprints: readonly string[],
    at: Date,
  ): Promise<HeldFingerprint[]>;
  /** How many fingerprints the principal holds now. */
  countPrivateWords(principalId: string): Promise<number>;
  /**
   * A principal's recorded calls (all tokens, or one), in the order recorded (newest
   * first when asked), after a call's number; never past the retention. Only the
   * console reads them.
   */
  pageActivity(
    principalId: string,
    filter: ActivityFilter,
    page: PageRequest<number>,
  ): Promise<ActivityRecord[]>;
  /** This reviewer's verdicts on the given candidates (by candidate id). */
  reviewVerdicts(reviewerId: string, candidateIds: string[]): Promise<Map<string, ReviewVerdict>>;
  /**
   * A named random secret held by the store, created on first use. Every replica on
   * one store reads the same value, so what one replica signs another accepts.
   */
  serverSecret(name: string): Promise<string>;

  // Rate limits shared by replicas (serve --shared-rate-limits).
  /** Takes `count` (default one) from a bucket in one conditional write, all or none; else how full it is. */
  takeFromBucket(key: string, rate: BucketRate, nowMs: number, count?: number): Promise<BucketTake>;
  /** Drops buckets untouched since `beforeMs`; how many. */
  sweepBuckets(beforeMs: number): Promise<number>;
}
