import type { JsonObject } from '../types.ts';
import type { Chooser } from './chooser.ts';

export interface Bounds {
  lo: number;
  loExclusive: boolean;
  hi: number;
  hiExclusive: boolean;
}

/** The effective numeric bounds of a schema (2019+ numeric exclusives; draft-04 booleans too). */
export function boundsOf(s: JsonObject): Bounds {
  let lo = -Infinity,
    hi = Infinity,
    loExclusive = false,
    hiExclusive = false;
  if (typeof s.minimum === 'number') lo = s.minimum;
  if (typeof s.exclusiveMinimum === 'number' && s.exclusiveMinimum >= lo) {
    lo = s.exclusiveMinimum;
    loExclusive = true;
  }
  if (typeof s.maximum === 'number') hi = s.maximum;
  if (typeof s.exclusiveMaximum === 'number' && s.exclusiveMaximum <= hi) {
    hi = s.exclusiveMaximum;
    hiExclusive = true;
  }
  return { lo, loExclusive, hi, hiExclusive };
}

export function inBounds(v: number, b: Bounds): boolean {
  const aboveLo = b.loExclusive ? v > b.lo : v >= b.lo;
  const belowHi = b.hiExclusive ? v < b.hi : v <= b.hi;
  return aboveLo && belowHi;
}

/**
 * Whether the validator counts v a multiple of m. Ajv divides in floating point and compares the
 * quotient with `parseInt` of it, so 0.3 is no multiple of 0.1 (0.3 / 0.1 is 2.9999999999999996)
 * and no quotient of 1e21 or more passes (its text has an exponent). The gate decides as the
 * validator does, or its verdicts would not hold for the calls the validator judges.
 */
export function isMultiple(v: number, m: number): boolean {
  if (m === 0) return false;
  const q = v / m;
  return q === parseInt(String(q));
}

/** A number within the bounds, respecting integer and multipleOf, near a boundary or at random. */
export function generateNumber(
  s: JsonObject,
  integer: boolean,
  choose: Chooser,
  salt: number,
): number | undefined {
  const b = boundsOf(s);
  const m = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
  const step = m ?? 1;
  const anchor = Number.isFinite(b.lo) ? b.lo : Number.isFinite(b.hi) ? b.hi - 10 * step : 0;
  const raw = choose.random
    ? [anchor, anchor + step, b.hi, b.hi - step, 0, 1, -1, 0.5, 1.5, 1e6, anchor + choose.int(0, 100) * step]
    : [anchor + salt * step, anchor + (salt + 1) * step, 0 + salt, b.hi - salt * step];
  const candidates = raw.filter((v) => Number.isFinite(v));
  const ok = (v: number): boolean =>
    inBounds(v, b) && (!integer || Number.isInteger(v)) && (m === undefined || isMultiple(v, m));
  const fit = (v: number): number => {
    if (m !== undefined) return Math.ceil(v / m - 1e-9) * m;
    return integer ? Math.ceil(v) : v;
  };
  const order = choose.random ? [choose.pick(candidates) ?? 0, ...candidates] : candidates;
  for (const c of order) {
    for (const raw of [c, fit(c), fit(c) + step]) {
      // The rounded form first (it reads better), then the exact product, whichever the validator takes.
      for (const v of [Number(raw.toPrecision(15)), raw]) if (ok(v)) return v;
    }
  }
  return undefined;
}
