import { openForWrapping, type MemberText } from './member-text.ts';
import { DEFAULT_MAX_LENGTH, sanitize } from '@warden-mcp/gate/text';

/**
 * Member text for a person's screen (admin CLI, console), not for a model: the same
 * sanitising as the wrapper, so no escape sequence or bidi override reaches a
 * terminal, but without boundary markers. Never use it to build a tool result.
 */
export function forHumans(mt: MemberText, maxLength: number = DEFAULT_MAX_LENGTH): string {
  const { text, truncated } = sanitize(openForWrapping(mt).raw, maxLength);
  return truncated ? `${text}…` : text;
}

/** Who wrote it, from the store row. */
export function authorOf(mt: MemberText): string {
  return openForWrapping(mt).author;
}
