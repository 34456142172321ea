import { isObject, type JsonObject } from './json.ts';

/** Numbers at which validators and engines disagree: type limits, float artefacts, format ranges. */
const SPECIAL_NUMBERS = [
  0,
  1,
  -1,
  2,
  3,
  0.5,
  -0.5,
  0.1,
  0.2,
  0.3,
  0.6,
  0.7,
  0.9,
  1.1,
  1.5,
  2.5,
  7.5,
  10,
  100,
  1e-7,
  0.30000000000000004,
  Number.EPSILON,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 63,
  3.4e38,
  3.4028234663852886e38,
  3.5e38,
  -3.5e38,
  1e308,
  -1e308,
];

function near(x: number): number[] {
  const eps = Number.EPSILON * Math.max(1, Math.abs(x)) * 2;
  return [x, x - 1, x + 1, x - 0.5, x + 0.5, x - eps, x + eps, x - 0.1, x + 0.1];
}

/**
 * Candidate numbers for a number or integer schema: its own bounds and multiples, the pair's
 * other constants (each ± 1, ± 0.5, ± epsilon), tenths and the special numbers, taken in turn
 * from each group so a small budget still probes every kind; those the schema's own bounds (and
 * type integer) reject are left out. At most `max`, no duplicates.
 */
export function numberCandidates(node: JsonObject, hints: number[], max: number): number[] {
  const own = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']
    .map((k) => node[k])
    .filter((v): v is number => typeof v === 'number');
  const m = typeof node.multipleOf === 'number' && node.multipleOf > 0 ? node.multipleOf : undefined;
  const multiples: number[] = [];
  if (m !== undefined) {
    for (const a of [0, ...own, ...hints]) {
      const k = Math.round(a / m);
      multiples.push(k * m, (k - 1) * m, (k + 1) * m);
    }
    for (let j = 1; j <= 10; j++) multiples.push(j * m);
  }
  const tenths = Array.from({ length: 10 }, (_, j) => (j + 1) * 0.1);
  const groups = [
    multiples,
    own.length > 0 ? own.flatMap(near) : [0, 1, -1, 0.5],
    hints.flatMap(near),
    SPECIAL_NUMBERS,
    tenths,
  ];
  const integral = node.type === 'integer';
  const fits = (x: number): boolean =>
    Number.isFinite(x) && withinBounds(node, x) && (!integral || Number.isInteger(x));
  const out: number[] = [];
  const queues = groups.map((g) => g.filter(fits));
  while (out.length < max && queues.some((q) => q.length > 0))
    for (const q of queues) {
      const x = q.shift();
      if (x !== undefined && out.length < max && !out.includes(x)) out.push(x);
    }
  return out;
}

/** True when a schema's bounds would reject a number, so obviously invalid numbers go last. */
function withinBounds(node: unknown, x: number): boolean {
  if (!isObject(node)) return true;
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = node;
  if (typeof minimum === 'number' && x < minimum) return false;
  if (typeof maximum === 'number' && x > maximum) return false;
  if (typeof exclusiveMinimum === 'number' && x <= exclusiveMinimum) return false;
  if (typeof exclusiveMaximum === 'number' && x >= exclusiveMaximum) return false;
  return true;
}
