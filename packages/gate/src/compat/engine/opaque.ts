import { isObject } from '../generate/merge.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import { measure } from '../bounds.ts';
import { hasRef } from '../hash.ts';
import { compareConditional, rejectedValue } from './conditional.ts';
import { fits } from './holding.ts';
import type { Ctx } from './context.ts';
import { admits, sameSubtree, subValue, typeSet } from './util.ts';
import { nodeValidator } from './whole.ts';
import { setMember } from '../own.ts';

/**
 * `not` and if/then/else: unchanged they constrain both sides alike; removed they can only
 * widen. A `not` added is decided for the common shapes (const, enum, type, required); other
 * additions and changes are unknown, and the message says what would decide them. Conditionals
 * are decided in conditional.ts.
 */
export function compareOpaque(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  if (!sameSubtree(sub.not, sup.not, ctx)) {
    const decided =
      sup.not === undefined
        ? undefined
        : sub.not === undefined
          ? (excluded(sub, sup.not as Schema, ctx) ?? searched(sub, sup.not as Schema, ctx))
          : changed(sub, sub.not as Schema, sup.not as Schema, ctx);
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

/** Nodes up to this many values are searched for a value a new `not` excludes. */
const SEARCHED_VALUES = 400;
/** Nor deeper in the walk than this: nots nested in nots would each search their own node. */
const SEARCHED_DEPTH = 40;

/**
 * A `not` changed from A to B: nothing the kept side accepted is newly excluded when B fits in A
 * (shown strictly, and only for reference-free schemas, whose two sides resolve alike);
 * otherwise a kept value that B accepts is the witness.
 */
function changed(sub: JsonObject, a: Schema, b: Schema, ctx: Ctx): 'disjoint' | { value: Json } | undefined {
  if (!hasRef(a as Json) && !hasRef(b as Json) && fits(b, a, ctx)) return 'disjoint';
  // B may also exclude nothing the old side accepts at all, whatever A was.
  return excluded(sub, b, ctx) ?? searched(sub, b, ctx);
}

/** A value the kept side accepts that a new `not` excludes, among values built from both. */
function searched(sub: JsonObject, notIn: Schema, ctx: Ctx): { value: Json } | undefined {
  // Each search compiles the node on its own: on a large node (a deep nesting of nots, say,
  // searched at every level) that cost would grow with the square of its size.
  if (ctx.depth > SEARCHED_DEPTH) {
    ctx.situate();
    return undefined;
  }
  if (measure(sub, Infinity, SEARCHED_VALUES).over !== undefined) return undefined;
  const value = rejectedValue(sub, { not: notIn as Json }, [notIn], ctx);
  return value === undefined ? undefined : { value };
}

/** Whether some type `notIn` asks for is one the kept side admits. */
function sharesType(sub: JsonObject, notIn: JsonObject): boolean {
  const kept = typeSet(sub);
  return [...(typeSet(notIn) ?? [])].some(
    (t) => admits(kept, t) || (t === 'number' && admits(kept, 'integer')),
  );
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
  // Whatever else it says, an exclusion of only some types, or of only some values, the kept
  // side never holds excludes nothing it accepted.
  if (keys.length > 1 && 'type' in notIn && !sharesType(sub, notIn)) return 'disjoint';
  if (keys.length > 1 && ('const' in notIn || Array.isArray(notIn.enum))) {
    const values = 'const' in notIn ? [notIn.const as Json] : (notIn.enum as Json[]);
    if (!values.some((v) => accepts(v))) return 'disjoint';
  }
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
    // `required` holds of every value that is not an object: its `not` excludes them all.
    if (!admits(typeSet(sub), 'object')) {
      for (let salt = 0; salt < 4; salt++) {
        const v = subValue(ctx, sub, salt);
        if (v !== undefined && accepts(v)) return { value: v };
      }
      return undefined;
    }
    const names = notIn.required.filter((k): k is string => typeof k === 'string');
    const props = isObject(sub.properties) ? sub.properties : {};
    if (
      sub.additionalProperties === false &&
      !isObject(sub.patternProperties) &&
      names.some((k) => !Object.hasOwn(props, k))
    )
      return 'disjoint';
    const base = subValue(ctx, sub, 0, 'object');
    if (!isObject(base)) return undefined;
    const v: JsonObject = { ...base };
    for (const k of names)
      if (!Object.hasOwn(v, k))
        setMember(v, k, Object.hasOwn(props, k) ? (subValue(ctx, props[k] as Schema) ?? null) : null);
    return accepts(v) ? { value: v } : undefined;
  }
  return undefined;
}
