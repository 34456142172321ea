import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MAX_LENGTH, memberText, newWrapper } from '../../src/untrusted/index.ts';
import { CORPUS } from './corpus.ts';
import { assertWrapperProperties, decodeVisible, normaliseWritten } from './helpers.ts';

void test('the corpus covers at least 30 strings across every family', () => {
  assert.ok(CORPUS.length >= 30);
  const families = new Set(CORPUS.map((e) => e.family));
  for (const f of [
    'injection',
    'closer',
    'ansi',
    'bidi',
    'zero-width',
    'tags',
    'variation',
    'surrogates',
    'huge',
  ]) {
    assert.ok(families.has(f), `family ${f}`);
  }
});

for (const entry of CORPUS) {
  void test(`corpus ${entry.family}: ${entry.name}`, () => {
    const w = newWrapper();
    const out = w.wrap(memberText(entry.raw, 'mallory'));
    const payload = assertWrapperProperties(out, w.boundary, 'mallory', DEFAULT_MAX_LENGTH);

    assert.equal(out.truncated, entry.truncated ?? false, 'truncation');
    const written = normaliseWritten(entry.raw);
    if (out.truncated) {
      assert.ok(written.startsWith(decodeVisible(payload)), 'a cut payload is a faithful prefix');
    } else {
      assert.equal(decodeVisible(payload), written, 'nothing lost: the payload decodes to what was written');
    }
    if (entry.payload !== undefined) assert.equal(payload, entry.payload);
    for (const s of entry.contains ?? []) assert.ok(payload.includes(s), `contains ${JSON.stringify(s)}`);
    for (const s of entry.excludes ?? []) assert.ok(!payload.includes(s), `excludes ${JSON.stringify(s)}`);

    // The text view is JSON of the structured content: the block survives it intact.
    const json = JSON.stringify({ bio: out });
    assert.deepEqual(JSON.parse(json), { bio: out });
  });
}
