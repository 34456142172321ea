import { RULES } from './rules.ts';
import type { Finding, Level } from './types.ts';

const RULE_LEVEL = new Map(RULES.map((r) => [r.id as string, r.level]));

/**
 * The level a finding is reported at: its configured one, else its rule's, else its verdict's.
 * A finding read back from a file may name a rule this version does not know: its verdict decides.
 */
export function levelOf(finding: Pick<Finding, 'rule' | 'verdict' | 'level'>): Exclude<Level, 'off'> {
  if (finding.level) return finding.level;
  const level = RULE_LEVEL.get(finding.rule);
  if (level) return level;
  return finding.verdict === 'compatible' ? 'info' : 'error';
}
