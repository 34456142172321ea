import type { JsonObject, Schema } from '../types.ts';

/**
 * A shallow conjunction of two object schemas, good enough to build values: properties and
 * required are united, other keywords from `extra` win. Values built from it are always
 * validated against the real schema afterwards.
 */
export function mergeForGeneration(base: JsonObject, extra: Schema): Schema {
  if (extra === false) return false;
  if (extra === true) return base;
  const merged: JsonObject = { ...base, ...extra };
  const bp = base.properties,
    ep = extra.properties;
  if (isObject(bp) && isObject(ep)) merged.properties = { ...bp, ...ep };
  const br = base.required,
    er = extra.required;
  if (Array.isArray(br) && Array.isArray(er)) merged.required = [...new Set([...br, ...er])];
  return merged;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema without its composition keywords: the part its branches share. */
export function withoutKeys(schema: JsonObject, keys: readonly string[]): JsonObject {
  const copy: JsonObject = { ...schema };
  for (const k of keys) delete copy[k];
  return copy;
}
