import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { failed, runCampaign } from '../../fuzz/campaign.ts';
import { minimiseExamples } from '../../fuzz/examples.ts';
import { FAMILIES } from '../../fuzz/mutate.ts';
import { failureReason } from '../../src/compat/failure.ts';
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

describe("the fuzzer's command line", () => {
  const fuzz = (...args: string[]) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../../fuzz/run.ts', import.meta.url)), ...args],
      {
        encoding: 'utf8',
      },
    );
  it('--help lists every option and every edit family, and exits 0', () => {
    const r = fuzz('--help');
    assert.equal(r.status, 0, r.stderr);
    for (const option of ['--pairs', '--seed', '--family', '--json', '--show', '--exhaustive'])
      assert.ok(r.stdout.includes(option), option);
    for (const f of FAMILIES) assert.match(r.stdout, new RegExp(`\\b${f.name}\\b`));
  });
  it('a usage error is one line that points at --help, and exits 2', () => {
    const r = fuzz('--bogus');
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^fuzz: Unknown option '--bogus' \(--help lists the options\)\n$/);
  });
});

describe('what the fuzzer counts as a crash the gate caught', () => {
  // askGate recognises the gate's own errors by the words failure.ts gives them: if those words
  // changed, such errors would pass as unknowns again, so the two are held together here.
  it("every error of the gate's own code is worded as askGate looks for it", () => {
    for (const err of [new TypeError('x'), new SyntaxError('x'), new ReferenceError('x'), 'thrown text'])
      assert.match(failureReason(err), /^an internal error \(/);
  });
});
