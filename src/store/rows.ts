import { defaultMandate, normaliseMandate, type Mandate } from '../core/mandate.ts';
import { isScope } from '../core/scopes.ts';
import type { PrincipalStatus } from '../core/tiers.ts';
import { memberText } from '../untrusted/index.ts';
import type {
  Credential,
  DecisionOutcome,
  DecisionRecord,
  DecisionStatus,
  EvidenceOrigin,
  EvidenceRecord,
  PrincipalRecord,
  QuestionRecord,
  QuestionStatus,
  ReviewRecord,
  ReviewVerdict,
  TokenRecord,
} from './contract.ts';

/**
 * Row → record mapping shared by every SQL backend. This is where member-written
 * columns become MemberText, attributed to the author the row itself names.
 */
type Row = Record<string, unknown>;

const str = (v: unknown): string => String(v);
const optStr = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export function toPrincipal(r: Row): PrincipalRecord {
  const handle = str(r['handle']);
  return {
    id: str(r['id']),
    handle,
    status: str(r['status']) as PrincipalStatus,
    operator: Number(r['operator']) === 1,
    acceptsQuestions: Number(r['accepts_questions']) === 1,
    displayName: memberText(str(r['display_name']), handle),
    headline: memberText(str(r['headline']), handle),
    bio: memberText(str(r['bio']), handle),
    createdAt: str(r['created_at']),
    updatedAt: str(r['updated_at']),
  };
}

/** `handle` is the token's principal, who chose the label (joined by every query that reads tokens). */
export function toToken(r: Row, handle: string): TokenRecord {
  return {
    id: str(r['id']),
    principalId: str(r['principal_id']),
    label: memberText(str(r['label']), handle),
    scopes: parseJson<unknown[]>(r['scopes'], []).map(String),
    createdAt: str(r['created_at']),
    expiresAt: optStr(r['expires_at']),
    revokedAt: optStr(r['revoked_at']),
    lastUsedAt: optStr(r['last_used_at']),
    origin: r['origin'] === 'oauth' ? 'oauth' : 'static',
    clientId: optStr(r['client_id']),
  };
}

export function toMandate(r: Row): Mandate {
  return mandateOf(
    r['scopes'],
    r['consult_counterparts'],
    r['consult_daily'],
    r['reviews_need_approval'],
    r['terms'],
  );
}

function mandateOf(
  scopes: unknown,
  counterpartsJson: unknown,
  daily: unknown,
  needApproval: unknown,
  termsJson: unknown,
): Mandate {
  const counterparts = parseJson<unknown>(counterpartsJson, 'any');
  return normaliseMandate({
    scopes: parseJson<unknown[]>(scopes, []).map(String).filter(isScope),
    consult: {
      counterparts: Array.isArray(counterparts) ? counterparts.map(String) : 'any',
      dailyLimit: daily === null || daily === undefined ? null : Number(daily),
    },
    reviewsNeedApproval: Number(needApproval) === 1,
    ...termsOf(termsJson),
  });
}

/** The terms column's keys, as stored. */
interface StoredTerms {
  answer_counterparts?: unknown;
  inbox_needs_approval?: unknown;
  name_needs_approval?: unknown;
  profile_text_needs_approval?: unknown;
  self_reports_need_approval?: unknown;
  denial_window_days?: unknown;
}

/**
 * The terms kept in the mandate's JSON `terms` column. A store from before they existed
 * holds `{}` there, and a key missing or of the wrong type reads as the default (the
 * safe one), so an older row gains the defaults and loses nothing.
 */
function termsOf(
  json: unknown,
): Pick<Mandate, 'answer' | 'profile' | 'selfReportsNeedApproval' | 'denialWindowDays'> {
  const d = defaultMandate();
  const raw = parseJson<unknown>(json, {});
  const t: StoredTerms = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
  const flag = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);
  const answer = t.answer_counterparts;
  return {
    answer: {
      counterparts:
        answer === 'any' || answer === 'consult'
          ? answer
          : Array.isArray(answer)
            ? answer.map(String)
            : d.answer.counterparts,
    },
    profile: {
      inboxNeedsApproval: flag(t.inbox_needs_approval, d.profile.inboxNeedsApproval),
      nameNeedsApproval: flag(t.name_needs_approval, d.profile.nameNeedsApproval),
      textNeedsApproval: flag(t.profile_text_needs_approval, d.profile.textNeedsApproval),
    },
    selfReportsNeedApproval: flag(t.self_reports_need_approval, d.selfReportsNeedApproval),
    denialWindowDays:
      typeof t.denial_window_days === 'number' && Number.isSafeInteger(t.denial_window_days)
        ? t.denial_window_days
        : d.denialWindowDays,
  };
}

/** A principal without a mandate row has granted nothing: fail closed. */
export function emptyMandate(): Mandate {
  return {
    scopes: [],
    consult: { counterparts: [], dailyLimit: 0 },
    reviewsNeedApproval: true,
    answer: { counterparts: [] },
    profile: { inboxNeedsApproval: true, nameNeedsApproval: true, textNeedsApproval: true },
    selfReportsNeedApproval: true,
    denialWindowDays: defaultMandate().denialWindowDays,
  };
}

/**
 * A credential row (SELECT.credential): the token as every token query reads it, the
 * principal's identity and standing, and the mandate's columns under m_.
 */
export function toCredential(r: Row): Credential {
  const handle = str(r['principal_handle']);
  return {
    token: toToken(r, handle),
    principal: { id: str(r['principal_id']), handle, status: str(r['principal_status']) as PrincipalStatus },
    mandate:
      r['m_scopes'] === null || r['m_scopes'] === undefined
        ? emptyMandate()
        : mandateOf(
            r['m_scopes'],
            r['m_consult_counterparts'],
            r['m_consult_daily'],
            r['m_reviews_need_approval'],
            r['m_terms'],
          ),
  };
}

export function mandateColumns(m: Mandate): {
  scopes: string;
  consult_counterparts: string;
  consult_daily: number | null;
  reviews_need_approval: number;
  terms: string;
} {
  const n = normaliseMandate(m);
  const terms: StoredTerms = {
    answer_counterparts: n.answer.counterparts,
    inbox_needs_approval: n.profile.inboxNeedsApproval,
    name_needs_approval: n.profile.nameNeedsApproval,
    profile_text_needs_approval: n.profile.textNeedsApproval,
    self_reports_need_approval: n.selfReportsNeedApproval,
    denial_window_days: n.denialWindowDays,
  };
  return {
    scopes: JSON.stringify(n.scopes),
    consult_counterparts: JSON.stringify(n.consult.counterparts),
    consult_daily: n.consult.dailyLimit,
    reviews_need_approval: n.reviewsNeedApproval ? 1 : 0,
    terms: JSON.stringify(terms),
  };
}

/** Evidence rows carry the author's handle (joined), so the claim is attributed from the store. */
export function toEvidence(r: Row): EvidenceRecord {
  return {
    id: str(r['id']),
    principalId: str(r['principal_id']),
    origin: str(r['origin']) as EvidenceOrigin,
    claim: memberText(str(r['claim']), str(r['author_handle'])),
    artifactRef: optionalText(r['artifact_ref'], str(r['author_handle'])),
    createdAt: str(r['created_at']),
  };
}

export function toQuestion(r: Row): QuestionRecord {
  const answer = optStr(r['answer']);
  return {
    id: str(r['id']),
    askerId: str(r['asker_id']),
    askerHandle: str(r['asker_handle']),
    targetId: str(r['target_id']),
    targetHandle: str(r['target_handle']),
    question: memberText(str(r['question']), str(r['asker_handle'])),
    answer: answer === null ? null : memberText(answer, str(r['target_handle'])),
    status: str(r['status']) as QuestionStatus,
    askedAt: str(r['asked_at']),
    answeredAt: optStr(r['answered_at']),
  };
}

export function toReview(r: Row): ReviewRecord {
  return {
    id: str(r['id']),
    reviewerId: str(r['reviewer_id']),
    reviewerHandle: str(r['reviewer_handle']),
    candidateId: str(r['candidate_id']),
    verdict: str(r['verdict']) as ReviewVerdict,
    note: memberText(str(r['note']), str(r['reviewer_handle'])),
    createdAt: str(r['created_at']),
  };
}

export function toDecision(r: Row): DecisionRecord {
  const note = optStr(r['note']);
  return {
    id: str(r['id']),
    principalId: str(r['principal_id']),
    tokenId: optStr(r['token_id']),
    tool: str(r['tool']),
    arguments: parseJson<Record<string, unknown>>(r['arguments'], {}),
    argumentsText: memberText(str(r['arguments']), str(r['principal_handle'])),
    reasonCode: str(r['reason_code']),
    reason: str(r['reason']),
    status: str(r['status']) as DecisionStatus,
    note: note === null ? null : memberText(note, str(r['principal_handle'])),
    outcome: parseJson<DecisionOutcome | null>(r['outcome'], null),
    requestKey: optStr(r['request_key']),
    createdAt: str(r['created_at']),
    decidedAt: optStr(r['decided_at']),
  };
}

function optionalText(v: unknown, author: string) {
  const raw = optStr(v);
  return raw === null ? null : memberText(raw, author);
}

function parseJson<T>(v: unknown, fallback: T): T {
  if (typeof v !== 'string') return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

/** SELECT fragments that join the author handles the mappers above need. */
export const SELECT = {
  evidence: `SELECT e.*, p.handle AS author_handle FROM evidence e JOIN principals p ON p.id = e.principal_id`,
  question: `SELECT q.*, a.handle AS asker_handle, t.handle AS target_handle FROM questions q
             JOIN principals a ON a.id = q.asker_id JOIN principals t ON t.id = q.target_id`,
  review: `SELECT r.*, p.handle AS reviewer_handle FROM reviews r JOIN principals p ON p.id = r.reviewer_id`,
  decision: `SELECT d.*, p.handle AS principal_handle FROM decisions d JOIN principals p ON p.id = d.principal_id`,
  token: `SELECT t.*, p.handle AS principal_handle FROM tokens t JOIN principals p ON p.id = t.principal_id`,
  /**
   * Read on every authenticated request, so only what a request uses: the token, the
   * principal's handle and status (its profile text is read where a tool shows it), and
   * the mandate. Each column is a property built per row, the largest part of the lookup.
   */
  credential: `SELECT t.id, t.principal_id, t.label, t.scopes, t.created_at, t.expires_at, t.revoked_at,
             t.last_used_at, t.origin, t.client_id, p.handle AS principal_handle, p.status AS principal_status,
             m.scopes AS m_scopes, m.consult_counterparts AS m_consult_counterparts,
             m.consult_daily AS m_consult_daily, m.reviews_need_approval AS m_reviews_need_approval,
             m.terms AS m_terms
             FROM tokens t JOIN principals p ON p.id = t.principal_id
             LEFT JOIN mandates m ON m.principal_id = t.principal_id`,
} as const;
