import { sameJson } from '../hash.ts';
import { KEYWORDS, keywordsWhere } from '../keywords.ts';
import type { JsonObject } from '../types.ts';
import { isObject } from '../generate/merge.ts';

/**
 * Keywords whose meaning depends on others in the same schema object: `then`/`else` read the
 * `if` beside them, `additionalItems` the tuple `items`, `items` the `prefixItems`, the
 * `contains` counts their `contains`. Moving one without the rest changes what it says (the
 * keyword table's `group`).
 */
export const GROUPS: readonly (readonly string[])[] = (() => {
  const byGroup = new Map<string, string[]>();
  for (const name of keywordsWhere((k) => k.group !== undefined)) {
    const group = KEYWORDS[name]?.group as string;
    byGroup.set(group, [...(byGroup.get(group) ?? []), name]);
  }
  return [...byGroup.values()];
})();

/** Keywords that see every property evaluated around them: moved elsewhere, they see others. */
export const UNEVALUATED = keywordsWhere((k) => k.evaluated === true);

function names(s: JsonObject): Set<string> {
  const out = new Set<string>();
  for (const k of ['properties', 'patternProperties']) {
    const map = s[k];
    if (isObject(map)) for (const n of Object.keys(map)) out.add(`${k}:${n}`);
  }
  return out;
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/**
 * Whether an allOf branch can be merged into its parent without changing what either says:
 * no keyword group is split between them, and an `additionalProperties` on either side still
 * sees exactly the properties and patterns it saw (`{"additionalProperties": false, "allOf":
 * [{"properties": {"a": {}}}]}` rejects every key, and merged it would allow `a`).
 */
export function keepsAdjacency(target: JsonObject, branch: JsonObject): boolean {
  if (UNEVALUATED.some((k) => Object.hasOwn(branch, k))) return false;
  for (const group of GROUPS) {
    const inTarget = group.some((k) => Object.hasOwn(target, k)),
      inBranch = group.some((k) => Object.hasOwn(branch, k));
    if (inTarget && inBranch && !group.every((k) => sameJson(target[k], branch[k]))) return false;
  }
  if (!('additionalProperties' in target) && !('additionalProperties' in branch)) return true;
  const t = names(target),
    b = names(branch);
  const union = new Set([...t, ...b]);
  if ('additionalProperties' in target && !sameSet(union, t)) return false;
  if ('additionalProperties' in branch && !sameSet(union, b)) return false;
  return true;
}
