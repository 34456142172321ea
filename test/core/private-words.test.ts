import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  evaluatePrivateWords,
  fingerprintsOf,
  namesOf,
  PASSAGE_WORDS,
  SEVERAL_AUTHORS,
  wordsOf,
} from '../../src/core/private-words.ts';

const PRIVATE =
  'I am leaving the company in March and have not told anyone at work yet, so please keep this between us for now.';
const SALT = 'pr_alice';

/** Whether `outgoing` shares a passage with `served`, by the module's own check. */
function carries(served: string, outgoing: string, salt = SALT): boolean {
  const held = fingerprintsOf(served, SALT).map((fingerprint) => ({ fingerprint, author: 'mallory' }));
  const verdict = evaluatePrivateWords(
    [{ field: 'question', fingerprints: fingerprintsOf(outgoing, salt) }],
    held,
    { own: 'alice', recipients: ['dave'] },
  );
  return !verdict.within;
}

void describe('wordsOf: what does not change a passage', () => {
  const rows: { case: string; text: string; words: string[] }[] = [
    { case: 'case and punctuation', text: 'Hello, World!', words: ['hello', 'world'] },
    { case: 'whitespace and line breaks', text: 'a\n\tb   c\r\nd', words: ['a', 'b', 'c', 'd'] },
    {
      case: 'zero-width and bidi characters',
      text: 'se\u200bcr\u202eet p\u2060lan',
      words: ['secret', 'plan'],
    },
    { case: 'full-width letters (NFKC)', text: 'ＳＥＣＲＥＴ plan', words: ['secret', 'plan'] },
    { case: 'ligatures (NFKC)', text: 'ﬁnance oﬃce', words: ['finance', 'office'] },
    { case: 'apostrophes join a word', text: "don't Don’t dont", words: ['dont', 'dont', 'dont'] },
    { case: 'tag characters', text: 'wo\u{E0041}rd', words: ['word'] },
    { case: 'accents are kept', text: 'Café crème', words: ['café', 'crème'] },
    { case: 'nothing but punctuation', text: '... !!! ???', words: [] },
  ];
  for (const r of rows) it(r.case, () => assert.deepEqual(wordsOf(r.text), r.words));
});

void describe('fingerprintsOf', () => {
  it(`has none for fewer than ${PASSAGE_WORDS} words, one per run of ${PASSAGE_WORDS} beyond`, () => {
    assert.equal(fingerprintsOf('one two three four five six seven eight nine ten eleven', SALT).length, 0);
    assert.equal(
      fingerprintsOf('one two three four five six seven eight nine ten eleven twelve', SALT).length,
      1,
    );
    assert.equal(wordsOf(PRIVATE).length - PASSAGE_WORDS + 1, fingerprintsOf(PRIVATE, SALT).length);
  });
  it('holds no text: 16 hex digits each, different for another principal', () => {
    const fps = fingerprintsOf(PRIVATE, SALT);
    for (const fp of fps) assert.match(fp, /^[0-9a-f]{16}$/);
    const other = new Set(fingerprintsOf(PRIVATE, 'pr_bob'));
    assert.equal(fps.filter((fp) => other.has(fp)).length, 0);
  });
});

void describe('evaluatePrivateWords: a passage of 12 words carried is caught, fewer is not', () => {
  const words = PRIVATE.split(' ');
  const rows: { case: string; outgoing: string; caught: boolean }[] = [
    { case: 'the whole text', outgoing: PRIVATE, caught: true },
    { case: 'exactly 12 words from the middle', outgoing: words.slice(5, 17).join(' '), caught: true },
    { case: '11 words from the middle', outgoing: words.slice(5, 16).join(' '), caught: false },
    {
      case: '12 words in other case, punctuation and spacing',
      outgoing: `FYI -- ${words.slice(3, 15).join('   ').toUpperCase()}!!! thoughts?`,
      caught: true,
    },
    {
      case: '12 words split across two sentences and lines',
      outgoing: `Dave, a question. ${words.slice(0, 6).join(' ')}.\n\n${words.slice(6, 12).join(' ')}. What do you think?`,
      caught: true,
    },
    {
      case: 'the agent’s own word every 6 words',
      outgoing: [
        ...words.slice(0, 6),
        'apparently',
        ...words.slice(6, 12),
        'apparently',
        ...words.slice(12, 18),
      ].join(' '),
      caught: false,
    },
    {
      case: 'a few common words',
      outgoing: 'Please keep this between us, I have not told anyone.',
      caught: false,
    },
    {
      case: 'unrelated text',
      outgoing: 'Would you review my draft on cache invalidation next week?',
      caught: false,
    },
  ];
  for (const r of rows) it(r.case, () => assert.equal(carries(PRIVATE, r.outgoing), r.caught));

  it('words of the recipient or of the principal themself do not count', () => {
    const held = fingerprintsOf(PRIVATE, SALT).map((fingerprint) => ({ fingerprint, author: 'dave' }));
    const out = [{ field: 'question', fingerprints: fingerprintsOf(PRIVATE, SALT) }];
    assert.equal(evaluatePrivateWords(out, held, { own: 'alice', recipients: ['dave'] }).within, true);
    assert.equal(evaluatePrivateWords(out, held, { own: 'dave', recipients: [] }).within, true);
    assert.equal(evaluatePrivateWords(out, held, { own: 'alice', recipients: [] }).within, false);
  });

  it('words several members wrote to the principal (a stock phrase) do not count', () => {
    const held = fingerprintsOf(PRIVATE, SALT).map((fingerprint) => ({
      fingerprint,
      author: SEVERAL_AUTHORS,
    }));
    const out = [{ field: 'question', fingerprints: fingerprintsOf(PRIVATE, SALT) }];
    assert.equal(evaluatePrivateWords(out, held, { own: 'alice', recipients: [] }).within, true);
  });

  it('names the authors, most words first, and the fields that carry them', () => {
    const a = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen';
    const b = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
    const held = [
      ...fingerprintsOf(a, SALT).map((fingerprint) => ({ fingerprint, author: 'mallory' })),
      ...fingerprintsOf(b, SALT).map((fingerprint) => ({ fingerprint, author: 'bob' })),
    ];
    const verdict = evaluatePrivateWords(
      [
        { field: 'headline', fingerprints: fingerprintsOf('nothing of theirs here at all', SALT) },
        { field: 'bio', fingerprints: fingerprintsOf(`${b} and ${a}`, SALT) },
      ],
      held,
      { own: 'alice', recipients: [] },
    );
    assert.equal(verdict.within, false);
    if (verdict.within) return;
    assert.equal(verdict.code, 'private_words');
    assert.deepEqual(verdict.authors, ['mallory', 'bob']);
    assert.deepEqual(verdict.fields, ['bio']);
    assert.match(verdict.reason, /@mallory and @bob wrote privately to your principal/);
  });

  it('namesOf says how many more', () => {
    assert.equal(namesOf(['a']), '@a');
    assert.equal(namesOf(['a', 'b', 'c', 'd']), '@a, @b and 2 others');
  });
});
