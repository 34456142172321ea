import { failureReason } from '../failure.ts';
import { jsonHash } from '../hash.ts';
import type { RuleId } from '../rules.ts';
import type { Finding, Verdict } from '../types.ts';
import { combineVerdict } from '../verdicts.ts';

/** What a report line is about: one of the things a server serves. */
export type SurfaceKind =
  | 'tool'
  | 'prompt'
  | 'resource'
  | 'resource-template'
  | 'skill'
  | 'instructions'
  | 'server'
  /** How a configured server is started or reached (see launch.ts). */
  | 'launch';

/** One served item's verdict between the pinned and the live server. */
export interface ItemReport {
  kind: SurfaceKind;
  /** Its key: a tool's or prompt's name, a resource's URI, a skill's URI. */
  name: string;
  verdict: Verdict;
  change: 'added' | 'removed' | 'changed' | 'unchanged';
  oldHash: string | null;
  newHash: string | null;
  findings: Finding[];
}

/** How one kind of item is judged: the rules for its appearing and going, and its comparison. */
export interface KeyedSpec<T> {
  kind: SurfaceKind;
  added: RuleId;
  removed: RuleId;
  compare: (before: T, after: T) => Finding[];
}

/**
 * Every item of either side, sorted by key: added, removed, identical (by canonical hash), or
 * compared. An error judging one item makes that item unknown with a one-line reason, and every
 * other item is still judged.
 */
export function compareKeyed<T>(
  olds: ReadonlyMap<string, T>,
  news: ReadonlyMap<string, T>,
  spec: KeyedSpec<T>,
): ItemReport[] {
  const keys = [...new Set([...olds.keys(), ...news.keys()])].sort();
  return keys.map((name) => {
    const before = olds.get(name);
    const after = news.get(name);
    const oldHash = before === undefined ? null : jsonHash(before);
    const newHash = after === undefined ? null : jsonHash(after);
    const item = { kind: spec.kind, name, oldHash, newHash };
    if (after === undefined) {
      const findings: Finding[] = [{ rule: spec.removed, verdict: 'breaking', pointer: '', args: {} }];
      return { ...item, verdict: 'breaking', change: 'removed', findings };
    }
    if (before === undefined) {
      const findings: Finding[] = [{ rule: spec.added, verdict: 'compatible', pointer: '', args: {} }];
      return { ...item, verdict: 'compatible', change: 'added', findings };
    }
    if (oldHash === newHash) return { ...item, verdict: 'identical', change: 'unchanged', findings: [] };
    let findings: Finding[];
    try {
      findings = spec.compare(before, after);
    } catch (err) {
      findings = [
        {
          rule: 'surface-unprocessable',
          verdict: 'unknown',
          pointer: '',
          args: { error: failureReason(err) },
        },
      ];
    }
    return { ...item, verdict: combineVerdict(findings), change: 'changed', findings };
  });
}

/** Items keyed by a string field; later duplicates of a key are kept apart, never dropped. */
export function byKey<T extends Record<string, unknown>>(
  items: readonly T[],
  key: (item: T) => unknown,
): Map<string, T> {
  const out = new Map<string, T>();
  items.forEach((item, i) => {
    const k = key(item);
    const name = typeof k === 'string' ? k : `#${i}`;
    out.set(out.has(name) ? `${name} (#${i})` : name, item);
  });
  return out;
}
