import { visibleCodePoint } from '@warden-mcp/gate/text';

/**
 * Everything a reader may take as the end of a line: LF, CR, vertical tab, form feed,
 * NEL (U+0085), and the Unicode line and paragraph separators (U+2028, U+2029). These are
 * the mandatory breaks of Unicode's line-breaking rules (UAX #14 classes BK, CR, LF, NL).
 */
const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/u;

/** Why a single-line field was refused, in words for the person or the agent who wrote it. */
export interface SingleLineProblem {
  reason: string;
  next: string;
}

/**
 * Checks a field that people read on one line (a display name, a headline): such text is
 * refused at input if it holds a line break, rather than shown broken later. A name set on
 * two lines would push the rows of a page or a terminal apart and could make a second line
 * look like another field. Pure, and the one rule for such fields: the `update_profile` tool
 * and the console both ask it. `field` names the field in the reason ("A display name").
 * The text itself is never repeated, only where the break is.
 */
export function singleLineProblem(raw: string, field: string): SingleLineProblem | null {
  const m = LINE_BREAK.exec(raw);
  if (m === null) return null;
  const at = [...raw.slice(0, m.index)].length + 1;
  return {
    reason: `${field} is a single line, and this one holds a line break (${visibleCodePoint(m[0].codePointAt(0) as number)}) at character ${at}. Nothing was written.`,
    next: 'Write it on one line (a space instead of the break), then send it again.',
  };
}
