import type { Json, JsonObject, Schema } from '../types.ts';
import { isObject } from './merge.ts';
import { generate, type GenEnv } from './value.ts';

/** One step from the root down to the node being compared, on the side whose values are kept. */
export interface Step {
  /** The (resolved) schema of the container on the kept side. */
  node: Schema;
  /** The key or index inside that container; undefined for a step that is no container (a branch). */
  seg?: string | number;
  /**
   * Whether the key is the one property the step is about (a `properties` entry), rather than
   * one name standing for all the names a pattern or `additionalProperties` governs.
   */
  named?: boolean;
}

function itemSchema(s: JsonObject, i: number): Schema {
  if (Array.isArray(s.prefixItems) && i < s.prefixItems.length) return s.prefixItems[i] as Schema;
  if (Array.isArray(s.items)) return (s.items[i] ?? s.additionalItems ?? true) as Schema;
  return (s.items ?? true) as Schema;
}

/**
 * Places a local value at its spot in a whole argument object: each container on the way is
 * the minimal value of its schema with the one member replaced. With `fill`, a container is
 * also given the members its parent's minimal value holds there: a step may know only part of
 * a conjunction (one allOf conjunct compared on its own), while its parent was built whole.
 */
export function embed(trail: readonly Step[], local: Json, env: GenEnv, fill = false): Json | undefined {
  const bases: Json[] = [];
  let inherited: Json | undefined;
  for (const step of trail) {
    if (step.seg === undefined) continue;
    const node = step.node === true ? {} : step.node;
    if (node === false) return undefined;
    const kind = typeof step.seg === 'string' ? 'object' : 'array';
    let base = generate(node, env, 0, 0, kind);
    if (fill && isObject(inherited) && isObject(base)) base = { ...inherited, ...base };
    else if (fill && base === undefined && inherited !== undefined) base = inherited;
    bases.push(base === undefined ? null : base);
    inherited = isObject(base)
      ? base[step.seg as string]
      : Array.isArray(base)
        ? base[step.seg as number]
        : undefined;
  }
  let value = local;
  let k = bases.length;
  for (let i = trail.length - 1; i >= 0; i--) {
    const step = trail[i] as Step;
    if (step.seg === undefined) continue;
    const node = isObject(step.node) ? step.node : {};
    const base = bases[--k];
    if (typeof step.seg === 'string') {
      value = { ...(isObject(base) ? base : {}), [step.seg]: value };
    } else {
      const arr: Json[] = Array.isArray(base) ? [...base] : [];
      while (arr.length < step.seg) {
        const filler = generate(itemSchema(node, arr.length), env, arr.length + 1);
        if (filler === undefined) return undefined;
        arr.push(filler);
      }
      arr[step.seg] = value;
      value = arr;
    }
  }
  return value;
}
