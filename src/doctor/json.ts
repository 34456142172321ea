import { isObject } from '@warden-mcp/gate/connect';

export { isObject } from '@warden-mcp/gate/connect';

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
