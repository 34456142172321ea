import { canonicalJson, canonicalKeys } from '../hash.ts';
import type { Json, JsonObject } from '../types.ts';

const keySets = new WeakMap<readonly Json[], ReadonlySet<string>>();

/** The canonical JSON of every member of an array, as a set built once per array. */
export function keySet(values: readonly Json[]): ReadonlySet<string> {
  let set = keySets.get(values);
  if (!set) {
    set = new Set(canonicalKeys(values));
    keySets.set(values, set);
  }
  return set;
}

/** Whether a value is among the members of an array: one lookup, as JSON equality decides it. */
export function memberOf(values: readonly Json[], value: Json): boolean {
  return keySet(values).has(canonicalJson(value));
}

/**
 * The test a schema's own `enum` and `const` make (both, when both are there), decided by set
 * lookup rather than by the validator: Ajv compares a value with an enum member by member, so
 * checking each of n old values against an n-value enum would cost n² comparisons.
 */
export function finiteTest(s: JsonObject): ((value: Json, key?: string) => boolean) | undefined {
  const values = Array.isArray(s.enum) ? s.enum : undefined;
  const fixed = 'const' in s ? canonicalJson(s.const) : undefined;
  if (!values && fixed === undefined) return undefined;
  // `key`, when the caller has it already, is the value's canonical JSON.
  return (value, key = canonicalJson(value)) =>
    (fixed === undefined || key === fixed) && (!values || keySet(values).has(key));
}

/** A schema without its own `enum` and `const`: what is left for the validator once finiteTest has passed. */
export function withoutFinite(s: JsonObject): JsonObject {
  const rest: JsonObject = { ...s };
  if (Array.isArray(rest.enum)) delete rest.enum;
  delete rest.const;
  return rest;
}
