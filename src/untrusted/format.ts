/**
 * The wrapper's markers, in one place so the wrapper and the checker agree.
 * A block reads `⟦member-text B author=@alice⟧payload⟦/member-text B⟧`; a cut
 * payload ends with `⟦truncated⟧` before the closer. The payload can contain none
 * of `⟦`, `⟧`, `<`, `>` (nor anything that folds to them), so every marker in a
 * wrapped text was put there by the wrapper.
 */
export const TRUNCATION_MARKER = '⟦truncated⟧';

export function openMarkerPrefix(boundary: string): string {
  return `⟦member-text ${boundary} author=@`;
}

export function openMarker(boundary: string, author: string): string {
  return `${openMarkerPrefix(boundary)}${author}⟧`;
}

export function closeMarker(boundary: string): string {
  return `⟦/member-text ${boundary}⟧`;
}
