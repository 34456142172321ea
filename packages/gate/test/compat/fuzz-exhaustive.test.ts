import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DOMAINS,
  exhaustiveReport,
  runExhaustive,
  type Domain,
  type ExhaustiveTally,
} from '../../fuzz/exhaustive.ts';

const PAIRS = 150;
const SEED = 1;

describe('the exhaustive check: nested combinators against every value of small domains (npm run fuzz -- --exhaustive)', () => {
  for (const domain of DOMAINS)
    it(`${domain}: ${PAIRS} pairs, both ways, no permissive answer, no false alarm, no crash`, () => {
      const t = runExhaustive(domain, PAIRS, SEED);
      const report = exhaustiveReport(SEED, new Map<Domain, ExhaustiveTally>([[domain, t]]));
      // Pairs were judged, and of every kind: a check that judged nothing would pass on anything.
      assert.ok(t.judged >= PAIRS, report);
      assert.ok(t.compatible > 0 && t.breaking > 0, report);
      assert.equal(t.permissive + t.falseAlarm + t.crash, 0, report);
    });
});
