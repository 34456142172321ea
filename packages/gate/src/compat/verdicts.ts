import type { RuleId } from './rules.ts';
import type { Finding, Verdict } from './types.ts';

/** Rules that mean the gate's own signals contradict each other: always fail closed as unknown. */
export const DISAGREEMENT_RULES: ReadonlySet<RuleId> = new Set(['sampling-disagrees', 'replay-disagrees']);

/**
 * Folds findings into one verdict. A proven break outranks an undecided change; a
 * disagreement between the gate's signals outranks both, since it means the gate is wrong.
 */
export function combineVerdict(findings: readonly Finding[], identical = false): Verdict {
  if (identical && findings.length === 0) return 'identical';
  if (findings.some((f) => DISAGREEMENT_RULES.has(f.rule))) return 'unknown';
  if (findings.some((f) => f.verdict === 'breaking')) return 'breaking';
  if (findings.some((f) => f.verdict === 'unknown')) return 'unknown';
  return 'compatible';
}

/** Worst-of over several tools' verdicts: breaking, then unknown, then compatible, then identical. */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  for (const v of ['breaking', 'unknown', 'compatible'] as const) if (verdicts.includes(v)) return v;
  return 'identical';
}
