/** JSON values as the fuzzer handles them (its own types, so it depends on no engine module). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON text with object keys sorted, so equal values have equal text (deduplication, cache keys). */
export function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A deep copy, so an edit never reaches the seed it was made from. */
export function clone<T extends Json>(value: T): T {
  return structuredClone(value);
}

/** JSON text without whitespace, for one-line reports. */
export function compact(value: Json | undefined): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}
