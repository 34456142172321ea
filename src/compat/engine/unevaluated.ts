import type { JsonObject } from '../types.ts';
import type { Dialect } from '../validator.ts';

/** Keywords that evaluate members in place: with any of them, "unevaluated" depends on their outcome. */
const IN_PLACE = [
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
];

/**
 * unevaluatedProperties / unevaluatedItems in their common shape, rewritten to the keywords the
 * gate decides. With no in-place applicator beside them, the members left unevaluated are
 * exactly those `properties` and `patternProperties` (or `prefixItems`) leave, so
 * unevaluatedProperties acts as additionalProperties (and unevaluatedItems as items); beside an
 * explicit additionalProperties (or items) every member is already evaluated and it does
 * nothing. Anything else is left as it is, and a change to it stays unknown. Draft-07 has
 * neither keyword (its validator ignores them), so it is left alone there.
 */
export function withoutUnevaluated(node: JsonObject, dialect: Dialect): JsonObject {
  if (dialect === 'draft-07') return node;
  if (!('unevaluatedProperties' in node) && !('unevaluatedItems' in node)) return node;
  if (IN_PLACE.some((k) => k in node)) return node;
  let out = node;
  if ('unevaluatedProperties' in out) {
    const { unevaluatedProperties: u, ...rest } = out;
    out = 'additionalProperties' in rest || u === undefined ? rest : { ...rest, additionalProperties: u };
  }
  if ('unevaluatedItems' in out && !('contains' in out)) {
    const { unevaluatedItems: u, ...rest } = out;
    if (u === undefined) out = rest;
    else if (dialect === '2020-12') out = 'items' in rest ? rest : { ...rest, items: u };
    else if (Array.isArray(rest.items))
      out = 'additionalItems' in rest ? rest : { ...rest, additionalItems: u };
    else out = 'items' in rest ? rest : { ...rest, items: u };
  }
  return out;
}
