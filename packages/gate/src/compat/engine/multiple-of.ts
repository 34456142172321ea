import { inBounds, isMultiple, type Bounds } from '../generate/number.ts';
import type { Json, JsonObject } from '../types.ts';
import type { Ctx } from './context.ts';
import { numberProbes } from './number-probes.ts';
import { firstThat, typeSet } from './util.ts';

/** The largest magnitude a side's numbers can have, scaled; Infinity when unbounded. */
function reach(b: Bounds): number {
  return Math.max(Math.abs(b.lo), Math.abs(b.hi));
}

/**
 * Whether every number within `b` that the validator counts a multiple of `step` it also counts a
 * multiple of `m`. Shown only where floating point is exact: both scale by one power of two to
 * integers (0.5, 0.25, 3 — not 0.1), the new step divides the old, and every scaled value stays
 * within 2^53, so each quotient is an exact integer below 1e21.
 */
function multiplesFit(step: number, m: number, b: Bounds): boolean {
  let scale = 1;
  for (let j = 0; j <= 64; j++, scale *= 2) {
    const x = step * scale,
      y = m * scale;
    if (Number.isInteger(x) && Number.isInteger(y))
      return y !== 0 && x % y === 0 && reach(b) * scale <= 2 ** 53;
  }
  return false;
}

/** The float just above and just below x (one unit in the last place away). */
function neighbours(x: number): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigInt64(0);
  const out = [x];
  for (const d of [1n, -1n]) {
    view.setBigInt64(0, bits + d);
    const y = view.getFloat64(0);
    if (Number.isFinite(y)) out.push(y);
  }
  return out;
}

/** At most this many old multiples are enumerated to decide a bounded range exactly. */
const MAX_ENUMERATED = 100_000;

/**
 * Within bounds holding few multiples of `step`, every number the validator counts a multiple
 * lies within one unit in the last place of some q × step: trying each of them decides the
 * range. Returns the first such number `keeps` accepts and `passes` rejects, null when there is
 * none, undefined when the range is too large (or unbounded) to enumerate.
 */
function enumerate(
  step: number,
  b: Bounds,
  keeps: (v: number) => boolean,
  passes: (v: number) => boolean,
): number | null | undefined {
  if (!Number.isFinite(b.lo) || !Number.isFinite(b.hi)) return undefined;
  const first = Math.ceil(b.lo / step) - 1,
    last = Math.floor(b.hi / step) + 1;
  if (last - first > MAX_ENUMERATED) return undefined;
  for (let q = first; q <= last; q++)
    for (const v of neighbours(q * step)) if (keeps(v) && !passes(v)) return v;
  return null;
}

/** multipleOf, decided as the validator decides it (see isMultiple), with a witness or unknown where not shown. */
export function compareMultipleOf(sub: JsonObject, sup: JsonObject, ctx: Ctx, a: Bounds): void {
  const ma = typeof sub.multipleOf === 'number' ? sub.multipleOf : undefined;
  const mb = typeof sup.multipleOf === 'number' ? sup.multipleOf : undefined;
  if (ma === mb) return;
  const args = ctx.oldNew<Json | undefined>(ma, mb);
  if (mb === undefined) {
    ctx.emit(ctx.id('multiple-of-widened', 'multiple-of-narrowed'), ['multipleOf'], args);
    return;
  }
  const types = typeSet(sub);
  const integerOnly = types !== undefined && !types.has('number') && types.has('integer');
  const step = ma ?? (integerOnly ? 1 : undefined);
  if (step !== undefined && multiplesFit(step, mb, a)) {
    if (ma !== undefined)
      ctx.emit(ctx.id('multiple-of-widened', 'multiple-of-narrowed'), ['multipleOf'], args);
    return;
  }
  const inOld = (v: number): boolean =>
    inBounds(v, a) && (!integerOnly || Number.isInteger(v)) && (ma === undefined || isMultiple(v, ma));
  const passes = (v: number): boolean => isMultiple(v, mb);
  const enumerated = step === undefined ? undefined : enumerate(step, a, inOld, passes);
  if (enumerated === null) {
    if (ma !== undefined)
      ctx.emit(ctx.id('multiple-of-widened', 'multiple-of-narrowed'), ['multipleOf'], args);
    return;
  }
  const witness = enumerated ?? firstThat(numberProbes([a], [step ?? mb, mb]), (v) => inOld(v) && !passes(v));
  if (witness === undefined && step !== undefined) {
    ctx.emit('multiple-of-undecided', ['multipleOf'], args);
    return;
  }
  ctx.emit(ctx.id('multiple-of-narrowed', 'multiple-of-widened'), ['multipleOf'], args, () => witness);
}
