import { AGENT_SCOPES, canonicalScopes, type Scope } from './scopes.ts';

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
}

/** A new principal's mandate: every agent scope, any counterpart, 20 questions a day, reviews approved by hand. */
export function defaultMandate(): Mandate {
  return {
    scopes: [...AGENT_SCOPES],
    consult: { counterparts: 'any', dailyLimit: 20 },
    reviewsNeedApproval: true,
  };
}

/** Normalises a mandate: canonical scope order, mandate:write removed, handles de-duplicated. */
export function normaliseMandate(m: Mandate): Mandate {
  const counterparts = m.consult.counterparts === 'any' ? 'any' : [...new Set(m.consult.counterparts)].sort();
  return {
    scopes: canonicalScopes(m.scopes.filter((s) => AGENT_SCOPES.includes(s))),
    consult: { counterparts, dailyLimit: m.consult.dailyLimit },
    reviewsNeedApproval: m.reviewsNeedApproval,
  };
}
