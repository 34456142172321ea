// Text nobody controls (a member's profile, a server's description or skill file), made safe to
// show: to a model with markup made visible, to a person escaped by the output and readable.
// Pure and dependency-free; Warden's member-text wrapper and the gate share these rules.
export { DEFAULT_MAX_LENGTH, MAX_COMBINING_MARKS, forPeople, hiddenCount, sanitize } from './sanitize.ts';
export { visibleCodePoint } from './visible.ts';
