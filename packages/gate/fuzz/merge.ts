import { isObject, type Json, type JsonObject } from './json.ts';

const MAX_OF = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const MIN_OF = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];

/**
 * A rough conjunction of two schemas, good enough to aim the generator at values both accept:
 * properties and required are united, types intersected, bounds tightened, other keywords kept
 * from the first side that has them. Ajv decides validity afterwards, so roughness costs only
 * wasted candidates, never a wrong answer.
 */
export function mergeSchemas(a: Json, b: Json): Json {
  if (a === false || b === false) return false;
  if (!isObject(a)) return b;
  if (!isObject(b)) return a;
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const mine = out[k];
    if (mine === undefined) out[k] = v;
    else if (
      (k === 'properties' || k === 'patternProperties' || k === 'dependentSchemas') &&
      isObject(mine) &&
      isObject(v)
    ) {
      const merged: JsonObject = { ...mine };
      for (const [name, s] of Object.entries(v))
        merged[name] = Object.hasOwn(merged, name) ? mergeSchemas(merged[name] as Json, s) : s;
      out[k] = merged;
    } else if (k === 'required' && Array.isArray(mine) && Array.isArray(v))
      out[k] = [...new Set([...mine, ...v])];
    else if (k === 'allOf' && Array.isArray(mine) && Array.isArray(v)) out[k] = [...mine, ...v];
    else if (k === 'type') {
      const ta = Array.isArray(mine) ? mine : [mine];
      const tb = Array.isArray(v) ? v : [v];
      const both = ta.filter((t) => tb.includes(t) || (t === 'integer' && tb.includes('number')));
      for (const t of tb) if (t === 'integer' && ta.includes('number') && !both.includes(t)) both.push(t);
      out[k] = both.length === 0 ? v : both.length === 1 ? (both[0] as Json) : both;
    } else if (MAX_OF.includes(k) && typeof mine === 'number' && typeof v === 'number')
      out[k] = Math.max(mine, v);
    else if (MIN_OF.includes(k) && typeof mine === 'number' && typeof v === 'number')
      out[k] = Math.min(mine, v);
    else if ((k === 'items' || k === 'additionalProperties') && isObject(mine) && isObject(v))
      out[k] = mergeSchemas(mine, v);
  }
  return out;
}

/** A copy of a schema without some keywords. */
export function without(node: JsonObject, ...keys: string[]): JsonObject {
  const out: JsonObject = { ...node };
  for (const k of keys) delete out[k];
  return out;
}
