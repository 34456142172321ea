import { openForWrapping, type MemberText } from './member-text.ts';
import { DEFAULT_MAX_LENGTH, forPeople } from '@warden-mcp/gate/text';

/**
 * Member text for a person's screen (admin CLI, console), not for a model: every control,
 * escape sequence, bidi and invisible character made visible by the wrapper's rules, so none
 * reaches a terminal or a page raw, but markup (`<`, `&`) left as written for the output to
 * escape in its own syntax (a model needs markup made visible, a person does not), and no
 * boundary markers. Never use it to build a tool result.
 */
export function forHumans(mt: MemberText, maxLength: number = DEFAULT_MAX_LENGTH): string {
  return forPeople(openForWrapping(mt).raw, maxLength);
}

/** Who wrote it, from the store row. */
export function authorOf(mt: MemberText): string {
  return openForWrapping(mt).author;
}
