import { boundsOf, inBounds, isMultiple, type Bounds } from '../generate/number.ts';
import type { Json, JsonObject } from '../types.ts';
import type { Ctx } from './context.ts';
import { compareNumberFormats } from './number-format.ts';
import { compareMultipleOf } from './multiple-of.ts';
import { firstThat, typeSet } from './util.ts';

function show(value: number, exclusive: boolean, lower: boolean): Json | undefined {
  if (!Number.isFinite(value)) return undefined;
  return `${lower ? (exclusive ? '>' : '>=') : exclusive ? '<' : '<='} ${value}`;
}

/** The keyword that holds a bound, so a finding points at it in the new schema. */
function boundKeyword(x: Bounds, lower: boolean): string {
  if (lower) return x.loExclusive ? 'exclusiveMinimum' : 'minimum';
  return x.hiExclusive ? 'exclusiveMaximum' : 'maximum';
}

/** Whether bound b (lower or upper) is tighter than a. */
function tighter(a: number, aEx: boolean, b: number, bEx: boolean, lower: boolean): boolean {
  if (a === b) return bEx && !aEx;
  return lower ? b > a : b < a;
}

/** Bounds whose integers are exactly represented, so the integer next to one is a float of its own. */
const EXACT = 2 ** 52;

/**
 * The bounds as they act on integers: `> 1.5` and `>= 1.5` both admit 2 and up, so for an
 * integer-only side they are the same bound, `>= 2`. Left as they are where integers stop being
 * exactly represented.
 */
function onIntegers(x: Bounds): Bounds {
  const lo = Math.abs(x.lo) < EXACT ? (x.loExclusive ? Math.floor(x.lo) + 1 : Math.ceil(x.lo)) : undefined;
  const hi = Math.abs(x.hi) < EXACT ? (x.hiExclusive ? Math.ceil(x.hi) - 1 : Math.floor(x.hi)) : undefined;
  return {
    lo: lo ?? x.lo,
    loExclusive: lo === undefined ? x.loExclusive : false,
    hi: hi ?? x.hi,
    hiExclusive: hi === undefined ? x.hiExclusive : false,
  };
}

/** Whether every number the node accepts is an integer (its `type` says integer and not number). */
function integerOnly(node: JsonObject): boolean {
  const types = typeSet(node);
  return types !== undefined && types.has('integer') && !types.has('number');
}

/** Numbers near both bounds that the sub side accepts and the sup side rejects. */
function boundWitness(sub: JsonObject, a: Bounds, b: Bounds): Json | undefined {
  const m = typeof sub.multipleOf === 'number' ? sub.multipleOf : integerOnly(sub) ? 1 : undefined;
  const near = [a.lo, b.lo, a.hi, b.hi].filter(Number.isFinite);
  const raw = near.flatMap((x) => [
    x,
    x - 1,
    x + 1,
    x - 0.5,
    x + 0.5,
    m !== undefined ? Math.floor(x / m) * m : x,
    m !== undefined ? Math.ceil(x / m) * m : x,
  ]);
  return firstThat(raw, (v) => inBounds(v, a) && !inBounds(v, b) && (m === undefined || isMultiple(v, m)));
}

/** minimum, maximum, exclusive bounds (as numbers), multipleOf, numeric formats. */
export function compareNumbers(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const a = boundsOf(sub),
    b = boundsOf(sup);
  // Only the integers of the sub side need to stay inside: bounds are compared as they act on them.
  const [ia, ib] = integerOnly(sub) ? [onIntegers(a), onIntegers(b)] : [a, b];
  const lowerTight = tighter(ia.lo, ia.loExclusive, ib.lo, ib.loExclusive, true);
  const lowerLoose = tighter(ib.lo, ib.loExclusive, ia.lo, ia.loExclusive, true);
  const loAt = ctx.onNew([boundKeyword(a, true)], [boundKeyword(b, true)]);
  const hiAt = ctx.onNew([boundKeyword(a, false)], [boundKeyword(b, false)]);
  const lo = ctx.oldNew(show(a.lo, a.loExclusive, true), show(b.lo, b.loExclusive, true));
  if (lowerTight)
    ctx.emit(ctx.id('minimum-increased', 'minimum-decreased'), loAt, lo, () => boundWitness(sub, a, b));
  else if (lowerLoose) ctx.emit(ctx.id('minimum-decreased', 'minimum-increased'), loAt, lo);
  const upperTight = tighter(ia.hi, ia.hiExclusive, ib.hi, ib.hiExclusive, false);
  const upperLoose = tighter(ib.hi, ib.hiExclusive, ia.hi, ia.hiExclusive, false);
  const hi = ctx.oldNew(show(a.hi, a.hiExclusive, false), show(b.hi, b.hiExclusive, false));
  if (upperTight)
    ctx.emit(ctx.id('maximum-decreased', 'maximum-increased'), hiAt, hi, () => boundWitness(sub, a, b));
  else if (upperLoose) ctx.emit(ctx.id('maximum-increased', 'maximum-decreased'), hiAt, hi);
  compareMultipleOf(sub, sup, ctx, a);
  compareNumberFormats(sub, sup, ctx, a);
}
