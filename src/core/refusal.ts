/**
 * Refusals are data: a stable snake_case code a program can branch on, the reason
 * in plain words, and what to do next. Never a stack, never SQL.
 */
export type RefusalCode =
  | 'invalid_arguments'
  | 'not_found'
  | 'not_accepting_questions'
  | 'not_your_question'
  | 'already_answered'
  | 'claim_without_artifact'
  | 'artifact_ref_malformed'
  | 'self_target'
  | 'not_a_candidate'
  | 'already_decided'
  | 'not_your_decision'
  | 'scope_not_grantable'
  | 'unknown_scope'
  | 'above_tier'
  | 'invalid_value'
  | 'conflict'
  | 'invalid_cursor'
  | 'internal_error';

export interface Refusal {
  code: RefusalCode;
  reason: string;
  next: string;
}

export function refusal(code: RefusalCode, reason: string, next: string): Refusal {
  return { code, reason, next };
}

/** Thrown by assert-style helpers; converted to a refusal result at the tool boundary. */
export class RefusalError extends Error {
  constructor(readonly refusal: Refusal) {
    super(`${refusal.code}: ${refusal.reason}`);
  }
}
