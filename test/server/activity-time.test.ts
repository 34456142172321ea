// A call's record says when it arrived as toISOString() would, though the text of each
// second is written once for the calls within it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { activityOf } from '../../src/server/activity.ts';
import type { Caller } from '../../src/tools/index.ts';

const agent = {
  kind: 'agent',
  principal: { id: 'pr_1' },
  token: { id: 'tok_1' },
} as unknown as Caller;
const atOf = (at: Date) => activityOf(agent, 'club_info', {}, { kind: 'ok', data: {} }, at)!.at;

void test('the moment of a call reads as toISOString() gives it, within a second and across seconds', () => {
  let seed = 5;
  const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed / 2 ** 31);
  const start = Date.UTC(2026, 11, 2, 14, 5, 9, 998);
  const moments = [
    // Calls a few milliseconds apart, over second, minute, day and year boundaries.
    ...Array.from({ length: 3_000 }, (_, n) => start + n * 3),
    Date.UTC(2026, 11, 31, 23, 59, 59, 999),
    Date.UTC(2027, 0, 1, 0, 0, 0, 0),
    Date.UTC(2027, 0, 1, 0, 0, 0, 9),
    Date.UTC(2027, 0, 1, 0, 0, 0, 10),
    Date.UTC(2027, 0, 1, 0, 0, 0, 99),
    Date.UTC(2027, 0, 1, 0, 0, 0, 100),
    // Anywhere, and back to a second seen before.
    ...Array.from({ length: 2_000 }, () => Date.UTC(1000, 0, 1) + Math.floor(next() * 2.8e14)),
    start,
    start + 1,
    // Before 1970, and years of other than four digits.
    -1,
    -999,
    -1_000,
    Date.UTC(-1, 0, 1),
    Date.UTC(12_345, 5, 1, 0, 0, 0, 5),
    Date.UTC(12_345, 5, 1, 0, 0, 0, 6),
  ];
  for (const ms of moments) {
    const at = new Date(ms);
    assert.equal(atOf(at), at.toISOString(), String(ms));
  }
  assert.throws(() => atOf(new Date(NaN)), RangeError);
});
