import type { JsonObject } from '../core/json.ts';
import type { EvidenceRecord, PrincipalRecord, QuestionRecord } from '../store/contract.ts';
import type { Wrapper } from '../untrusted/index.ts';

/** How a principal appears in lists: identity plus their own words, wrapped. */
export function presentPrincipal(p: PrincipalRecord, w: Wrapper): JsonObject {
  return {
    handle: p.handle,
    status: p.status,
    display_name: w.wrap(p.displayName),
    headline: w.wrap(p.headline),
    accepts_questions: p.acceptsQuestions,
  };
}

/** A whole public profile: the list view plus the bio. */
export function presentProfile(p: PrincipalRecord, w: Wrapper): JsonObject {
  return { ...presentPrincipal(p, w), bio: w.wrap(p.bio) };
}

export function presentEvidence(e: EvidenceRecord, w: Wrapper): JsonObject {
  return {
    id: e.id,
    origin: e.origin,
    claim: w.wrap(e.claim),
    artifact_ref: w.wrapOptional(e.artifactRef),
    filed_at: e.createdAt,
  };
}

export function presentQuestion(q: QuestionRecord, w: Wrapper): JsonObject {
  return {
    id: q.id,
    from: q.askerHandle,
    to: q.targetHandle,
    status: q.status,
    question: w.wrap(q.question),
    answer: w.wrapOptional(q.answer),
    asked_at: q.askedAt,
    answered_at: q.answeredAt,
  };
}
