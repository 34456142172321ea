import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_COMBINING_MARKS, forPeople, hiddenCount, sanitize } from '../../src/text/index.ts';

const ACUTE = '\u0301';
const zalgo = (n: number) => `Z${ACUTE.repeat(n)}`;
const kept = ACUTE.repeat(MAX_COMBINING_MARKS);

// Runs of combining marks, one rule for both readers: a person and a model see the same cap.
const CASES: [name: string, raw: string, people: string, model: string][] = [
  ['one accent', 'café', 'café', 'café'],
  ['Vietnamese, decomposed (two marks)', 'Vie\u0323\u0302t', 'Vie\u0323\u0302t', 'Vie\u0323\u0302t'],
  ['Hindi vowel sign and nasal mark', 'है\u0902', 'है\u0902', 'है\u0902'],
  [
    'Hebrew with points and cantillation (four)',
    'ב\u05bc\u05b0\u05a5\u05bd',
    'ב\u05bc\u05b0\u05a5\u05bd',
    'ב\u05bc\u05b0\u05a5\u05bd',
  ],
  ['a keycap emoji', '1\ufe0f\u20e3', '1\ufe0f\u20e3', '1\ufe0f\u20e3'],
  ['exactly the cap', zalgo(MAX_COMBINING_MARKS), zalgo(MAX_COMBINING_MARKS), zalgo(MAX_COMBINING_MARKS)],
  [
    'one past the cap',
    `${zalgo(MAX_COMBINING_MARKS + 1)}!`,
    `Z${kept}[+1 combining mark]!`,
    `Z${kept}[+1 combining mark]!`,
  ],
  [
    'a letter and 79 accents',
    `${zalgo(79)} Smith`,
    `Z${kept}[+75 combining marks] Smith`,
    `Z${kept}[+75 combining marks] Smith`,
  ],
  [
    'the cap is per character',
    `${zalgo(6)}${zalgo(6)}`,
    `Z${kept}[+2 combining marks]`.repeat(2),
    `Z${kept}[+2 combining marks]`.repeat(2),
  ],
  ['marks at the very start', ACUTE.repeat(6), `${kept}[+2 combining marks]`, `${kept}[+2 combining marks]`],
  [
    'a mark shown as [U+XXXX] ends the run: what follows draws on its bracket',
    `${zalgo(4)}\u034f${ACUTE.repeat(5)}`,
    `Z${kept}[U+034F]${kept}[+1 combining mark]`,
    `Z${kept}[U+034F]${kept}[+1 combining mark]`,
  ],
  [
    'a written count is escaped for a model, as written for a person',
    'Ann [+3 combining marks]',
    'Ann [+3 combining marks]',
    'Ann [U+005B]+3 combining marks]',
  ],
  ['a bracket and a plus without a digit is left alone', 'a [+x] b', 'a [+x] b', 'a [+x] b'],
];

describe('runs of combining marks are capped for people and for models', () => {
  for (const [name, raw, people, model] of CASES) {
    it(name, () => {
      assert.equal(forPeople(raw), people);
      assert.equal(sanitize(raw).text, model);
      assert.equal(sanitize(raw).truncated, false);
    });
  }

  it('dropped marks are not hidden characters: they are counted where they were', () => {
    assert.equal(hiddenCount(zalgo(79)), 0);
  });

  it('the count is part of the length cap, and a cut never leaves half of it', () => {
    const raw = `${zalgo(79)}abc`;
    const full = sanitize(raw).text;
    for (let cap = 0; cap <= [...full].length; cap++) {
      const { text, truncated } = sanitize(raw, cap);
      assert.ok([...text].length <= cap, `cap ${cap}`);
      assert.ok(full.startsWith(text), `cap ${cap}: a prefix of the whole`);
      const open = text.lastIndexOf('[+');
      assert.ok(open < 0 || text.indexOf(']', open) > open, `cap ${cap}: ${text}`);
      assert.equal(truncated, cap < [...full].length);
    }
  });

  it('a huge run is counted in bounded chunks, never walked far past the cap', () => {
    let reads = 0;
    const endless = {
      length: 2 ** 40,
      codePointAt: (i: number) => (reads++, i === 0 ? 0x5a : 0x301),
      charCodeAt: (i: number) => (reads++, i === 0 ? 0x5a : 0x301),
    } as unknown as string;
    const { text, truncated } = sanitize(endless, 60);
    assert.ok(truncated);
    assert.equal(text, `Z${kept}[+999 combining marks][+999 combining marks]`);
    assert.ok(reads < 5000, `read ${reads} positions`);
  });

  it('a long run reads as counts, each of at most 999', () => {
    assert.equal(
      forPeople(zalgo(2004)),
      `Z${kept}[+999 combining marks][+999 combining marks][+2 combining marks]`,
    );
  });
});
