import type { Step } from '../engine/context.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import { isObject } from './merge.ts';
import { generate, type GenEnv } from './value.ts';

function itemSchema(s: JsonObject, i: number): Schema {
  if (Array.isArray(s.prefixItems) && i < s.prefixItems.length) return s.prefixItems[i] as Schema;
  if (Array.isArray(s.items)) return (s.items[i] ?? s.additionalItems ?? true) as Schema;
  return (s.items ?? true) as Schema;
}

/**
 * Places a local value at its spot in a whole argument object: each container on the way is
 * the minimal value of its schema with the one member replaced.
 */
export function embed(trail: readonly Step[], local: Json, env: GenEnv): Json | undefined {
  let value = local;
  for (let i = trail.length - 1; i >= 0; i--) {
    const step = trail[i] as Step;
    if (step.seg === undefined) continue;
    const node = step.node === true ? {} : step.node;
    if (node === false) return undefined;
    if (typeof step.seg === 'string') {
      const base = generate(node, env, 0, 0, 'object');
      value = { ...(isObject(base) ? base : {}), [step.seg]: value };
    } else {
      const base = generate(node, env, 0, 0, 'array');
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
