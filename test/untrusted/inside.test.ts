import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memberText, newWrapper, onlyInsideWrappers } from '../../src/untrusted/index.ts';

const canary = 'CANARY-91';

void test('true when every occurrence is inside some block, in text or JSON view', () => {
  const w = newWrapper();
  const a = w.wrap(memberText(`first ${canary}`, 'alice'));
  const b = w.wrap(memberText(`${canary} and ${canary}`, 'bob'));
  assert.ok(onlyInsideWrappers(`${a.text}\n${b.text}`, canary, w.boundary));
  assert.ok(onlyInsideWrappers(JSON.stringify({ a, list: [b] }), canary, w.boundary));
});

void test('false when an occurrence is outside every block', () => {
  const w = newWrapper();
  const a = w.wrap(memberText(canary, 'alice'));
  assert.equal(onlyInsideWrappers(`${canary}${a.text}`, canary, w.boundary), false);
  assert.equal(onlyInsideWrappers(`${a.text}${canary}`, canary, w.boundary), false);
  assert.equal(onlyInsideWrappers(JSON.stringify({ a, raw: canary }), canary, w.boundary), false);
});

void test('false when the block is never closed, or closed with another boundary', () => {
  const w = newWrapper();
  const other = newWrapper();
  const a = w.wrap(memberText(canary, 'alice'));
  const unclosed = a.text.slice(0, a.text.lastIndexOf('⟦'));
  assert.equal(onlyInsideWrappers(unclosed, canary, w.boundary), false);
  assert.equal(onlyInsideWrappers(a.text, canary, other.boundary), false);
});

void test('an occurrence in the marker itself (the author) does not count as inside', () => {
  const w = newWrapper();
  const a = w.wrap(memberText('hello', 'canary-91'));
  assert.equal(onlyInsideWrappers(a.text, 'canary-91', w.boundary), false);
});

void test('an occurrence straddling a closer is not inside', () => {
  const w = newWrapper();
  const a = w.wrap(memberText('tail', 'alice'));
  const straddle = `tail⟦/member-text ${w.boundary}`;
  assert.equal(onlyInsideWrappers(a.text, straddle, w.boundary), false);
});

void test('vacuously true without occurrences; an empty needle is refused', () => {
  const w = newWrapper();
  assert.ok(onlyInsideWrappers('no canary here', canary, w.boundary));
  assert.throws(() => onlyInsideWrappers('x', '', w.boundary), RangeError);
});
