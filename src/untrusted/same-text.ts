import { openForWrapping, type MemberText } from './member-text.ts';

/**
 * Whether stored member text is exactly `text`, without handing the raw text out: a
 * change that sends a field's current value changes nothing.
 */
export function isSameText(mt: MemberText, text: string): boolean {
  return openForWrapping(mt).raw === text;
}
