import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compareSchemas, dialectOf, type Schema } from '../../src/compat/index.ts';
import { sampleValues } from '../../src/compat/generate/sample.ts';
import { independentValidator } from './helpers.ts';
import { independentSamples } from './jsoncompat.ts';
import { corpus, mutate, permute } from './mutations.ts';

const SCHEMAS = corpus();

/** jsoncompat reads 2020-12 only: drop $schema, and draft-07 definitions stay reachable by their refs. */
function forJsoncompat(s: Schema): Schema {
  if (typeof s !== 'object') return s;
  const { $schema: _drop, ...rest } = s;
  return rest;
}

/**
 * Looks for a value the old schema accepts and the new one rejects, with Warden's sampler and
 * jsoncompat's independent generator, validated by an Ajv of the test's own.
 */
function counterexample(before: Schema, after: Schema, seed: number): unknown {
  const old = independentValidator(before);
  const now = independentValidator(after);
  const values = [
    ...sampleValues(before, dialectOf(before) ?? '2020-12', 40, seed, true),
    ...independentSamples(forJsoncompat(before), 12),
  ];
  return values.find((v) => old(v) && !now(v));
}

const edit = fc.record({
  schema: fc.nat(SCHEMAS.length - 1),
  where: fc.nat(),
  kind: fc.nat(),
  amount: fc.nat(),
  second: fc.option(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { nil: undefined }),
});

function pair(e: {
  schema: number;
  where: number;
  kind: number;
  amount: number;
  second: [number, number, number] | undefined;
}): { before: Schema; after: Schema } {
  const before = SCHEMAS[e.schema] as Schema & object;
  let after = mutate(before, e.where, e.kind, e.amount);
  if (e.second) after = mutate(after, ...e.second);
  return { before, after };
}

describe('differential fuzzing on real schemas (recursive ones included)', () => {
  it('no counterexample to a compatible verdict, and every witness checks out (strict set semantics)', () => {
    let decided = 0;
    fc.assert(
      fc.property(edit, (e) => {
        const { before, after } = pair(e);
        for (const [a, b] of [
          [before, after],
          [after, before],
        ] as const) {
          const r = compareSchemas(a, b, 'input', { strictOpenObjects: true });
          assert.ok(!r.findings.some((f) => f.rule === 'budget-exhausted'), 'within the budget');
          if (r.verdict === 'compatible' || r.verdict === 'identical') {
            decided++;
            const c = counterexample(a, b, e.amount);
            assert.equal(c, undefined, `compatible, yet ${JSON.stringify(c)} is rejected`);
          }
          for (const f of r.findings.filter((x) => x.verdict === 'breaking')) {
            decided++;
            assert.equal(independentValidator(a)(f.witness), true, `${f.rule}: witness valid before`);
            assert.equal(independentValidator(b)(f.witness), false, `${f.rule}: witness rejected after`);
          }
        }
      }),
      { numRuns: 60, seed: 11 },
    );
    assert.ok(decided > 60, `most mutations are decided (${decided})`);
  });
});

/** How many edited pairs the metamorphic property draws, and how many orderings of each it tries. */
export const METAMORPHIC_RUNS = 300;
export const ORDERINGS = 3;

/** The whole verdict: rules, witnesses and sampling (an identical pair counts as compatible). */
function verdictOf(before: Schema, after: Schema): string {
  const v = compareSchemas(before, after, 'input').verdict;
  return v === 'identical' ? 'compatible' : v;
}

describe('metamorphic: order never changes a verdict', () => {
  it(`permuting properties, anyOf/oneOf branches and $defs (${METAMORPHIC_RUNS} pairs × ${ORDERINGS} orderings)`, () => {
    fc.assert(
      fc.property(edit, fc.nat(), (e, seed) => {
        const { before, after } = pair(e);
        const verdict = verdictOf(before, after);
        for (let i = 0; i < ORDERINGS; i++) {
          // Each side permuted its own way. Branches are tried, and witnesses and samples drawn,
          // in an order fixed by content, so not even whether a witness checks out may change.
          const again = verdictOf(permute(before, seed + i), permute(after, seed + 7 * i + 1));
          assert.equal(again, verdict, `${verdict} became ${again} (ordering ${i})`);
        }
      }),
      { numRuns: METAMORPHIC_RUNS, seed: 3 },
    );
  });
});
