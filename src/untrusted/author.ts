import { visibleCodePoint } from '@warden-mcp/gate/text';

/** Handles are short; anything longer is cut so an odd row cannot flood a response. */
const MAX_AUTHOR_LENGTH = 64;
const HANDLE_CHAR = /^[\p{L}\p{N}_.-]$/u;
const HIDDEN = /[\p{Cf}\p{Cn}\p{Co}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Renders the store's author handle for the marker and the `author` field. A handle
 * is trusted for *who* wrote the text, not for its spelling, so only letters,
 * digits, `_`, `.` and `-` pass; anything else (spaces, brackets, `=`, invisible
 * letters such as U+3164) is shown as `[U+XXXX]` and cannot bend the marker. One
 * leading `@` is dropped because the marker adds its own.
 */
export function renderAuthor(author: string): string {
  const handle = author.startsWith('@') ? author.slice(1) : author;
  let out = '';
  let n = 0;
  for (const ch of handle) {
    if (n === MAX_AUTHOR_LENGTH) return `${out}…`;
    out += HANDLE_CHAR.test(ch) && !HIDDEN.test(ch) ? ch : visibleCodePoint(ch.codePointAt(0) as number);
    n++;
  }
  return out === '' ? visibleCodePoint(0x40) : out;
}
