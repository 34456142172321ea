import type { Mandate } from './mandate.ts';

/** Why a request its scope allows still needs the principal: stable codes. */
type TermsCode =
  | 'counterpart_not_in_mandate'
  | 'daily_question_limit'
  | 'review_needs_approval'
  /** Queued by core/private-words.ts, not by a mandate term: text carrying another member's private words. */
  | 'private_words';

export type TermsVerdict = { within: true } | { within: false; code: TermsCode; reason: string };

const WITHIN: TermsVerdict = { within: true };

/**
 * Whether asking `target` fits the principal's consult terms. Pure: the caller
 * passes how many questions were asked today, read from the store on this request.
 */
export function evaluateConsultTerms(m: Mandate, target: string, askedToday: number): TermsVerdict {
  const { counterparts, dailyLimit } = m.consult;
  if (counterparts !== 'any' && !counterparts.includes(target)) {
    return {
      within: false,
      code: 'counterpart_not_in_mandate',
      reason: `Your principal's mandate lets you consult ${counterparts.length ? counterparts.join(', ') : 'nobody'} without asking first; ${target} is not among them.`,
    };
  }
  if (dailyLimit !== null && askedToday >= dailyLimit) {
    return {
      within: false,
      code: 'daily_question_limit',
      reason: `Your principal's mandate allows ${dailyLimit} question${dailyLimit === 1 ? '' : 's'} a day and ${askedToday} ${askedToday === 1 ? 'was' : 'were'} asked today (UTC).`,
    };
  }
  return WITHIN;
}

export function evaluateReviewTerms(m: Mandate): TermsVerdict {
  if (!m.reviewsNeedApproval) return WITHIN;
  return {
    within: false,
    code: 'review_needs_approval',
    reason: "Your principal's mandate says candidate reviews go out only with their approval.",
  };
}

/** Start of the UTC day containing `now`, as ISO text (the daily limit's window). */
export function startOfUtcDay(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
}
