import type { Verdict } from '../compat/index.ts';
import type { GateResult } from '../lock/compare.ts';
import { setMember } from '../compat/own.ts';

/** How many items ended with each verdict. */
interface Counts {
  breaking: number;
  unknown: number;
  compatible: number;
  identical: number;
}

/** The counts a CI job reads without walking the findings: every item of every surface and server. */
export interface Summary extends Counts {
  servers: number;
  /** The same counts per kind of item (tool, prompt, resource, …), kinds in the order first met. */
  kinds: Record<string, Counts>;
}

const zero = (): Counts => ({ breaking: 0, unknown: 0, compatible: 0, identical: 0 });

export function summarize(result: GateResult): Summary {
  const summary: Summary = { ...zero(), servers: result.servers.length, kinds: {} };
  for (const s of result.servers) {
    for (const item of s.comparison.items) {
      const verdict: Verdict = item.verdict;
      summary[verdict] += 1;
      if (!Object.hasOwn(summary.kinds, item.kind)) setMember(summary.kinds, item.kind, zero());
      (summary.kinds[item.kind] as Counts)[verdict] += 1;
    }
  }
  return summary;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One line that ends every report: `2 breaking, 1 compatible, 40 identical in 3 servers`, zero
 * counts left out; `no change: 54 items identical in 1 server` when nothing changed, so a run
 * never prints nothing.
 */
export function summaryLine(summary: Summary): string {
  const where = `in ${plural(summary.servers, 'server')}`;
  const changed = summary.breaking + summary.unknown + summary.compatible;
  if (changed === 0) return `no change: ${plural(summary.identical, 'item')} identical ${where}`;
  const parts = (['breaking', 'unknown', 'compatible', 'identical'] as const)
    .filter((v) => summary[v] > 0)
    .map((v) => `${summary[v]} ${v}`);
  return `${parts.join(', ')} ${where}`;
}
