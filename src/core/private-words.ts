import { createHash } from 'node:crypto';
import type { TermsVerdict } from './terms.ts';

/**
 * Private words do not travel: text another member wrote privately to a principal (a
 * question in their inbox, an answer to their consultation) is remembered as
 * fingerprints when it is served to the principal's agents, and text an agent sends out
 * is checked against them. A passage of PASSAGE_WORDS consecutive words carried from
 * one to the other makes the act the principal's decision.
 *
 * Fingerprints, not copies: a fingerprint is 64 bits of SHA-256 over one run of
 * PASSAGE_WORDS normalised words, salted with the principal's id, so the store holds no
 * text, and one principal's fingerprints say nothing about another's. Pure: no I/O.
 */

/** The threshold: any run of this many consecutive words, carried out, is caught. */
export const PASSAGE_WORDS = 12;

/**
 * What the store keeps per principal: at most `maxPerPrincipal` fingerprints, none served
 * longer ago than `maxAgeMs`. Over the count, the author holding the most fingerprints
 * loses their least recently served first, so a member who floods an inbox evicts only
 * their own words.
 */
export interface PrivateWordsRetention {
  maxPerPrincipal: number;
  maxAgeMs: number;
}

export const PRIVATE_WORDS_RETENTION: PrivateWordsRetention = {
  maxPerPrincipal: 10_000,
  maxAgeMs: 30 * 24 * 3600 * 1000,
};

/** Format and invisible characters (zero-width, bidi, tags, variation selectors, soft hyphen): removed. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** Apostrophes join a word ("don't" and "dont" are one word). */
const APOSTROPHE = /['’ʼ`´]/gu;
/** A word: letters, digits and their marks. Everything else (punctuation, spaces, controls) separates. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * The words of a text as the check sees them: Unicode NFKC (full-width and ligature
 * forms fold to plain letters), invisible characters removed, lower case, apostrophes
 * dropped, split on anything that is not a letter, digit or mark. So case, punctuation,
 * whitespace, line breaks and hidden characters do not change a passage.
 */
export function wordsOf(text: string): string[] {
  const folded = text.normalize('NFKC').replace(INVISIBLE, '').toLowerCase().replace(APOSTROPHE, '');
  return folded.match(WORD) ?? [];
}

/** One run's fingerprint: 16 hex digits of SHA-256(salt, NUL, the run's words joined by spaces). */
function fingerprintOf(salt: string, run: readonly string[]): string {
  return createHash('sha256').update(salt).update('\0').update(run.join(' ')).digest('hex').slice(0, 16);
}

/**
 * The fingerprints of every run of PASSAGE_WORDS consecutive words of `text`, distinct,
 * salted with `salt` (the principal's id). A text shorter than PASSAGE_WORDS words has
 * none: it holds no substantial passage.
 */
export function fingerprintsOf(text: string, salt: string): string[] {
  const words = wordsOf(text);
  const out = new Set<string>();
  for (let i = 0; i + PASSAGE_WORDS <= words.length; i++)
    out.add(fingerprintOf(salt, words.slice(i, i + PASSAGE_WORDS)));
  return [...out];
}

/**
 * The author the store gives a fingerprint that two or more members served to the principal:
 * a stock phrase ("let me know if you have any questions or if anything is unclear"),
 * not one member's private words. No handle is empty.
 */
export const SEVERAL_AUTHORS = '';

/** A fingerprint the store holds for the principal, with who wrote the words it came from. */
export interface HeldFingerprint {
  fingerprint: string;
  author: string;
}

/** One argument of an outgoing call and its fingerprints (from fingerprintsOf). */
export interface OutgoingText {
  field: string;
  fingerprints: readonly string[];
}

export type PrivateWordsVerdict =
  { within: true } | (Extract<TermsVerdict, { within: false }> & { authors: string[]; fields: string[] });

/**
 * Whether outgoing text may go without the principal: not when any of its passages is
 * one the principal was served privately by another member. Words by whoever the text
 * is addressed to (`recipients`: quoting someone's question back to them) and by the
 * principal themself (`own`) do not count, nor words several members wrote to the
 * principal (SEVERAL_AUTHORS: a common phrase is no one's secret). The verdict names the authors, most words
 * first, for the principal to read.
 */
export function evaluatePrivateWords(
  outgoing: readonly OutgoingText[],
  held: readonly HeldFingerprint[],
  parties: { own: string; recipients: readonly string[] },
): PrivateWordsVerdict {
  const authorOf = new Map<string, string>();
  for (const h of held) {
    if (h.author === SEVERAL_AUTHORS || h.author === parties.own || parties.recipients.includes(h.author))
      continue;
    authorOf.set(h.fingerprint, h.author);
  }
  if (authorOf.size === 0) return { within: true };
  const runs = new Map<string, number>();
  const fields: string[] = [];
  for (const o of outgoing) {
    let carried = false;
    for (const fp of o.fingerprints) {
      const author = authorOf.get(fp);
      if (author === undefined) continue;
      runs.set(author, (runs.get(author) ?? 0) + 1);
      carried = true;
    }
    if (carried) fields.push(o.field);
  }
  if (runs.size === 0) return { within: true };
  const authors = [...runs.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([a]) => a);
  return {
    within: false,
    code: 'private_words',
    reason: `Your text (${fields.join(', ')}) carries a passage of ${PASSAGE_WORDS} or more words that ${namesOf(authors)} wrote privately to your principal. Words another member wrote to your principal go no further without your principal.`,
    authors,
    fields,
  };
}

/** "@a", "@a and @b", "@a, @b and 2 others". */
export function namesOf(authors: readonly string[]): string {
  const named = authors.slice(0, 2).map((a) => `@${a}`);
  const rest = authors.length - named.length;
  if (rest > 0) return `${named.join(', ')} and ${rest} other${rest === 1 ? '' : 's'}`;
  return named.join(' and ');
}
