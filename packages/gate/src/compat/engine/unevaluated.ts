import type { Json, JsonObject } from '../types.ts';
import type { Dialect } from '../validator.ts';
import type { Aliases } from './context.ts';

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
 * neither keyword (its validator ignores them), so it is left alone there. The aliases name the
 * keyword each rewritten one came from, so a finding about it points at `unevaluated*`.
 */
export function withoutUnevaluated(
  node: JsonObject,
  dialect: Dialect,
): { node: JsonObject; aliases: Aliases } {
  const aliases: Record<string, string> = {};
  if (dialect === 'draft-07') return { node, aliases };
  if (!('unevaluatedProperties' in node) && !('unevaluatedItems' in node)) return { node, aliases };
  if (IN_PLACE.some((k) => k in node)) return { node, aliases };
  let out = node;
  const readAs = (rest: JsonObject, keyword: string, value: Json, from: string): JsonObject => {
    aliases[keyword] = from;
    return { ...rest, [keyword]: value };
  };
  if ('unevaluatedProperties' in out) {
    const { unevaluatedProperties: u, ...rest } = out;
    out =
      'additionalProperties' in rest || u === undefined
        ? rest
        : readAs(rest, 'additionalProperties', u, 'unevaluatedProperties');
  }
  if ('unevaluatedItems' in out && !('contains' in out)) {
    const { unevaluatedItems: u, ...rest } = out;
    if (u === undefined) out = rest;
    else if (dialect === '2020-12')
      out = 'items' in rest ? rest : readAs(rest, 'items', u, 'unevaluatedItems');
    else if (Array.isArray(rest.items))
      out = 'additionalItems' in rest ? rest : readAs(rest, 'additionalItems', u, 'unevaluatedItems');
    else out = 'items' in rest ? rest : readAs(rest, 'items', u, 'unevaluatedItems');
  }
  return { node: out, aliases };
}
