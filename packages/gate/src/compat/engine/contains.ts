import type { Json, JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import { fits } from './holding.ts';
import { subValue } from './util.ts';
import { nodeValidator } from './whole.ts';

interface Contains {
  schema: Schema;
  min: number;
  max: number;
}

/** `contains` with its counts (2019-09 on); undefined when the node constrains nothing by it. */
function containsOf(s: JsonObject): Contains | undefined {
  if (s.contains === undefined) return undefined;
  const min = typeof s.minContains === 'number' ? s.minContains : 1;
  const max = typeof s.maxContains === 'number' ? s.maxContains : Infinity;
  if (min === 0 && max === Infinity) return undefined;
  return { schema: s.contains as Schema, min, max };
}

function countBound(s: JsonObject, keyword: 'minItems' | 'maxItems', none: number): number {
  return typeof s[keyword] === 'number' ? (s[keyword] as number) : none;
}

/** Every item the kept side allows fits `schema`: its items, prefix and rest alike. */
function everyItemFits(sub: JsonObject, schema: Schema, ctx: Ctx): boolean {
  const prefix = Array.isArray(sub.prefixItems) ? (sub.prefixItems as Schema[]) : [];
  const rest = (sub.items ?? true) as Schema;
  return [...prefix, rest].every((s) => s === false || fits(s, schema, ctx));
}

/**
 * contains, minContains, maxContains. The new side's demand is met when shown: at least `min`
 * matching items because the old side demanded as many items of a schema that fits the new one
 * (or every item fits it and there are enough); at most `max` because the old arrays hold no
 * more items, or no more items of a schema the new one fits in. Otherwise an old array the new
 * counts reject is the witness, or the change stays unknown.
 */
export function compareContains(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const a = containsOf(sub),
    b = containsOf(sup);
  if (b === undefined) {
    if (a !== undefined) ctx.emit(ctx.id('contains-removed', 'contains-added'), ['contains'], {});
    return;
  }
  const minShown =
    b.min === 0 ||
    (a !== undefined && a.min >= b.min && fits(a.schema, b.schema, ctx)) ||
    (countBound(sub, 'minItems', 0) >= b.min && everyItemFits(sub, b.schema, ctx));
  const maxShown =
    b.max === Infinity ||
    countBound(sub, 'maxItems', Infinity) <= b.max ||
    (a !== undefined && a.max <= b.max && fits(b.schema, a.schema, ctx));
  if (minShown && maxShown) {
    if (a === undefined || !sameContains(a, b))
      ctx.emit(ctx.id('contains-widened', 'contains-narrowed'), ['contains'], {});
    return;
  }
  const rule =
    a === undefined
      ? ctx.id('contains-added', 'contains-removed')
      : ctx.id('contains-narrowed', 'contains-widened');
  const found = rejectedArray(sub, b, ctx);
  if (found === undefined) {
    ctx.emit('contains-changed', ['contains'], {});
    return;
  }
  ctx.emit(rule, ['contains'], {}, () => found);
}

function sameContains(a: Contains, b: Contains): boolean {
  return a.min === b.min && a.max === b.max && JSON.stringify(a.schema) === JSON.stringify(b.schema);
}

/** An array the kept side accepts and the new counts reject, among arrays built from the kept side. */
function rejectedArray(sub: JsonObject, b: Contains, ctx: Ctx): Json | undefined {
  const keeps = nodeValidator(sub, 'sub', ctx);
  const constraint: JsonObject = { contains: b.schema as Json, minContains: b.min };
  if (b.max !== Infinity) constraint.maxContains = b.max;
  const passes = nodeValidator(constraint, 'sup', ctx);
  if (!keeps || !passes) return undefined;
  const candidates: Json[] = [[]];
  for (let salt = 0; salt < 6; salt++) {
    const v = subValue(ctx, sub, salt, 'array');
    if (Array.isArray(v)) {
      candidates.push(v);
      // More of the same items, to exceed a maxContains.
      if (v.length > 0) candidates.push([...v, ...v], [...v, ...v, ...v, ...v]);
    }
  }
  // Arrays of one repeated item, just short of the new minimum and just past the new maximum.
  const sizes = [1, b.min - 1, b.max + 1].filter((n) => Number.isFinite(n) && n >= 1 && n <= 64);
  for (const source of [sub.contains, b.schema, sub.items]) {
    if (source === undefined) continue;
    for (let salt = 0; salt < 3; salt++) {
      const item = subValue(ctx, source as Schema, salt);
      if (item !== undefined) for (const n of sizes) candidates.push(Array.from({ length: n }, () => item));
    }
  }
  return candidates.find((v) => keeps(v) && !passes(v));
}
