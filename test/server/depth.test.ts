import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DepthWatch, MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/server/depth.ts';

const bytes = (s: string) => Buffer.from(s, 'utf8');

/** Depth by the text's characters: an independent reading of the same rule. */
function deepest(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return max;
}

describe('nesting depth, over a whole body or chunk by chunk', () => {
  it('counts arrays and objects, not brackets inside strings or after an escaped quote', () => {
    const cases: [string, number, boolean][] = [
      ['[[[]]]', 3, false],
      ['[[[[]]]]', 3, true],
      ['{"a":{"b":[1]}}', 3, false],
      ['{"a":"[[[[[[["}', 1, false],
      ['["\\"[[[[[["]', 1, false],
      ['["\\\\"[[[]]]]', 3, true],
      ['"é[[[["', 0, false],
      ['', 0, false],
    ];
    for (const [text, max, deeper] of cases) assert.equal(nestsDeeperThan(bytes(text), max), deeper, text);
    assert.equal(nestsDeeperThan(bytes('['.repeat(MAX_JSON_DEPTH))), false);
    assert.equal(nestsDeeperThan(bytes('['.repeat(MAX_JSON_DEPTH + 1))), true);
  });

  it('gives the same verdict however the body is cut into chunks, and agrees with a reading by characters', () => {
    const alphabet = ['[', ']', '{', '}', '"', '\\', 'a', ' ', 'é'];
    let seed = 22;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 3000; n++) {
      const text = Array.from(
        { length: Math.floor(random() * 30) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
      const raw = bytes(text);
      const max = Math.floor(random() * 5);
      const whole = nestsDeeperThan(raw, max);
      assert.equal(whole, deepest(text) > max, text);
      for (let cut = 0; cut <= raw.length; cut++) {
        const watch = new DepthWatch(max);
        const split = watch.deeper(raw.subarray(0, cut)) || watch.deeper(raw.subarray(cut));
        assert.equal(split, whole, `${text} cut at ${cut}`);
      }
      const byByte = new DepthWatch(max);
      assert.equal(
        [...raw].some((b) => byByte.deeper(Uint8Array.of(b))),
        whole,
        `${text} byte by byte`,
      );
    }
  });

  it('stops at the first chunk that goes too deep', () => {
    const watch = new DepthWatch();
    assert.equal(watch.deeper(bytes('['.repeat(40))), false);
    assert.equal(watch.deeper(bytes('['.repeat(40))), true);
  });
});
