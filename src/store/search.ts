/**
 * Search terms: what makes a principal findable by `query`. A principal's terms are
 * the lower-cased words of their handle, display name and headline; a query matches
 * when each of its words is the start of one of those terms. Prefix ranges on a
 * B-tree index serve that identically on SQLite and PostgreSQL, at any club size.
 */

const MAX_TERM_LENGTH = 32;
const MAX_TERMS = 48;
/** Query words beyond this are ignored: each costs one index range. */
const MAX_QUERY_WORDS = 4;

/** Lower-cased, compatibility-normalised words (letters and digits), each cut at 32 code points. */
function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => [...w].slice(0, MAX_TERM_LENGTH).join(''));
}

/** The distinct terms a principal is found by. */
export function termsOf(p: { handle: string; displayName: string; headline: string }): string[] {
  const all = [...words(p.handle), ...words(p.displayName), ...words(p.headline)];
  return [...new Set(all)].slice(0, MAX_TERMS);
}

/** A query as prefix ranges [low, high): one per distinct word, at most MAX_QUERY_WORDS. */
export function queryRanges(query: string): { low: string; high: string }[] {
  return [...new Set(words(query))].slice(0, MAX_QUERY_WORDS).map((w) => ({ low: w, high: successor(w) }));
}

/** The smallest string greater than every string starting with w (code point order = UTF-8 byte order). */
function successor(w: string): string {
  const cps = [...w];
  const last = cps.pop()!.codePointAt(0)!;
  let next = last + 1;
  if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
  return cps.join('') + String.fromCodePoint(Math.min(next, 0x10ffff));
}
