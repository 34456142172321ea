/** A JSON object as parsed from a file or a response, before anything is trusted about it. */
export type JsonRecord = Record<string, unknown>;

export function isObject(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The strings of an array, or none. */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Text a server may send wrapped as member text ({untrusted, text} with markers, as
 * Warden sends a token's label): the payload between the markers, for display.
 */
export function wrappedText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value['text'] === 'string') {
    return value['text'].replace(/^⟦member-text [^⟧]*⟧/, '').replace(/⟦\/member-text [^⟧]*⟧$/, '');
  }
  return String(value);
}
