import { NUMBER_FORMATS } from '../generate/formats.ts';
import { inBounds, isMultiple, type Bounds } from '../generate/number.ts';
import type { Json, JsonObject } from '../types.ts';
import { formatKind } from '../validator.ts';
import type { Ctx } from './context.ts';
import { numberProbes } from './number-probes.ts';
import { firstThat, typeSet } from './util.ts';

/** The node's format when it is one that constrains numbers (int32, int64, float, double). */
function numberFormat(s: JsonObject): string | undefined {
  return typeof s.format === 'string' && formatKind(s.format) === 'number' ? s.format : undefined;
}

/** Whether the node's numbers are all integers: an integer type, an integer format, or an integer multipleOf. */
function integersOnly(s: JsonObject, format: string | undefined): boolean {
  const types = typeSet(s);
  if (types !== undefined && types.has('integer') && !types.has('number')) return true;
  if (format !== undefined && NUMBER_FORMATS[format]?.integer === true) return true;
  return typeof s.multipleOf === 'number' && Number.isInteger(s.multipleOf) && s.multipleOf > 0;
}

/**
 * A numeric format (ajv-formats asserts int32 and int64 on numbers; float and double accept every
 * number) added or changed: compatible when every number the kept side accepts lies in the new
 * format's set, shown from its type, bounds and format; otherwise a number it accepts and the
 * format rejects is the witness.
 */
export function compareNumberFormats(sub: JsonObject, sup: JsonObject, ctx: Ctx, a: Bounds): void {
  const fa = numberFormat(sub),
    fb = numberFormat(sup);
  if (fa === fb) return;
  const args = ctx.oldNew<Json | undefined>(fa, fb);
  if (fb === undefined) {
    ctx.emit(ctx.id('format-removed', 'format-added'), ['format'], args);
    return;
  }
  const set = NUMBER_FORMATS[fb];
  if (set === undefined || (fa !== undefined && NUMBER_FORMATS[fa] === undefined)) {
    ctx.emit('format-unknown', ['format'], { format: set === undefined ? fb : (fa as string) });
    return;
  }
  const own = fa === undefined ? undefined : NUMBER_FORMATS[fa];
  const lo = Math.max(a.lo, own?.lo ?? -Infinity),
    hi = Math.min(a.hi, own?.hi ?? Infinity);
  if ((!set.integer || integersOnly(sub, fa)) && lo >= set.lo && hi <= set.hi) {
    ctx.emit('format-implied', ['format'], args);
    return;
  }
  const integer = integersOnly(sub, undefined);
  const m = typeof sub.multipleOf === 'number' ? sub.multipleOf : undefined;
  const inOld = (v: number): boolean =>
    inBounds(v, a) &&
    (!integer || Number.isInteger(v)) &&
    (m === undefined || isMultiple(v, m)) &&
    (own === undefined || inSet(v, own));
  const local = (): Json | undefined =>
    firstThat(numberProbes([a], m === undefined ? [] : [m]), (v) => inOld(v) && !inSet(v, set));
  ctx.emit(
    fa === undefined ? ctx.id('format-added', 'format-removed') : 'format-changed',
    ['format'],
    args,
    local,
  );
}

function inSet(v: number, set: { integer: boolean; lo: number; hi: number }): boolean {
  return (!set.integer || Number.isInteger(v)) && v >= set.lo && v <= set.hi;
}
