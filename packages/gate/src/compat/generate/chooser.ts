/** How the generator makes choices: always the first (minimal values) or at random (sampling). */
export interface Chooser {
  readonly random: boolean;
  pick<T>(items: readonly T[]): T | undefined;
  chance(p: number): boolean;
  int(lo: number, hi: number): number;
}

export const FIRST: Chooser = {
  random: false,
  pick: (items) => items[0],
  chance: () => false,
  int: (lo) => lo,
};

/** A small seeded PRNG (mulberry32), so a sampled counterexample can be reproduced. */
export function seeded(seed: number): Chooser {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    random: true,
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
  };
}
