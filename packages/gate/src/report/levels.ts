// Levels as the formats show them: an item is as loud as its loudest finding, and a format's
// own word for it (a GitHub annotation, a SARIF level) follows from the level, with an unknown
// at error kept apart from a proven break as before.
import { levelOf, type Finding, type ItemReport, type Level } from '../compat/index.ts';
import { forPeople } from '../text/index.ts';

type Shown = Exclude<Level, 'off'>;
const RANK: Record<Shown, number> = { error: 3, warning: 2, info: 1 };

/** Whether a level is at or above another (`--fail-on`). */
export function atLeast(level: Shown, floor: Shown): boolean {
  return RANK[level] >= RANK[floor];
}

/** The loudest level among an item's findings; info when it has none. */
export function itemLevel(item: Pick<ItemReport, 'findings'>): Shown {
  let top: Shown = 'info';
  for (const f of item.findings) if (RANK[levelOf(f)] > RANK[top]) top = levelOf(f);
  return top;
}

/**
 * The word of a format with three levels (GitHub: error, warning, notice; SARIF: error,
 * warning, note): at error, a break is an error and an unknown a warning, as before levels.
 */
export function severity(level: Shown, verdict: Finding['verdict'] | 'identical', note: string): string {
  if (level === 'error')
    return verdict === 'breaking' ? 'error' : verdict === 'unknown' ? 'warning' : 'error';
  return level === 'warning' ? 'warning' : note;
}

/**
 * ` — excepted until DATE: reason` on one line (hidden characters shown), for a finding an
 * exception lowered; empty otherwise.
 */
export function exceptionText(f: Finding): string {
  if (!f.exception) return '';
  const reason = forPeople(f.exception.reason.replace(/\s+/g, ' ').trim(), 1000);
  return ` — excepted until ${f.exception.expires}: ${reason}`;
}
