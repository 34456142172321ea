/**
 * The one notation for a character that is shown instead of passed through:
 * `[U+XXXX]`, upper-case hex, at least four digits. Shared by the sanitizer, the
 * author rendering and the boundary escape so a reader meets a single convention.
 */
export function visibleCodePoint(cp: number): string {
  return `[U+${cp.toString(16).toUpperCase().padStart(4, '0')}]`;
}
