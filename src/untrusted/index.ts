/**
 * The one choke point that turns text written by club members into something a
 * tool result may carry. Imports nothing else of Warden's.
 */
export type { MemberText } from './member-text.ts';
export { memberText } from './member-text.ts';
export type { UntrustedText, Wrapper } from './wrapper.ts';
export { newWrapper, observedWrapper } from './wrapper.ts';
export { sanitize, forPeople, DEFAULT_MAX_LENGTH } from '@warden-mcp/gate/text';
export { TRUNCATION_MARKER } from './format.ts';
export { UNTRUSTED_NOTICE } from './notice.ts';
export { onlyInsideWrappers } from './inside.ts';
export { forHumans, authorOf } from './display.ts';
export { fieldsOf } from './fields.ts';
export { singleLineProblem } from './single-line.ts';
export { isSameText } from './same-text.ts';
export { echo, ECHO_MAX_LENGTH } from './echo.ts';
