import type { Seed } from './corpus.ts';
import { ARRAY_FAMILIES } from './families/arrays.ts';
import { COMBINATOR_FAMILIES } from './families/combinators.ts';
import { MALFORMED_FAMILIES } from './families/malformed.ts';
import { OBJECT_FAMILIES } from './families/objects.ts';
import { REAL_FAMILIES } from './families/real.ts';
import { REF_FAMILIES } from './families/refs.ts';
import { SCALAR_FAMILIES } from './families/scalars.ts';
import type { Family } from './families/support.ts';
import { canonical, clone, type JsonObject } from './json.ts';
import type { Rng } from './prng.ts';

/** Every edit family, in the order the report lists them. */
export const FAMILIES: Family[] = [
  ...OBJECT_FAMILIES,
  ...ARRAY_FAMILIES,
  ...SCALAR_FAMILIES,
  ...COMBINATOR_FAMILIES,
  ...REF_FAMILIES,
  ...MALFORMED_FAMILIES,
  ...REAL_FAMILIES,
];

/** The family of a name, or an error naming the families there are. */
export function familyNamed(name: string): Family {
  const f = FAMILIES.find((x) => x.name === name);
  if (!f) throw new Error(`no edit family ${name}; there are: ${FAMILIES.map((x) => x.name).join(', ')}`);
  return f;
}

/** A schema before and after an edit, with the family and seed that made it. */
export interface Pair {
  family: string;
  seed: string;
  old: JsonObject;
  new: JsonObject;
}

/** A seed drawn half the time from tool schemas and half from specification definitions. */
function drawSeed(rng: Rng, seeds: Seed[]): Seed {
  const tools = seeds.filter((s) => s.origin === 'tool');
  const spec = seeds.filter((s) => s.origin === 'spec');
  const from = spec.length === 0 || (tools.length > 0 && rng.chance(0.5)) ? tools : spec;
  return rng.pick(from);
}

/**
 * One mutated pair: a seed, one edit of a family (of the given one, or of a random one) and
 * sometimes a second edit of the same family on the new side. Edits that do not apply or change
 * nothing are drawn again; the same generator state gives the same pair.
 */
export function mutatePair(rng: Rng, seeds: Seed[], family?: Family): Pair {
  for (let attempt = 0; attempt < 200; attempt++) {
    const fam = family ?? rng.pick(FAMILIES);
    const seed = drawSeed(rng, seeds);
    const base = clone(seed.schema);
    const next = rng.pick(fam.kinds)(rng, base);
    if (!next || canonical(next) === canonical(base)) continue;
    let result = next;
    if (rng.chance(0.25)) {
      const again = rng.pick(fam.kinds)(rng, clone(next));
      if (again && canonical(again) !== canonical(base)) result = again;
    }
    return { family: fam.name, seed: seed.name, old: base, new: result };
  }
  throw new Error(`family ${family?.name ?? '(any)'} produced no change in 200 attempts`);
}
