import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forPeople, hiddenCount, sanitize } from '../../src/text/index.ts';

// One untrusted string, two readers: a model gets markup made visible, a person gets it as written.
const CASES: [name: string, raw: string, people: string, model: string, hidden: number][] = [
  ['plain text', 'Read a file', 'Read a file', 'Read a file', 0],
  [
    'markup stays for people',
    'use <b>bold</b> & [U+0041]',
    'use <b>bold</b> & [U+0041]',
    'use [U+003C]b[U+003E]bold[U+003C]/b[U+003E] & [U+005B]U+0041]',
    0,
  ],
  ['a zero-width space', 'ig\u200bnore', 'ig[U+200B]nore', 'ig[U+200B]nore', 1],
  ['a bidi override', 'abc\u202edcb', 'abc[U+202E]dcb', 'abc[U+202E]dcb', 1],
  ['an escape sequence', 'red \u001b[31m', 'red [U+001B][31m', 'red [U+001B][31m', 1],
  ['tag characters', 'x\u{e0041}\u{e0042}', 'x[U+E0041][U+E0042]', 'x[U+E0041][U+E0042]', 2],
  ['newlines and tabs are text', 'a\n\tb', 'a\n\tb', 'a\n\tb', 0],
  ['an emoji with its selector', '❤️ ok', '❤️ ok', '❤️ ok', 0],
];

describe('text for people and text for models', () => {
  for (const [name, raw, people, model, hidden] of CASES) {
    it(name, () => {
      assert.equal(forPeople(raw), people);
      assert.equal(sanitize(raw).text, model);
      assert.equal(hiddenCount(raw), hidden);
    });
  }

  it('is bounded: a long text is cut with an ellipsis', () => {
    assert.equal(forPeople('x'.repeat(10), 4), 'xxxx…');
  });

  // Plain ASCII is shown without walking it a character at a time; one character past ASCII
  // sends the same text through the walk, which must agree with the shortcut.
  it('shows plain ASCII text as the character-by-character walk does', () => {
    let seed = 23;
    const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const alphabet = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('') + '\n\t';
    for (let i = 0; i < 2_000; i++) {
      const raw = Array.from({ length: next(40) }, () => alphabet[next(alphabet.length)]).join('');
      const walked = `${raw}é`;
      assert.equal(`${forPeople(raw)}é`, forPeople(walked), JSON.stringify(raw));
      assert.equal(`${sanitize(raw).text}é`, sanitize(walked).text, JSON.stringify(raw));
      assert.equal(hiddenCount(raw), 0);
      if (raw.length === 0) continue;
      // A cap below the text's length, so the walk stops before the character past ASCII.
      const cap = next(raw.length);
      assert.equal(forPeople(raw, cap), forPeople(walked, cap), `${JSON.stringify(raw)} cut at ${cap}`);
      assert.deepEqual(sanitize(raw, cap), sanitize(walked, cap), `${JSON.stringify(raw)} cut at ${cap}`);
    }
  });
});
