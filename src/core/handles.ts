/**
 * What a principal's handle may be: 2 to 32 characters, lowercase letters, digits, "_" or "-",
 * starting with a letter or digit. A domain rule, so it lives here: the tools' schemas publish
 * it, and the CLI and the console check it through admin/ before asking the store.
 */
export const HANDLE_PATTERN = '^[a-z0-9][a-z0-9_-]{1,31}$';

const HANDLE = new RegExp(HANDLE_PATTERN);

/** Whether `value` is well formed as a handle (not whether any principal has it). */
export function isHandle(value: string): boolean {
  return HANDLE.test(value);
}
