import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failed, runCampaign } from '../../fuzz/campaign.ts';
import { minimiseExamples } from '../../fuzz/examples.ts';
import { decidable, examples, table } from '../../fuzz/report.ts';

const PAIRS = 1000;
const SEED = 1;

describe('differential fuzzing against Ajv (npm run fuzz)', () => {
  it(`${PAIRS} edited real schemas, both ways: no permissive answer, no false alarm, no crash, unknown ≤ 5%`, () => {
    const result = runCampaign({ pairs: PAIRS, seed: SEED, keep: 2 });
    const o = result.totals.outcomes;
    // Every pair was judged both ways, and the oracle decided most of them.
    assert.ok(result.totals.judged >= 2 * PAIRS);
    assert.equal(o['fuzzer-error'], 0, `the fuzzer itself failed: ${result.firstFuzzerError ?? ''}`);
    // Unknown stays the exception among the comparisons the gate does not refuse as input.
    assert.ok(o.unknown <= 0.05 * decidable(result.totals), table(result));
    if (!failed(result)) return;
    const shown = minimiseExamples(result, 1, 2000);
    assert.fail(
      [
        `seed ${SEED}: ${o.permissive} permissive, ${o['false-alarm']} false alarms, ` +
          `${o['invalid-compatible']} compatible on a schema the oracle cannot compile, ${o.crash} crashes`,
        '',
        table(result),
        '',
        examples(result, shown),
      ].join('\n'),
    );
  });
});
