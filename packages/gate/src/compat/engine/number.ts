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

/** Numbers near both bounds that the sub side accepts and the sup side rejects. */
function boundWitness(sub: JsonObject, a: Bounds, b: Bounds): Json | undefined {
  const types = typeSet(sub);
  const integerOnly = types !== undefined && types.has('integer') && !types.has('number');
  const m = typeof sub.multipleOf === 'number' ? sub.multipleOf : integerOnly ? 1 : undefined;
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
  const lowerTight = tighter(a.lo, a.loExclusive, b.lo, b.loExclusive, true);
  const lowerLoose = tighter(b.lo, b.loExclusive, a.lo, a.loExclusive, true);
  const loAt = ctx.onNew([boundKeyword(a, true)], [boundKeyword(b, true)]);
  const hiAt = ctx.onNew([boundKeyword(a, false)], [boundKeyword(b, false)]);
  const lo = ctx.oldNew(show(a.lo, a.loExclusive, true), show(b.lo, b.loExclusive, true));
  if (lowerTight)
    ctx.emit(ctx.id('minimum-increased', 'minimum-decreased'), loAt, lo, () => boundWitness(sub, a, b));
  else if (lowerLoose) ctx.emit(ctx.id('minimum-decreased', 'minimum-increased'), loAt, lo);
  const upperTight = tighter(a.hi, a.hiExclusive, b.hi, b.hiExclusive, false);
  const upperLoose = tighter(b.hi, b.hiExclusive, a.hi, a.hiExclusive, false);
  const hi = ctx.oldNew(show(a.hi, a.hiExclusive, false), show(b.hi, b.hiExclusive, false));
  if (upperTight)
    ctx.emit(ctx.id('maximum-decreased', 'maximum-increased'), hiAt, hi, () => boundWitness(sub, a, b));
  else if (upperLoose) ctx.emit(ctx.id('maximum-increased', 'maximum-decreased'), hiAt, hi);
  compareMultipleOf(sub, sup, ctx, a);
  compareNumberFormats(sub, sup, ctx, a);
}
