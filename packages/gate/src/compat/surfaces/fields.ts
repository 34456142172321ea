import { sameJson } from '../hash.ts';
import { toPointer } from '../pointer.ts';
import type { RuleId } from '../rules.ts';
import type { Finding, JsonObject } from '../types.ts';

/** A field as text (a description that is not a string is compared as its JSON). */
export function text(value: unknown): string {
  return value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);
}

/** One compatible finding per field outside `judged` whose value changed (title, icons, _meta…). */
export function otherFields(
  before: JsonObject,
  after: JsonObject,
  judged: ReadonlySet<string>,
  rule: RuleId,
): Finding[] {
  const out: Finding[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (judged.has(field) || sameJson(before[field], after[field])) continue;
    out.push({ rule, verdict: 'compatible', pointer: toPointer([field]), args: { field } });
  }
  return out;
}
