import { answerCounterparts, type Mandate } from './mandate.ts';

/** Why a request its scope allows still needs the principal: stable codes. */
type TermsCode =
  | 'counterpart_not_in_mandate'
  | 'daily_question_limit'
  | 'review_needs_approval'
  /** Queued by core/private-words.ts, not by a mandate term: text carrying another member's private words. */
  | 'private_words'
  | 'answer_counterpart_not_in_mandate'
  | 'profile_change_needs_approval'
  | 'self_report_needs_approval';

export type TermsVerdict = { within: true } | { within: false; code: TermsCode; reason: string };

const WITHIN: TermsVerdict = { within: true };

function named(list: readonly string[]): string {
  return list.length ? list.join(', ') : 'nobody';
}

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
      reason: `Your principal's mandate lets you consult ${named(counterparts)} without asking first; ${target} is not among them.`,
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

/**
 * Whether answering a question `asker` put fits the answer terms: by default the
 * people agents may consult, so "consult only @dave" also means "answer only @dave".
 */
export function evaluateAnswerTerms(m: Mandate, asker: string): TermsVerdict {
  const allowed = answerCounterparts(m);
  if (allowed === 'any' || allowed.includes(asker)) return WITHIN;
  return {
    within: false,
    code: 'answer_counterpart_not_in_mandate',
    reason: `Your principal's mandate lets you answer ${named(allowed)} without asking first; ${asker} is not among them.`,
  };
}

/** The parts of a profile change the profile terms speak of. */
export type ProfilePart = 'accepts_questions' | 'display_name' | 'headline' | 'bio';

/** A profile change in the tool's words: only the fields sent. */
export interface ProfileChange {
  display_name?: string;
  headline?: string;
  bio?: string;
  accepts_questions?: boolean;
}

/**
 * The parts a change really changes: a field sent with the value it has now changes
 * nothing. `unchanged` says whether a sent field equals the stored one (the caller
 * compares, since stored profile text is member text).
 */
export function changedProfileParts(
  change: ProfileChange,
  unchanged: (part: ProfilePart) => boolean,
): ProfilePart[] {
  const sent = (['accepts_questions', 'display_name', 'headline', 'bio'] as const).filter(
    (part) => change[part] !== undefined,
  );
  return sent.filter((part) => !unchanged(part));
}

/** The parts of a change that wait for the principal under this mandate. */
export function waitingProfileParts(m: Mandate, parts: readonly ProfilePart[]): ProfilePart[] {
  return parts.filter((part) =>
    part === 'accepts_questions'
      ? m.profile.inboxNeedsApproval
      : part === 'display_name'
        ? m.profile.nameNeedsApproval
        : m.profile.textNeedsApproval,
  );
}

/**
 * Whether a profile change may be written without the principal. Opening or closing the
 * inbox and a new display name wait by default (they change who can reach the principal
 * and how the club names them); headline and bio as the principal set. A change holding
 * one part that waits waits whole: nothing of it is written until the principal decides.
 */
export function evaluateProfileTerms(
  m: Mandate,
  parts: readonly ProfilePart[],
  change: ProfileChange,
): TermsVerdict {
  const waiting = waitingProfileParts(m, parts);
  if (waiting.length === 0) return WITHIN;
  const words = waiting.map((part) =>
    part === 'accepts_questions'
      ? change.accepts_questions
        ? 'opening their inbox to questions'
        : 'closing their inbox to questions'
      : part === 'display_name'
        ? 'changing their display name'
        : `changing their ${part}`,
  );
  return {
    within: false,
    code: 'profile_change_needs_approval',
    reason: `Your principal's mandate says ${words.join(' and ')} waits for their approval.`,
  };
}

/** Whether evidence of this origin may be filed without the principal: a self-report waits when the principal says so. */
export function evaluateEvidenceTerms(m: Mandate, origin: string): TermsVerdict {
  if (origin !== 'manual' || !m.selfReportsNeedApproval) return WITHIN;
  return {
    within: false,
    code: 'self_report_needs_approval',
    reason:
      "Your principal's mandate says self-reported evidence (origin manual, with nothing behind it) is filed only with their approval.",
  };
}

/** Start of the UTC day containing `now`, as ISO text (the daily limit's window). */
export function startOfUtcDay(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
}

/** Since when a denial still holds (ISO text), or null when the principal keeps no denial window. */
export function denialWindowStart(m: Mandate, now: Date): string | null {
  if (m.denialWindowDays <= 0) return null;
  return new Date(now.getTime() - m.denialWindowDays * 86_400_000).toISOString();
}
