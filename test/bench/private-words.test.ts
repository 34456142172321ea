import assert from 'node:assert/strict';
import { it } from 'node:test';
import { measurePrivateWords } from '../../bench/private-words.ts';

// The bench of `npm run bench -- private-words`, small: the same generator and the same
// check through the store, on a corpus fixed by its seed, so every count is exact.
void it('private words: no passage of 12+ words one member wrote gets through; ordinary messages counted', async () => {
  const f = await measurePrivateWords({ seed: 7, privateTexts: 60, attempts: 400, ordinary: 1000 });
  assert.equal(f.carried, 0, 'no passage of 12+ words one member alone wrote went through');
  const { falsePositiveTexts, checkMicros: _, ...counts } = f;
  assert.deepEqual(counts, {
    privateTexts: 60,
    fingerprints: 2194,
    attemptsWithPassage: 328,
    carried: 0,
    attemptsWithCommonRun: 4,
    caughtCommonRun: 0,
    attemptsWithoutPassage: 68,
    caughtWithoutPassage: 0,
    ordinary: 1000,
    falsePositives: 132,
    falsePositivesStock: 132,
  });
  // Every message queued repeats a stock sentence of 10+ words: a few words quoted never count.
  assert.equal(counts.falsePositivesStock, counts.falsePositives);
  assert.equal(falsePositiveTexts.length, counts.falsePositives);
});
