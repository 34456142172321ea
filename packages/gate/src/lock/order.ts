// The order every format shows a result in: what needs a person first. A real upgrade led
// 13 of 14 tools with a harmless finding and hid the one break behind "8 more"; ordering here,
// once, keeps every format from doing that again.
import { levelOf, type Finding, type ItemReport, type RuleId } from '../compat/index.ts';
import { DISAGREEMENT_RULES } from '../compat/verdicts.ts';
import type { GateResult } from './compare.ts';

const RANK: Record<string, number> = { breaking: 1, unknown: 2, compatible: 3, identical: 4 };

/** A finding that says the gate's own signals contradict each other (never let through). */
function isDisagreement(finding: Finding): boolean {
  return DISAGREEMENT_RULES.has(finding.rule);
}

/** Disagreements first (they decide the verdict), then breaking, unknown, compatible; stable. */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  // Within a verdict, a finding raised to warning (or error) comes before the plain ones.
  const raised = (f: Finding): number => (f.verdict === 'compatible' && levelOf(f) !== 'info' ? -0.5 : 0);
  const rank = (f: Finding): number => (isDisagreement(f) ? 0 : (RANK[f.verdict] ?? 5) + raised(f));
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
    .map(({ f }) => f);
}

/** The finding that explains an item's verdict best: a disagreement, then a break, then an unknown. */
export function headline(findings: readonly Finding[]): Finding | undefined {
  return orderFindings(findings)[0];
}

/** A change a person must bless by name (`accept --tool …`): breaking or unknown. */
export function isBlessable(item: ItemReport): boolean {
  if (item.verdict !== 'breaking' && item.verdict !== 'unknown') return false;
  return item.findings.some((f) => f.verdict !== 'compatible' && !STANDING.has(f.rule));
}

/**
 * Conditions of the configuration itself, not changes: accepting cannot clear them (the
 * finding says what to fix: pin the package's version, make the server start).
 */
const STANDING: ReadonlySet<RuleId> = new Set(['launch-unpinned', 'launch-failed']);

/** One changed item, with the server that serves it. */
export interface Entry {
  server: string;
  item: ItemReport;
}

/** Every changed item of every server, breaking first, then unknown, then compatible; stable. */
export function changedItems(result: GateResult): Entry[] {
  return result.servers
    .flatMap((s) => s.comparison.items.map((item) => ({ server: s.name, item })))
    .filter((e) => e.item.verdict !== 'identical')
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (RANK[a.e.item.verdict] ?? 5) - (RANK[b.e.item.verdict] ?? 5) || a.i - b.i)
    .map(({ e }) => e);
}

/** Whether any item of the result carries a disagreement between the gate's signals. */
export function hasDisagreement(result: GateResult): boolean {
  return result.servers.some((s) => s.comparison.items.some((i) => i.findings.some(isDisagreement)));
}
