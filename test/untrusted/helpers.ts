// Independent checkers for the wrapper's properties. They restate the rules from the
// outside (not by calling the sanitizer's internals), so a bug in one is not hidden by
// the same bug in the other.
import assert from 'node:assert/strict';
import { TRUNCATION_MARKER, type UntrustedText } from '../../src/untrusted/index.ts';

/** Everything that must never reach a reader raw (newline and tab are the only exceptions). */
const HIDDEN =
  /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Variation_Selector}]/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const EMOJI = /\p{Emoji}/u;
const EMOJI_MODIFIER = /\p{Emoji_Modifier}/u;
const FOLDS_TO_DELIMITER = /[<>⟦⟧〚〛]/u;

export function codePoints(s: string): string[] {
  return [...s];
}

export function count(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) n++;
  return n;
}

/** Combining marks one character keeps; the rest of a run is shown as a count. */
export const MARKS_KEPT = 4;
/** A combining mark that is passed through (an invisible one is shown, and ends a run). */
const PASSING_MARK = /^(?![\p{Default_Ignorable_Code_Point}\p{Variation_Selector}])\p{M}$/u;

/**
 * Undoes the `[U+XXXX]` notation, to compare what a reader sees with what was written; a
 * count of marks past the cap (`[+75 combining marks]`) stands for marks no longer there.
 */
export function decodeVisible(s: string): string {
  return s
    .replace(/\[\+\d+ combining marks?\]/g, '')
    .replace(/\[U\+([0-9A-F]{4,6})\]/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)));
}

/**
 * What the sanitizer is allowed to change without escaping: line ends, odd spaces, and
 * combining marks past the cap on one character.
 */
export function normaliseWritten(s: string): string {
  let out = '';
  let run = 0;
  for (const ch of s.replace(/\r\n?/g, '\n').replace(/(?! )\p{Zs}/gu, ' ')) {
    run = PASSING_MARK.test(ch) ? run + 1 : 0;
    if (run <= MARKS_KEPT) out += ch;
  }
  return out;
}

/** The longest run of passed-through combining marks on one character. */
export function longestMarkRun(s: string): number {
  let run = 0;
  let longest = 0;
  for (const ch of s) {
    run = PASSING_MARK.test(ch) ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** True if some spelling of `boundary` survives a reader folding width, case and spacing. */
export function foldedContains(text: string, boundary: string): boolean {
  const letters = new Set(boundary);
  let folded = '';
  for (const ch of text) {
    for (const c of ch.normalize('NFKD').toLowerCase()) if (letters.has(c)) folded += c;
  }
  return folded.includes(boundary);
}

/** Splits a wrapped text into its parts, asserting the exact marker layout. */
export function parseWrapped(out: UntrustedText, boundary: string): { payload: string } {
  const open = `⟦member-text ${boundary} author=@${out.author}⟧`;
  const close = `⟦/member-text ${boundary}⟧`;
  assert.ok(out.text.startsWith(open), 'starts with the opening marker');
  assert.ok(out.text.endsWith(close), 'ends with the closing marker');
  let payload = out.text.slice(open.length, out.text.length - close.length);
  if (out.truncated) {
    assert.ok(payload.endsWith(TRUNCATION_MARKER), 'a cut payload ends with the marker');
    payload = payload.slice(0, payload.length - TRUNCATION_MARKER.length);
  }
  assert.ok(!payload.includes(TRUNCATION_MARKER), 'no truncation marker inside the payload');
  return { payload };
}

/**
 * The payload rules: no `<`/`>` or anything folding to them or to the marker
 * brackets; no hidden or control character except newline, tab, a joiner inside an
 * emoji sequence, and one presentation selector right after an emoji; no CR; no odd
 * spaces.
 */
export function assertSafePayload(payload: string): void {
  const cps = codePoints(payload);
  cps.forEach((ch, i) => {
    const at = `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase()} at ${i}`;
    assert.ok(!FOLDS_TO_DELIMITER.test(ch.normalize('NFKD')), `delimiter-like ${at}`);
    assert.ok(ch !== '\r', `carriage return ${at}`);
    assert.ok(ch === ' ' || !/\p{Zs}/u.test(ch), `odd space ${at}`);
    if (ch === '\n' || ch === '\t' || !HIDDEN.test(ch)) return;
    const prev = cps[i - 1] ?? '';
    const next = cps[i + 1] ?? '';
    if (ch === '\u200d') {
      const base = EMOJI_MODIFIER.test(prev) || prev === '\ufe0f' ? (cps[i - 2] ?? '') : prev;
      assert.ok(PICTOGRAPHIC.test(base) && PICTOGRAPHIC.test(next), `stray joiner ${at}`);
    } else if (ch === '\ufe0f' || ch === '\ufe0e') {
      assert.ok(EMOJI.test(prev) && !EMOJI_MODIFIER.test(prev), `stray selector ${at}`);
    } else {
      assert.fail(`hidden character ${at}`);
    }
  });
}

/** Every property a wrapped result must have, whatever the input. */
export function assertWrapperProperties(
  out: UntrustedText,
  boundary: string,
  author: string,
  maxLength: number,
): string {
  assert.equal(out.untrusted, 'member-text');
  assert.equal(out.author, author);
  const { payload } = parseWrapped(out, boundary);
  assert.equal(count(out.text, boundary), 2, 'the boundary appears only in the two markers');
  assert.ok(!foldedContains(payload, boundary), 'no folded spelling of the boundary in the payload');
  assert.ok(codePoints(payload).length <= maxLength, 'payload within the cap');
  assertSafePayload(payload);
  return payload;
}
