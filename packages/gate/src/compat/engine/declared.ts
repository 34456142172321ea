import { isObject } from '../generate/merge.ts';
import { keywordsWhere } from '../keywords.ts';
import { SKIP, STOP, walkJson, WHOLE } from '../json-walk.ts';
import type { JsonObject, Schema } from '../types.ts';
import { matchingPatterns } from './pattern-properties.ts';

/** additionalProperties as a schema: absent means true (open). */
export function additionalOf(s: JsonObject): Schema {
  const a = s.additionalProperties;
  return a === undefined ? true : (a as Schema);
}

/**
 * The one home of the open-objects policy's notion of a declared key. Callers are assumed to
 * send only declared keys, and a key is declared when the schema says anything about it: it is
 * in `properties`, it matches a `patternProperties` regex, or the object is a map (its
 * `additionalProperties` is a schema, so every key is declared). `additionalProperties` absent
 * or `true` declares nothing.
 */
export function declaresKey(s: JsonObject, key: string): boolean {
  if (isObject(s.properties) && Object.prototype.hasOwnProperty.call(s.properties, key)) return true;
  return isMap(s) || matchingPatterns(s, key).length > 0;
}

/**
 * Whether the object declares every key: `additionalProperties` is a schema, or, without it,
 * `unevaluatedProperties` is (a caller reads either as "any other key, with such a value").
 */
export function isMap(s: JsonObject): boolean {
  if (s.additionalProperties !== undefined) return isObject(s.additionalProperties);
  return isObject(s.unevaluatedProperties);
}

/** Whether any key beyond `properties` is declared: by a pattern or by a map. */
export function declaresBeyondProperties(s: JsonObject): boolean {
  return isMap(s) || (isObject(s.patternProperties) && Object.keys(s.patternProperties).length > 0);
}

/**
 * In-place subschemas whose `properties` also speak of the object's keys when they apply: the
 * keyword table's `inPlace: 'applied'` (a value passes them when they apply; `not` and `if` are
 * only tested).
 */
export const ARMS: readonly string[] = keywordsWhere((k) => k.inPlace === 'applied');

/** Subschemas an arm holds, found with a bound so a hostile schema cannot make the search long. */
const MAX_ARMS = 500;

/**
 * Whether a subschema applied in place (a dependent schema, a conditional's branch, a
 * combinator's branch, at any depth of such arms) speaks of the key: names it in its
 * `properties`, requires it, or lists it in a `dependentRequired`. Callers who take that arm
 * send the key, so a key named only there is not left undeclared by the schema: a change to it
 * is judged, not assumed. The node's own `dependentRequired` counts too (a present key makes
 * callers send it).
 */
export function namedByAnArm(s: JsonObject, key: string): boolean {
  // The answer is the same whatever the order the arms are read in: named by one of them, or
  // more arms than the bound (then the key is taken as named: a change to it is judged rather
  // than assumed).
  let seen = 0;
  const end = walkJson(
    s,
    'arm' as ArmPlace,
    (v, k, _, outer): ArmPlace | typeof SKIP | typeof STOP => {
      if (outer === 'arm') {
        // An arm's value: a list of arms, a map of them (dependentSchemas), or one.
        if (Array.isArray(v) || (isObject(v) && k === 'dependentSchemas')) return 'arms';
        if (!isObject(v)) return SKIP;
      } else if (!isObject(v)) return SKIP;
      if (++seen > MAX_ARMS) return STOP;
      const node = v as JsonObject;
      if (node !== s) {
        if (isObject(node.properties) && Object.hasOwn(node.properties, key)) return STOP;
        if (Array.isArray(node.required) && node.required.includes(key)) return STOP;
      }
      if (isObject(node.dependentRequired))
        for (const list of Object.values(node.dependentRequired))
          if (Array.isArray(list) && list.includes(key)) return STOP;
      return 'arm';
    },
    WHOLE,
    (place) => (place === 'arm' ? ARMS : undefined),
  );
  return end === 'stopped';
}

/** Where namedByAnArm stands: at an arm (its members are its arms' keywords), or at a list or map of arms. */
type ArmPlace = 'arm' | 'arms';
