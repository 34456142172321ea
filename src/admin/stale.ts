import type { StaleCode } from '../core/policy/index.ts';
import type { DecisionRefusalCode } from '../core/refusal.ts';
import type { DecisionOutcome } from '../store/contract.ts';

/** What a stale decision's record says, for the agent reading it through list_decisions. */
export function staleOutcome(code: StaleCode, reason: string): DecisionOutcome {
  return {
    ok: false,
    refusal: {
      code: `stale_${code}` satisfies DecisionRefusalCode,
      reason: `${reason} The request was not executed: approval lifts the mandate's terms, never an authority that has lapsed.`,
      next: 'Nothing was done and nothing will be. Do not retry it or try another way around it: only your principal can still do it, in person, as a new act of their own.',
    },
  };
}
