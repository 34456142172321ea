import { memberText, openForWrapping, type MemberText } from './member-text.ts';

/** One top-level field of a request an agent wrote: its name, and its value as member text. */
interface MemberField {
  name: string;
  value: MemberText;
}

/**
 * The fields of member text that holds a JSON object (a queued request's arguments),
 * each value sealed again as text of the same author: a string as written, anything
 * else as its JSON. A page can then show a request as labelled fields while every
 * value stays member text, shown only through the reader's rendering. Null when the
 * text is not a JSON object. Names come back as plain strings, for a label: a page
 * escapes every string and makes its hidden characters visible all the same.
 */
export function fieldsOf(mt: MemberText): MemberField[] | null {
  const { raw, author } = openForWrapping(mt);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  return Object.entries(parsed as Record<string, unknown>).map(([name, v]) => ({
    name,
    value: memberText(typeof v === 'string' ? v : JSON.stringify(v), author),
  }));
}
