import { escapeBoundary, isBoundary, newBoundary } from './boundary.ts';
import { renderAuthor } from './author.ts';
import { closeMarker, openMarker, TRUNCATION_MARKER } from './format.ts';
import { openForWrapping, type MemberText } from './member-text.ts';
import { DEFAULT_MAX_LENGTH, sanitize } from '@warden-mcp/gate/text';

/**
 * Wrapped member text: a plain JSON object (a type alias, so it is assignable to a
 * JSON value type) that says it is untrusted data and who wrote it.
 */
export type UntrustedText = {
  /** Says this is data written by someone else, not by the server or the reader. */
  untrusted: 'member-text';
  /** The author's handle, from the store row, never from the text. */
  author: string;
  /** The sanitized payload between this response's opening and closing markers. */
  text: string;
  /** True if the payload was cut; the text then ends with the truncation marker. */
  truncated: boolean;
};

/** Wraps member text for one tool response; all its blocks share one boundary. */
export interface Wrapper {
  readonly boundary: string;
  /** Sanitizes, caps and encloses one piece of member text. */
  wrap(mt: MemberText): UntrustedText;
  /** Same as `wrap`, for fields that may be absent. */
  wrapOptional(mt: MemberText | null | undefined): UntrustedText | null;
}

/**
 * Starts the wrapping of one tool response. A fresh random boundary per response
 * means text stored earlier cannot know the closer it would need to forge.
 */
export function newWrapper(options?: { maxLength?: number }): Wrapper {
  return createWrapper(newBoundary(), options?.maxLength ?? DEFAULT_MAX_LENGTH);
}

/**
 * The wrapper with its boundary given. Not re-exported from the index (a caller
 * must never choose the boundary); tests use it to force collisions.
 */
export function createWrapper(boundary: string, maxLength: number): Wrapper {
  if (!isBoundary(boundary)) throw new RangeError('createWrapper: not a boundary issued by newBoundary');
  if (!Number.isSafeInteger(maxLength) || maxLength < 1) {
    throw new RangeError('newWrapper: maxLength must be a positive integer');
  }
  const wrap = (mt: MemberText): UntrustedText => {
    const { raw, author: storedAuthor } = openForWrapping(mt);
    const author = escapeBoundary(renderAuthor(storedAuthor), boundary);
    let { text, truncated } = sanitize(raw, maxLength);
    let payload = escapeBoundary(text, boundary);
    // Escaping a boundary collision lengthens the payload; re-cut so the cap holds.
    for (let cap = maxLength; countCodePoints(payload) > maxLength;) {
      cap -= countCodePoints(payload) - maxLength;
      ({ text } = sanitize(raw, Math.max(cap, 0)));
      payload = escapeBoundary(text, boundary);
      truncated = true;
    }
    const body = truncated ? payload + TRUNCATION_MARKER : payload;
    return Object.freeze({
      untrusted: 'member-text',
      author,
      text: openMarker(boundary, author) + body + closeMarker(boundary),
      truncated,
    });
  };
  return Object.freeze({
    boundary,
    wrap,
    wrapOptional: (mt: MemberText | null | undefined) => (mt == null ? null : wrap(mt)),
  });
}

/**
 * The same wrapper, telling `seen` what each text it wraps was and who wrote it, as the
 * store gave them. For the private-words check, which keeps fingerprints of what an
 * agent was served privately; what `seen` receives never enters a result.
 */
export function observedWrapper(w: Wrapper, seen: (raw: string, author: string) => void): Wrapper {
  const wrap = (mt: MemberText): UntrustedText => {
    const { raw, author } = openForWrapping(mt);
    seen(raw, author);
    return w.wrap(mt);
  };
  return Object.freeze({
    boundary: w.boundary,
    wrap,
    wrapOptional: (mt: MemberText | null | undefined) => (mt == null ? null : wrap(mt)),
  });
}

function countCodePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
