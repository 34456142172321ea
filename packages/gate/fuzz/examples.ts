import { FAILING, type CampaignResult, type Failure } from './campaign.ts';
import { canonical, isObject, type Json } from './json.ts';
import { minimise, type Minimised } from './minimise.ts';

/** A kept failure and its minimised form. */
export interface Example {
  failure: Failure;
  minimised: Minimised;
  /** JSON Pointers where the minimised old and new schemas differ: the keyword at fault. */
  changed: string[];
}

const escape = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** The shallowest places where two documents differ (a key added, removed or changed). */
function changedPaths(a: Json, b: Json, path = ''): string[] {
  if (canonical(a) === canonical(b)) return [];
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) =>
      a[k] === undefined || b[k] === undefined
        ? [`${path}/${escape(k)}`]
        : changedPaths(a[k] as Json, b[k] as Json, `${path}/${escape(k)}`),
    );
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.flatMap((x, i) => changedPaths(x, b[i] as Json, `${path}/${i}`));
  return [path || '/'];
}

/**
 * The failures to show, minimised: the first `perGroup` of each class and family, and the first
 * of every distinct crash message. Each minimisation is bounded in time.
 */
export function minimiseExamples(result: CampaignResult, perGroup: number, msEach = 8000): Example[] {
  const chosen: Failure[] = [];
  const count = new Map<string, number>();
  for (const f of result.failures) {
    const key = `${f.judgement.outcome}\u0000${f.family}`;
    const n = count.get(key) ?? 0;
    if (n < perGroup && f.judgement.outcome !== 'crash') {
      count.set(key, n + 1);
      chosen.push(f);
    }
  }
  for (const { first } of result.crashes.values()) chosen.push(first);
  chosen.sort((a, b) => FAILING.indexOf(a.judgement.outcome) - FAILING.indexOf(b.judgement.outcome));
  return chosen.map((failure) => {
    const minimised = minimise(failure.case, failure.judgement, msEach);
    return { failure, minimised, changed: changedPaths(minimised.old, minimised.new) };
  });
}
