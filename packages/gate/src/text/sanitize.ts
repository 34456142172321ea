import { visibleCodePoint } from './visible.ts';

/** Default cap on a wrapped payload, in code points of sanitized output. */
export const DEFAULT_MAX_LENGTH = 4000;

/**
 * Characters a reader cannot see or that steer how text is displayed or parsed:
 * controls (C0, DEL, C1 — ESC among them, so no ANSI/OSC sequence survives),
 * format characters (bidi overrides/isolates/marks, zero-width space/joiners, BOM,
 * soft hyphen, Unicode tag characters), private-use, unassigned (incl.
 * noncharacters), lone surrogates, line/paragraph separators, and every
 * default-ignorable code point (variation selectors, Hangul fillers, CGJ, …).
 */
const HIDDEN =
  /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Variation_Selector}]/u;
/** Spaces other than U+0020 look like a space; they become one (no whitespace steganography). */
const OTHER_SPACE = /\p{Zs}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const EMOJI = /\p{Emoji}/u;
const EMOJI_MODIFIER = /\p{Emoji_Modifier}/u;
/** Wrapper brackets (and a look-alike pair) plus angle brackets, checked after NFKD folding. */
const DELIMITER = /[<>⟦⟧〚〛]/u;
/** `&` that starts something an HTML decoder would turn into a character (`&lt;`, `&#x3c;`, `&gt`). */
const ENTITY_START = /&(?:#|[a-z][a-z0-9]*;|lt|gt)/iy;
/**
 * `[U+` (or `[+` and a digit) in the input would look like one of our own escapes or mark
 * counts; escaping its `[` keeps the notation unambiguous.
 */
const ESCAPE_LOOKALIKE = /\[(?:[uU]\+|\+\d)/y;
/** A combining mark (accents, vowel signs, enclosing marks): it draws on the character before it. */
const MARK = /\p{M}/u;
/**
 * Text every character of which is shown as written, whoever reads it: printable ASCII,
 * newlines and tabs (for a model, less the `<`, `>`, `&` and `[` it may escape). Most text
 * is such; it is cut, if need be, without being walked a character at a time.
 */
const AS_WRITTEN_FOR_PEOPLE = /^[\t\n\x20-\x7e]*$/;
const AS_WRITTEN_FOR_MODELS = /^[\t\n\x20-\x25\x27-\x3b\x3d\x3f-\x5a\x5c-\x7e]*$/;

/**
 * Combining marks kept on one character; the rest of a run is counted instead. Written text
 * stacks few: Vietnamese two, Thai and Arabic two or three, Devanagari three, Hebrew with
 * cantillation and Tibetan stacks four. Past that a run is "Zalgo": it draws a line out of
 * its place across whatever is above and below, on a page as in a terminal.
 */
export const MAX_COMBINING_MARKS = 4;
/**
 * Marks one count stands for at most, so a long run reads only this far ahead before its
 * count is written and a cut can fall after it: the input is never walked far past the cap.
 */
const MARK_COUNT_CHUNK = 999;

const ZWJ = 0x200d;
const TEXT_VS = 0xfe0e;
const EMOJI_VS = 0xfe0f;

/**
 * Text nobody controls, shown to a model or to a person. Turns member-written text into something safe to quote to a model: hidden and
 * control characters become visible `[U+XXXX]`, anything that is or folds (NFKD) to
 * `<`, `>` or a wrapper bracket is escaped the same way, CR/CRLF become LF, other
 * spaces become U+0020, a run of combining marks keeps `MAX_COMBINING_MARKS` and
 * counts the rest (`[+75 combining marks]`), and the result is capped at `maxLength` code points.
 * Everything else — including any prompt-injection prose — passes through
 * unchanged: the wrapper, not this function, is what marks it as data. Pure; used
 * by the wrapper, and exposed for tests and the console.
 */
export function sanitize(
  raw: string,
  maxLength: number = DEFAULT_MAX_LENGTH,
): { text: string; truncated: boolean } {
  const { text, truncated } = rendered(raw, maxLength, true);
  return { text, truncated };
}

/**
 * The same text for a person (a terminal, a CI log, a review): every hidden, control and bidi
 * character made visible and runs of combining marks capped by the same rules, but markup
 * characters (`<`, `&`, `[U+`) left as written; the output format (Markdown, SARIF, XML)
 * escapes them for its own syntax.
 */
export function forPeople(raw: string, maxLength: number = DEFAULT_MAX_LENGTH): string {
  const { text, truncated } = rendered(raw, maxLength, false);
  return truncated ? `${text}…` : text;
}

/** How many characters of the text a reader could not see (what `forPeople` makes visible). */
export function hiddenCount(raw: string): number {
  return rendered(raw, Number.MAX_SAFE_INTEGER, false).hidden;
}

function rendered(
  raw: string,
  maxLength: number,
  markup: boolean,
): { text: string; truncated: boolean; hidden: number } {
  if (!Number.isSafeInteger(maxLength) || maxLength < 0) {
    throw new RangeError('sanitize: maxLength must be a non-negative integer');
  }
  if ((markup ? AS_WRITTEN_FOR_MODELS : AS_WRITTEN_FOR_PEOPLE).test(raw)) {
    // One code unit, one code point, shown as itself: what the walk below would give.
    return raw.length <= maxLength
      ? { text: raw, truncated: false, hidden: 0 }
      : { text: raw.slice(0, maxLength), truncated: true, hidden: 0 };
  }
  let out = '';
  let used = 0;
  let emoji: EmojiState = 'none';
  let hidden = 0;
  /** Marks passed through on the current character, and marks past the cap not yet counted out. */
  let marks = 0;
  let dropped = 0;
  /** Writes the count of the marks dropped so far; false when it does not fit under the cap. */
  const countDropped = (): boolean => {
    const token = markCount(dropped);
    const cost = countCodePoints(token);
    if (used + cost > maxLength) return false;
    out += token;
    used += cost;
    dropped = 0;
    return true;
  };

  for (let i = 0; i < raw.length;) {
    const cp = raw.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    const step = render(raw, i, cp, ch, emoji, markup);
    const isMark = step.token === ch && MARK.test(ch) && !HIDDEN.test(ch);
    if (isMark && marks >= MAX_COMBINING_MARKS) {
      dropped++;
      i += ch.length;
      if (dropped === MARK_COUNT_CHUNK && !countDropped()) return { text: out, truncated: true, hidden };
      continue;
    }
    if (dropped > 0 && !countDropped()) return { text: out, truncated: true, hidden };
    if (step.token === ZWJ_CHAR && used + 2 > maxLength) {
      // A joiner is emitted only with the pictograph after it, so none dangles at a cut.
      return { text: out, truncated: true, hidden };
    }
    const cost = countCodePoints(step.token);
    if (used + cost > maxLength) return { text: out, truncated: true, hidden };
    if (cp !== 0x0d && HIDDEN.test(ch) && step.token !== ch) hidden++;
    out += step.token;
    used += cost;
    emoji = step.emoji;
    marks = isMark ? marks + 1 : 0;
    i += ch.length;
  }
  if (dropped > 0 && !countDropped()) return { text: out, truncated: true, hidden };
  return { text: out, truncated: false, hidden };
}

/** What a run of combining marks past the cap is shown as: how many there were, never the marks. */
function markCount(n: number): string {
  return `[+${n} combining mark${n === 1 ? '' : 's'}]`;
}

/**
 * Where the output stands inside an emoji: `letter` after an emoji-capable
 * character that may take one presentation selector (`1` → `1️⃣`), `pictograph`
 * after a pictograph that may also take a skin-tone modifier or a joiner, `tail`
 * after that modifier or selector (a joiner may still follow).
 */
type EmojiState = 'none' | 'letter' | 'pictograph' | 'tail';

const ZWJ_CHAR = '\u200d';

/** How one code point is shown, and the emoji state after it. */
function render(
  raw: string,
  i: number,
  cp: number,
  ch: string,
  emoji: EmojiState,
  markup: boolean,
): { token: string; emoji: EmojiState } {
  const shown = (token: string) => ({ token, emoji: 'none' as const });
  if (cp === 0x0d) return shown(raw.charCodeAt(i + 1) === 0x0a ? '' : '\n');
  if (cp === 0x0a || cp === 0x09) return shown(ch);
  if (cp === ZWJ && (emoji === 'pictograph' || emoji === 'tail') && startsPassingPictograph(raw, i + 1)) {
    // An emoji ZWJ sequence (👩‍💻) renders as one visible glyph, so nothing hides in it.
    return shown(ch);
  }
  if (cp === EMOJI_VS && emoji === 'pictograph') return { token: ch, emoji: 'tail' };
  if ((cp === EMOJI_VS || cp === TEXT_VS) && (emoji === 'letter' || emoji === 'pictograph')) {
    // One presentation selector right after an emoji (❤️) carries no hidden payload;
    // runs of selectors (the "emoji smuggling" channel) are shown below.
    return shown(ch);
  }
  if (HIDDEN.test(ch) || (markup && foldsToDelimiter(ch))) return shown(visibleCodePoint(cp));
  if (cp !== 0x20 && OTHER_SPACE.test(ch)) return shown(' ');
  if (markup && cp === 0x26 && matchesAt(ENTITY_START, raw, i)) return shown(visibleCodePoint(cp));
  if (markup && cp === 0x5b && matchesAt(ESCAPE_LOOKALIKE, raw, i)) return shown(visibleCodePoint(cp));
  if (EMOJI_MODIFIER.test(ch)) return { token: ch, emoji: emoji === 'pictograph' ? 'tail' : 'none' };
  if (PICTOGRAPHIC.test(ch)) return { token: ch, emoji: 'pictograph' };
  return { token: ch, emoji: EMOJI.test(ch) ? 'letter' : 'none' };
}

function foldsToDelimiter(ch: string): boolean {
  if (ch.charCodeAt(0) < 0x80) return ch === '<' || ch === '>';
  return DELIMITER.test(ch.normalize('NFKD'));
}

function matchesAt(re: RegExp, s: string, at: number): boolean {
  re.lastIndex = at;
  return re.test(s);
}

/** True if the code point at `at` is a pictograph that will be passed through as is. */
function startsPassingPictograph(s: string, at: number): boolean {
  const next = s.codePointAt(at);
  if (next === undefined) return false;
  const ch = String.fromCodePoint(next);
  return PICTOGRAPHIC.test(ch) && !HIDDEN.test(ch) && !foldsToDelimiter(ch);
}

function countCodePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i += (s.codePointAt(i) as number) > 0xffff ? 2 : 1) n++;
  return n;
}
