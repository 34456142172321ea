import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wordDiff } from '../../src/compat/text-diff.ts';

const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ');

describe('wordDiff', () => {
  const cases: [string, string, string, string][] = [
    ['a word replaced', 'a b c', 'a x c', 'a [-b-]{+x+} c'],
    ['a word added', 'a c', 'a b c', 'a {+b +}c'],
    ['a word removed', 'a b c', 'a c', 'a [-b -]c'],
    [
      'words replaced together: one change, not one per word',
      'a b c d e',
      'a x y d e',
      'a [-b c-]{+x y+} d e',
    ],
    ['nothing changed: the text as it is', words(100), words(100), words(100)],
    [
      'a sentence added to a long text: the words beside it, the rest cut',
      words(300),
      words(300).replace('w150 ', 'w150 One more sentence. '),
      '… w143 w144 w145 w146 w147 w148 w149 w150 {+One more sentence. +}w151 w152 w153 w154 w155 w156 w157 w158 …',
    ],
    [
      'added at the end',
      words(300),
      `${words(300)} END`,
      '… w292 w293 w294 w295 w296 w297 w298 w299{+ END+}',
    ],
    ['added at the start', words(300), `START ${words(300)}`, '{+START +}w0 w1 w2 w3 w4 w5 w6 w7 …'],
    [
      'a sentence added in a file too long for the whole table shows as that sentence',
      words(3000),
      words(3000).replace('w1500', 'w1500 NEW'),
      '… w1493 w1494 w1495 w1496 w1497 w1498 w1499 w1500 {+NEW +}w1501 w1502 w1503 w1504 w1505 w1506 w1507 w1508 …',
    ],
    [
      'two changes close together keep the words between them',
      words(40),
      words(40).replace('w10', 'X').replace('w20', 'Y'),
      'w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 [-w10-]{+X+} w11 w12 w13 w14 w15 w16 w17 w18 w19 [-w20-]{+Y+} w21 w22 w23 w24 w25 w26 w27 w28 …',
    ],
  ];
  for (const [name, before, after, shown] of cases)
    it(name, () => assert.equal(wordDiff(before, after), shown));

  it('texts too long to compare whole: a local change shows as in a short text, the shared start and end set aside', () => {
    // 300 words are 599 tokens: 358,801 cells, over a budget of 100,000.
    for (const [before, after] of [
      [words(300), words(300).replace('w150 ', 'w150 One more sentence. ')],
      [words(300), `${words(300)} END`],
      [words(300), `START ${words(300)}`],
      [words(300), words(300).replace('w100', 'X').replace('w200', 'Y')],
    ] as const)
      assert.equal(wordDiff(before, after, 100_000), wordDiff(before, after), after.slice(0, 40));
    assert.equal(wordDiff(words(300), words(300), 100_000), words(300));
    // Changes spread over the whole text leave nothing to set aside: the whole, replaced.
    const spread = words(300).replace('w0 ', 'A ').replace('w299', 'Z');
    assert.equal(wordDiff(words(300), spread, 100_000), `[-${words(300)}-]{+${spread}+}`);
  });
});
