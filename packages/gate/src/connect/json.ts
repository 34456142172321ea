/** A JSON object as parsed from a file or a response, before anything is trusted about it. */
export type JsonRecord = Record<string, unknown>;

export function isObject(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
