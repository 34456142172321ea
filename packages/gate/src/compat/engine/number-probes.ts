import { type Bounds } from '../generate/number.ts';

/** Magnitudes where floating point stops behaving like arithmetic: 2^31, 2^53, 1e21 (quotients with an exponent), the largest doubles. */
const EDGES = [
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53,
  2 ** 53 + 2,
  1e21,
  1.5e21,
  2e21,
  1e22,
  1e300,
  1.7976931348623157e308,
];

/**
 * Numbers worth trying as a witness about numbers: each bound and its neighbours, halves, small
 * multiples of each step, and the magnitudes where the validator's arithmetic breaks down. The
 * caller filters them by what each side accepts; order is fixed, so witnesses are reproducible.
 */
export function numberProbes(bounds: Bounds[], steps: number[]): number[] {
  const out: number[] = [0, 1, -1, 0.5, -0.5, 1.5, 0.1, 0.3];
  for (const b of bounds)
    for (const x of [b.lo, b.hi])
      if (Number.isFinite(x)) out.push(x, x - 1, x + 1, x - 0.5, x + 0.5, Math.floor(x), Math.ceil(x));
  for (const m of steps) {
    for (let k = 1; k <= 40; k++) out.push(k * m, -k * m, (k + 0.5) * m, Number((k * m).toPrecision(15)));
    for (const b of bounds)
      for (const x of [b.lo, b.hi])
        if (Number.isFinite(x)) out.push(Math.ceil(x / m) * m, Math.floor(x / m) * m, x + m, x - m);
    for (const e of EDGES) out.push(Math.round(e / m) * m, Math.round((0.75 * e) / m) * m);
    // Quotients just under and just over 1e21, where the validator's parseInt stops agreeing.
    out.push(0.6e21 * m, 0.9e21 * m, 1.2e21 * m, -0.6e21 * m);
  }
  for (const e of EDGES) out.push(e, -e, -e - 1, e + 1);
  return out.filter((v) => Number.isFinite(v));
}
