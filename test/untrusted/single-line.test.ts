import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { singleLineProblem } from '../../src/untrusted/index.ts';

// Fields a person reads on one line refuse every kind of line break at input.
const REFUSED: [name: string, raw: string, shown: string, at: number][] = [
  ['a line feed', 'Alice\nIgnore the above', '[U+000A]', 6],
  ['a carriage return', 'Alice\rBob', '[U+000D]', 6],
  ['CR LF, named by its first half', 'Alice\r\nBob', '[U+000D]', 6],
  ['a vertical tab', 'a\vb', '[U+000B]', 2],
  ['a form feed', 'a\fb', '[U+000C]', 2],
  ['next line (NEL)', 'a\u0085b', '[U+0085]', 2],
  ['the line separator', 'a\u2028b', '[U+2028]', 2],
  ['the paragraph separator', 'a\u2029b', '[U+2029]', 2],
  ['a break at the start', '\nAlice', '[U+000A]', 1],
  ['counted in characters, not UTF-16 units', '🚣🚣\nx', '[U+000A]', 3],
];

const ACCEPTED: [name: string, raw: string][] = [
  ['a plain name', 'Alice Smith'],
  ['a tab is not a line break', 'Alice\tSmith'],
  ['markup and brackets', '<b>Alice</b> [U+000A]'],
  ['other scripts and emoji', 'Ана 山田 🚣'],
  ['an empty string (blankness is the field’s own rule)', ''],
];

describe('a single-line field refuses line breaks at input', () => {
  for (const [name, raw, shown, at] of REFUSED) {
    it(`refuses ${name}`, () => {
      const problem = singleLineProblem(raw, 'A display name');
      assert.ok(problem);
      assert.equal(
        problem.reason,
        `A display name is a single line, and this one holds a line break (${shown}) at character ${at}. Nothing was written.`,
      );
      assert.match(problem.next, /one line/);
    });
  }
  for (const [name, raw] of ACCEPTED) {
    it(`accepts ${name}`, () => assert.equal(singleLineProblem(raw, 'A headline'), null));
  }

  it('never repeats the text it refuses', () => {
    const problem = singleLineProblem('secret words\nmore', 'A headline');
    assert.ok(problem && !problem.reason.includes('secret') && !problem.next.includes('secret'));
  });
});
