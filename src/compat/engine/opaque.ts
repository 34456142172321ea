import { isObject } from '../generate/merge.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import { compareConditional } from './conditional.ts';
import type { Ctx } from './context.ts';
import { admits, sameSubtree, subValue, typeSet } from './util.ts';
import { nodeValidator } from './whole.ts';

/**
 * `not` and if/then/else: unchanged they constrain both sides alike; removed they can only
 * widen. A `not` added is decided for the common shapes (const, enum, type, required); other
 * additions and changes are unknown, and the message says what would decide them. Conditionals
 * are decided in conditional.ts.
 */
export function compareOpaque(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  if (!sameSubtree(sub.not, sup.not, ctx)) {
    const decided =
      sup.not !== undefined && sub.not === undefined ? excluded(sub, sup.not as Schema, ctx) : undefined;
    if (decided === 'disjoint') {
      // The new exclusion meets nothing the old side accepted.
    } else if (decided !== undefined) {
      const rule = ctx.id('not-excludes-value', 'not-no-longer-excludes-value');
      ctx.emit(rule, ['not'], { value: decided.value }, () => decided.value);
    } else {
      const rule =
        sup.not === undefined
          ? ctx.id('not-removed', 'not-added')
          : sub.not === undefined
            ? ctx.id('not-added', 'not-removed')
            : 'not-changed';
      ctx.emit(rule, ['not'], {});
    }
  }
  compareConditional(sub, sup, ctx);
}

/**
 * Whether a `not` added on the kept side's counterpart excludes a value the kept side accepts:
 * `disjoint` when it provably cannot, a value when one is found, undefined when not decided.
 */
function excluded(sub: JsonObject, notIn: Schema, ctx: Ctx): 'disjoint' | { value: Json } | undefined {
  if (!isObject(notIn)) return notIn === false ? 'disjoint' : undefined;
  const keys = Object.keys(notIn).filter((k) => !['title', 'description', '$comment'].includes(k));
  const accepts = nodeValidator(sub, 'sub', ctx);
  if (!accepts) return undefined;
  if (keys.length === 1 && (keys[0] === 'const' || keys[0] === 'enum')) {
    const values = keys[0] === 'const' ? [notIn.const as Json] : Array.isArray(notIn.enum) ? notIn.enum : [];
    const hit = values.find((v) => accepts(v));
    return hit === undefined ? 'disjoint' : { value: hit };
  }
  if (keys.length === 1 && keys[0] === 'type') {
    const excludedTypes = typeSet(notIn) ?? new Set<string>();
    const kept = typeSet(sub);
    const overlap = [...excludedTypes].filter(
      (t) => admits(kept, t) || (t === 'number' && admits(kept, 'integer')),
    );
    if (overlap.length === 0) return 'disjoint';
    for (const t of overlap) {
      for (let salt = 0; salt < 4; salt++) {
        const v = subValue(ctx, sub, salt, t);
        if (v !== undefined && accepts(v)) return { value: v };
      }
    }
    return undefined;
  }
  if (keys.length === 1 && keys[0] === 'required' && Array.isArray(notIn.required)) {
    if (!admits(typeSet(sub), 'object')) return 'disjoint';
    const names = notIn.required.filter((k): k is string => typeof k === 'string');
    const props = isObject(sub.properties) ? sub.properties : {};
    if (
      sub.additionalProperties === false &&
      !isObject(sub.patternProperties) &&
      names.some((k) => !(k in props))
    )
      return 'disjoint';
    const base = subValue(ctx, sub, 0, 'object');
    if (!isObject(base)) return undefined;
    const v: JsonObject = { ...base };
    for (const k of names)
      if (!(k in v)) v[k] = k in props ? (subValue(ctx, props[k] as Schema) ?? null) : null;
    return accepts(v) ? { value: v } : undefined;
  }
  return undefined;
}
