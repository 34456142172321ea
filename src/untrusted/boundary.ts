import { randomBytes } from 'node:crypto';
import { visibleCodePoint } from '@warden-mcp/gate/text';

/**
 * Sixteen lower-case letters, one per hex nibble. None of them is `u` or a hex
 * digit (a–f, 0–9), so the `[U+XXXX]` escape can never contribute a boundary
 * character: escaping one character of a would-be occurrence always destroys it.
 * No i/l/o, so the boundary also reads unambiguously.
 */
export const BOUNDARY_ALPHABET = 'ghjkmnpqrstvwxyz';

/** 16 random bytes: 128 bits, well above the 96 the wrapper needs. */
const BOUNDARY_BYTES = 16;

/**
 * A fresh random boundary for one response. Text written earlier cannot contain it
 * except by a 2^-128 accident, so a closing marker inside member text cannot match.
 */
export function newBoundary(): string {
  let out = '';
  for (const byte of randomBytes(BOUNDARY_BYTES)) {
    out += (BOUNDARY_ALPHABET[byte >> 4] as string) + (BOUNDARY_ALPHABET[byte & 15] as string);
  }
  return out;
}

/** True if `s` is shaped like a boundary this module issues. */
export function isBoundary(s: string): boolean {
  return s.length === BOUNDARY_BYTES * 2 && [...s].every((c) => BOUNDARY_ALPHABET.includes(c));
}

/**
 * Makes sure `text` holds no spelling of `boundary`, not even one a reader might
 * fold back into it: matching is done on a view where every character is NFKD-folded
 * and lower-cased and everything outside the boundary alphabet (spaces, dashes,
 * combining marks, escapes…) is skipped. The first character of each occurrence is
 * shown as `[U+XXXX]` instead. Each pass removes at least one alphabet letter and
 * adds none, so the loop ends.
 */
export function escapeBoundary(text: string, boundary: string): string {
  for (;;) {
    const hits = foldedOccurrences(text, boundary);
    if (hits.length === 0) return text;
    let out = '';
    let from = 0;
    for (const at of hits) {
      const cp = text.codePointAt(at) as number;
      out += text.slice(from, at) + visibleCodePoint(cp);
      from = at + String.fromCodePoint(cp).length;
    }
    text = out + text.slice(from);
  }
}

/** Code-unit offsets of the source characters where folded occurrences of `boundary` start. */
function foldedOccurrences(text: string, boundary: string): number[] {
  let folded = '';
  const source: number[] = [];
  for (let i = 0; i < text.length;) {
    const ch = String.fromCodePoint(text.codePointAt(i) as number);
    for (const c of ch.normalize('NFKD').toLowerCase()) {
      if (BOUNDARY_ALPHABET.includes(c)) {
        folded += c;
        source.push(i);
      }
    }
    i += ch.length;
  }
  const starts = new Set<number>();
  for (let k = folded.indexOf(boundary); k >= 0; k = folded.indexOf(boundary, k + boundary.length)) {
    starts.add(source[k] as number);
  }
  return [...starts].sort((a, b) => a - b);
}
