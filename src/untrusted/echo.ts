import { sanitize, visibleCodePoint } from '@warden-mcp/gate/text';

/** Longest caller string an error message repeats, in code points of sanitised text. */
export const ECHO_MAX_LENGTH = 64;

/** What member text keeps (line breaks, tabs) and an echo shows: a name or an id is one line. */
const LINE_BREAKS = /([\t\n\r])/;

/**
 * A caller's own string (a tool name, an id, an argument's name) repeated in an error or
 * refusal message. The caller chose it, so it is made safe as member text is (controls,
 * escape sequences, bidi and invisible characters and markup made visible, by the same
 * sanitiser), its line breaks and tabs shown too, and it is cut short with "…": an error
 * cannot be provoked into carrying a payload, or a line of its own, back to a model or a log.
 */
export function echo(raw: string, maxLength: number = ECHO_MAX_LENGTH): string {
  let out = '';
  let left = maxLength;
  for (const part of raw.split(LINE_BREAKS)) {
    if (LINE_BREAKS.test(part) && part.length === 1) {
      const shown = visibleCodePoint(part.charCodeAt(0));
      if (shown.length > left) return `${out}…`;
      out += shown;
      left -= shown.length;
      continue;
    }
    const { text, truncated } = sanitize(part, left);
    out += text;
    if (truncated) return `${out}…`;
    left -= [...text].length;
  }
  return out;
}
