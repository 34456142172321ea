import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sanitize } from '../../src/untrusted/index.ts';

const clean = (s: string, max?: number) => sanitize(s, max).text;

void test('newline and tab pass; CR and CRLF become LF', () => {
  assert.equal(clean('a\nb\tc'), 'a\nb\tc');
  assert.equal(clean('a\r\nb\rc\r'), 'a\nb\nc\n');
});

void test('every C0 and C1 control except newline and tab is shown', () => {
  for (let cp = 0; cp <= 0x9f; cp++) {
    if (cp >= 0x20 && cp < 0x7f) continue;
    if (cp === 0x0a || cp === 0x09 || cp === 0x0d) continue;
    const hex = cp.toString(16).toUpperCase().padStart(4, '0');
    assert.equal(clean(String.fromCodePoint(cp)), `[U+${hex}]`);
  }
});

void test('every Unicode tag character is shown, none passes', () => {
  for (let cp = 0xe0000; cp <= 0xe007f; cp++) {
    assert.equal(clean(String.fromCodePoint(cp)), `[U+${cp.toString(16).toUpperCase()}]`);
  }
});

void test('every variation selector is shown when not a single emoji presentation selector', () => {
  const selectors = [0x180b, 0x180c, 0x180d, 0x180f];
  for (let cp = 0xfe00; cp <= 0xfe0f; cp++) selectors.push(cp);
  for (let cp = 0xe0100; cp <= 0xe01ef; cp++) selectors.push(cp);
  for (const cp of selectors) {
    const s = String.fromCodePoint(cp);
    assert.equal(clean(`x${s}`), `x[U+${cp.toString(16).toUpperCase()}]`);
  }
});

void test('no character anywhere in Unicode survives if it is or folds to an angle bracket', () => {
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (!/[<>⟦⟧]/u.test(ch.normalize('NFKD'))) continue;
    assert.match(clean(ch), /^\[U\+[0-9A-F]{4,6}\]$/, `U+${cp.toString(16)}`);
  }
});

void test('odd spaces become U+0020; ideographic space included', () => {
  assert.equal(clean('a\u00a0b\u2000c\u2009d\u200ae\u3000f\u205fg'), 'a b c d e f g');
});

void test('escapes are never split by the cap', () => {
  assert.deepEqual(sanitize('ab<', 9), { text: 'ab', truncated: true });
  assert.deepEqual(sanitize('ab<', 10), { text: 'ab[U+003C]', truncated: false });
  assert.deepEqual(sanitize('\u{E0041}', 8), { text: '', truncated: true });
});

void test('a surrogate pair counts as one code point, a lone surrogate as its escape', () => {
  assert.deepEqual(sanitize('\u{1F600}\u{1F600}', 2), { text: '\u{1F600}\u{1F600}', truncated: false });
  assert.deepEqual(sanitize('\uD83D', 8), { text: '[U+D83D]', truncated: false });
});

void test('a joiner is never left dangling at a cut', () => {
  const family = '\u{1F469}\u200D\u{1F4BB}';
  assert.deepEqual(sanitize(family, 2), { text: '\u{1F469}', truncated: true });
  assert.deepEqual(sanitize(family, 3), { text: family, truncated: false });
});

void test('emoji sequences: one selector, one modifier, joiners only between pictographs', () => {
  assert.equal(clean('\u2764\uFE0F'), '\u2764\uFE0F');
  assert.equal(clean('\u2764\uFE0E'), '\u2764\uFE0E');
  assert.equal(clean('\u2764\uFE0E\u200D\u{1F525}'), '\u2764\uFE0E[U+200D]\u{1F525}');
  assert.equal(clean('\u2764\uFE0F\u200D\u{1F525}'), '\u2764\uFE0F\u200D\u{1F525}');
  assert.equal(
    clean('\u{1F469}\u{1F3FD}\u{1F3FD}\u200D\u{1F4BB}'),
    '\u{1F469}\u{1F3FD}\u{1F3FD}[U+200D]\u{1F4BB}',
  );
  assert.equal(clean('\u{1F469}\u{1F3FD}\uFE0F'), '\u{1F469}\u{1F3FD}[U+FE0F]');
  assert.equal(clean('\u{1F469}\u200D\u200D\u{1F4BB}'), '\u{1F469}[U+200D][U+200D]\u{1F4BB}');
  assert.equal(clean('\u{1F469}\u200D'), '\u{1F469}[U+200D]');
  assert.equal(clean('#\uFE0F\u20E3'), '#\uFE0F\u20E3');
  assert.equal(clean('1\u200D\u{1F4BB}'), '1[U+200D]\u{1F4BB}');
});

void test('what a member meant literally survives: ampersands, brackets, URLs, markdown', () => {
  const s = 'Tom & Jerry [link](https://example.org/?a=1&b=2) **bold** `x = y`, AT&T, C# & F#';
  assert.equal(clean(s), s);
  // Anything shaped like a character reference is shown, even when harmless: the rule
  // stays total instead of depending on a list of entity names.
  assert.equal(clean('AT&T; &lobrk; &nvlt;'), 'AT[U+0026]T; [U+0026]lobrk; [U+0026]nvlt;');
});

void test('a nonsensical cap is refused', () => {
  assert.throws(() => sanitize('x', -1), RangeError);
  assert.throws(() => sanitize('x', 0.5), RangeError);
  assert.deepEqual(sanitize('x', 0), { text: '', truncated: true });
  assert.deepEqual(sanitize('', 0), { text: '', truncated: false });
});

void test('a huge input is cut without walking all of it', () => {
  // A string-shaped object that counts how many positions the sanitizer reads.
  let reads = 0;
  const endless = {
    length: 2 ** 40,
    codePointAt: () => (reads++, 0x79),
    charCodeAt: () => (reads++, 0x79),
  } as unknown as string;
  const { text, truncated } = sanitize(endless, 100);
  assert.equal(text, 'y'.repeat(100));
  assert.ok(truncated);
  assert.ok(reads <= 101, `read ${reads} positions`);
});
