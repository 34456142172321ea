import { isObject, mergeForGeneration } from '../generate/merge.ts';
import type { JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import { resolveRef } from '../refs.ts';
import { ALL_TYPES, admits, typeSet } from './util.ts';

/** How many `$ref`s are followed to learn a branch's type before giving up (it is then unknown). */
const MAX_HOPS = 16;

/**
 * The types both sets admit, integer ⊂ number included: {number} and {integer, null} share
 * {integer}. Undefined stands for every type.
 */
export function intersectTypes(
  a: Set<string> | undefined,
  b: Set<string> | undefined,
): Set<string> | undefined {
  if (!a) return b;
  if (!b) return a;
  const out = new Set<string>();
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const t of x) {
      if (admits(y, t)) out.add(t);
      else if (t === 'number' && y.has('integer')) out.add('integer');
    }
  }
  // number and integer together say no more than number.
  if (out.has('number')) out.delete('integer');
  return out;
}

/**
 * The types a schema admits as far as its `type` keywords say, following `$ref`s (whose
 * neighbouring keywords apply too): undefined when nothing limits them.
 */
function typesOf(schema: Schema, side: 'sub' | 'sup', ctx: Ctx): Set<string> | undefined {
  let node: Schema | undefined = schema;
  let types: Set<string> | undefined;
  for (let hops = 0; hops <= MAX_HOPS && node !== undefined; hops++) {
    if (node === false) return new Set();
    if (!isObject(node)) return types;
    types = intersectTypes(types, typeSet(node));
    if (typeof node.$ref !== 'string') return types;
    node = resolveRef(ctx.shared[side].root, node.$ref)?.schema;
  }
  return types;
}

/**
 * An anyOf/oneOf branch read together with the keywords beside its combinator, as the
 * validator applies both to every value. Where the two `type`s share nothing the branch can
 * never match (`{"type": "string", "oneOf": [{"type": "null"}, …]}`), and it is `false`: it
 * accepts nothing, so it is included in anything and no break can be shown through it.
 * Otherwise it is the shallow merge values are built from, with the `type` narrowed to what
 * both admit. The merge keeps the branch's own value of any other keyword both say, so it is
 * never stricter than the real conjunction, only, at worst, looser.
 */
export function foldBranch(siblings: JsonObject, branch: Schema, side: 'sub' | 'sup', ctx: Ctx): Schema {
  if (branch === false) return false;
  const outer = typeSet(siblings);
  const inner = typesOf(branch, side, ctx);
  const both = intersectTypes(outer, inner);
  if (both && both.size === 0) return false;
  const merged = mergeForGeneration(siblings, branch);
  if (!isObject(merged) || !outer || !isObject(branch) || !typeSet(branch)) return merged;
  const ordered = ALL_TYPES.flatMap((t) => (t === 'number' ? ['integer', 'number'] : [t])).filter((t) =>
    both?.has(t),
  );
  return { ...merged, type: ordered.length === 1 ? (ordered[0] as string) : ordered };
}
