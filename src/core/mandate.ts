import { AGENT_SCOPES, canonicalScopes, type Scope } from './scopes.ts';

/** Whom agents may answer without asking: the people they may consult, anyone, or a list of handles. */
export type AnswerCounterparts = 'consult' | 'any' | string[];

/**
 * A principal's current terms for all their agents. Only the principal changes
 * it (console or admin CLI), never through an agent token.
 */
export interface Mandate {
  /** Scopes agents may use at all. Never contains mandate:write (stripped on every read and write). */
  scopes: Scope[];
  consult: {
    /** Whom agents may ask without asking the principal first. */
    counterparts: 'any' | string[];
    /** Questions per UTC day before a further one needs the principal; null = no limit. */
    dailyLimit: number | null;
  };
  /** Whether a candidate review waits for the principal's approval. */
  reviewsNeedApproval: boolean;
  /** Whom agents may answer without the principal: by default the same people they may consult. */
  answer: { counterparts: AnswerCounterparts };
  /** Which profile changes wait for the principal. */
  profile: {
    /** Opening or closing the inbox (accepts_questions): who can reach the principal at all. */
    inboxNeedsApproval: boolean;
    /** A new display name: how the club names the principal. */
    nameNeedsApproval: boolean;
    /** A new headline or bio: what the principal says about themself. */
    textNeedsApproval: boolean;
  };
  /** Whether self-reported evidence (origin manual: a claim with nothing behind it) waits for the principal. */
  selfReportsNeedApproval: boolean;
  /** Days a denial holds: the same request is refused at once, citing it; 0 = a denied request may be asked again. */
  denialWindowDays: number;
}

/** The longest denial window a principal may set, in days. */
export const MAX_DENIAL_WINDOW_DAYS = 365;

/**
 * A new principal's mandate: every agent scope, any counterpart, 20 questions a day;
 * reviews, answers to people outside the consult list, closing or opening the inbox, a new
 * display name and self-reports wait for the principal; a denial holds 30 days.
 */
export function defaultMandate(): Mandate {
  return {
    scopes: [...AGENT_SCOPES],
    consult: { counterparts: 'any', dailyLimit: 20 },
    reviewsNeedApproval: true,
    answer: { counterparts: 'consult' },
    profile: { inboxNeedsApproval: true, nameNeedsApproval: true, textNeedsApproval: false },
    selfReportsNeedApproval: true,
    denialWindowDays: 30,
  };
}

/** Normalises a mandate: canonical scope order, mandate:write removed, handles de-duplicated, window in range. */
export function normaliseMandate(m: Mandate): Mandate {
  const counterparts = m.consult.counterparts === 'any' ? 'any' : sortedUnique(m.consult.counterparts);
  const answer = m.answer.counterparts;
  const days = Number.isSafeInteger(m.denialWindowDays) ? m.denialWindowDays : 30;
  return {
    scopes: canonicalScopes(m.scopes.filter((s) => AGENT_SCOPES.includes(s))),
    consult: { counterparts, dailyLimit: m.consult.dailyLimit },
    reviewsNeedApproval: m.reviewsNeedApproval,
    answer: { counterparts: answer === 'any' || answer === 'consult' ? answer : sortedUnique(answer) },
    profile: {
      inboxNeedsApproval: m.profile.inboxNeedsApproval,
      nameNeedsApproval: m.profile.nameNeedsApproval,
      textNeedsApproval: m.profile.textNeedsApproval,
    },
    selfReportsNeedApproval: m.selfReportsNeedApproval,
    denialWindowDays: Math.min(Math.max(days, 0), MAX_DENIAL_WINDOW_DAYS),
  };
}

/** The handles agents may answer without asking, with 'consult' resolved to the consult list. */
export function answerCounterparts(m: Mandate): 'any' | string[] {
  return m.answer.counterparts === 'consult' ? m.consult.counterparts : m.answer.counterparts;
}

function sortedUnique(handles: readonly string[]): string[] {
  return [...new Set(handles)].sort();
}
