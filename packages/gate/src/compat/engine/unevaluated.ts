import type { Json, JsonObject } from '../types.ts';
import type { Dialect } from '../validator.ts';
import { isObject } from '../generate/merge.ts';
import { PATH_ALIAS, type Aliases, type Ctx } from './context.ts';
import { sameSubtree } from './util.ts';
import { setMember } from '../own.ts';

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
 * unevaluatedProperties acts as additionalProperties (and unevaluatedItems as items). Beside an
 * explicit additionalProperties (or items) every member is already evaluated, whatever else is
 * beside, and it does nothing (see withoutInert). Anything else is left as it is, and a change
 * to it stays unknown. Draft-07 has neither keyword (its validator ignores them), so it is left
 * alone there. The aliases name the keyword each rewritten one came from, so a finding about it
 * points at `unevaluated*`.
 */
export function withoutUnevaluated(
  written: JsonObject,
  dialect: Dialect,
): { node: JsonObject; aliases: Aliases } {
  const aliases: Record<string, string> = {};
  if (dialect === 'draft-07') return { node: written, aliases };
  if (!('unevaluatedProperties' in written) && !('unevaluatedItems' in written))
    return { node: written, aliases };
  const node = withoutInert(written, dialect);
  if (IN_PLACE.some((k) => Object.hasOwn(node, k))) return besideAllOf(node) ?? { node, aliases };
  let out = node;
  const readAs = (rest: JsonObject, keyword: string, value: Json, from: string): JsonObject => {
    aliases[keyword] = from;
    return { ...rest, [keyword]: value };
  };
  // What is left applies to some members (see withoutInert): those the node's own keywords leave.
  if ('unevaluatedProperties' in out) {
    const { unevaluatedProperties: u, ...rest } = out;
    out = u === undefined ? rest : readAs(rest, 'additionalProperties', u, 'unevaluatedProperties');
  }
  if ('unevaluatedItems' in out && !('contains' in out)) {
    const { unevaluatedItems: u, ...rest } = out;
    const tuple = dialect !== '2020-12' && Array.isArray(rest.items);
    out = u === undefined ? rest : readAs(rest, tuple ? 'additionalItems' : 'items', u, 'unevaluatedItems');
  }
  return { node: out, aliases };
}

/**
 * The node without the unevaluated* keywords that apply to no member whatever the applicators
 * beside them evaluate: beside the node's own additionalProperties every name is evaluated (by
 * it, by properties or by patternProperties), and beside items that take every item past the
 * tuple (2020-12 `items`; 2019-09 `items` as one schema, or a tuple and `additionalItems`)
 * every item is. Ajv reads them so too: those keywords mark every member evaluated as they are
 * built, and the unevaluated* keyword after them builds no check.
 */
function withoutInert(node: JsonObject, dialect: Dialect): JsonObject {
  const present = (k: string): boolean => Object.hasOwn(node, k) && node[k] !== undefined;
  const everyName = present('additionalProperties');
  const everyItem =
    dialect === '2020-12'
      ? present('items')
      : present('items') && (!Array.isArray(node.items) || present('additionalItems'));
  const drop = [
    ...(everyName && Object.hasOwn(node, 'unevaluatedProperties') ? ['unevaluatedProperties'] : []),
    ...(everyItem && Object.hasOwn(node, 'unevaluatedItems') ? ['unevaluatedItems'] : []),
  ];
  if (drop.length === 0) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) if (!drop.includes(k)) setMember(out, k, v);
  return out;
}

/** Keywords of an allOf branch that would evaluate properties in ways the rewrite below does not read. */
const NOT_SIMPLE = [
  ...IN_PLACE.filter((k) => k !== 'allOf' && k !== 'not'),
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependencies',
];
/** allOf branches read before the rewrite gives up. */
const MAX_BRANCHES = 64;

/**
 * unevaluatedProperties beside an allOf whose branches (allOf inside them included) only declare
 * properties and patterns: every branch holds for every valid value, so the properties left
 * unevaluated are those no `properties` or `patternProperties` of the node or of a branch names,
 * and unevaluatedProperties acts as additionalProperties over all of them. The names and
 * patterns of the branches are declared on the node itself (with `true`, which constrains
 * nothing: the branches still apply) and a finding about one points into its branch.
 */
function besideAllOf(node: JsonObject): { node: JsonObject; aliases: Aliases } | undefined {
  if (!('unevaluatedProperties' in node) || 'unevaluatedItems' in node) return undefined;
  if (IN_PLACE.some((k) => k !== 'allOf' && k !== 'not' && Object.hasOwn(node, k))) return undefined;
  const { unevaluatedProperties: u, ...rest } = node;
  const aliases: Record<string, string> = {};
  if (u === undefined) return { node: rest, aliases };
  const properties: JsonObject = isObject(rest.properties) ? { ...rest.properties } : {};
  const patterns: JsonObject = isObject(rest.patternProperties) ? { ...rest.patternProperties } : {};
  const stack: { branch: Json; at: (string | number)[] }[] = [];
  const push = (s: JsonObject, at: (string | number)[]): void => {
    if (Array.isArray(s.allOf)) s.allOf.forEach((b, i) => stack.push({ branch: b, at: [...at, 'allOf', i] }));
  };
  push(rest, []);
  for (let seen = 0; stack.length > 0; seen++) {
    const { branch, at } = stack.pop() as { branch: Json; at: (string | number)[] };
    if (seen >= MAX_BRANCHES || (!isObject(branch) && typeof branch !== 'boolean')) return undefined;
    if (!isObject(branch)) continue;
    if (NOT_SIMPLE.some((k) => Object.hasOwn(branch, k))) return undefined;
    for (const [map, into, keyword] of [
      [branch.properties, properties, 'properties'],
      [branch.patternProperties, patterns, 'patternProperties'],
    ] as const) {
      if (!isObject(map)) continue;
      for (const name of Object.keys(map)) {
        if (name.includes(PATH_ALIAS)) return undefined;
        if (Object.hasOwn(into, name)) continue;
        setMember(into, name, true);
        aliases[`${keyword}${PATH_ALIAS}${name}`] = [...at, keyword, name].join(PATH_ALIAS);
      }
    }
    push(branch, at);
  }
  aliases.additionalProperties = 'unevaluatedProperties';
  const out: JsonObject = { ...rest, additionalProperties: u };
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (Object.keys(patterns).length > 0) out.patternProperties = patterns;
  return { node: out, aliases };
}

/** What an unevaluated* keyword reads beside it: the keywords whose evaluated members it sees. */
const READS: Record<'unevaluatedProperties' | 'unevaluatedItems', { same: string[]; keys: string[] }> = {
  // Applicators in place are read whole (what a branch evaluates depends on whether it holds);
  // a node's own properties and patterns evaluate the names they hold whatever their schemas
  // (if one fails, so does the node), and additionalProperties every other name.
  unevaluatedProperties: {
    same: [...IN_PLACE, 'dependencies'],
    keys: ['properties', 'patternProperties', 'additionalProperties'],
  },
  // contains evaluates the items it matches, and its bounds say whether it does at all (Ajv
  // ignores a contains with minContains 0 and no maxContains, and evaluates nothing by it).
  unevaluatedItems: {
    same: [...IN_PLACE, 'contains', 'minContains', 'maxContains'],
    keys: ['prefixItems', 'items', 'additionalItems'],
  },
};

/** The members a keyword evaluates, as a shape: the names of a map of names, a tuple's length, or present. */
function shape(keyword: string, value: Json | undefined): string {
  if (value === undefined) return '';
  if (keyword === 'properties' || keyword === 'patternProperties')
    return isObject(value) ? JSON.stringify(Object.keys(value).sort()) : 'present';
  return Array.isArray(value) ? `[${value.length}]` : 'present';
}

/**
 * An unevaluated* keyword kept as written (see withoutUnevaluated), the same on both sides, is
 * judged alike on both only if what evaluates members beside it is: the applicators in place
 * unchanged, and the node's own properties, patterns and tuple of the same shape. Otherwise the
 * members it applies to may differ between the sides (an `if` whose `then` names another
 * property), and nothing here decides how: `unknown`. A change to the keyword itself is
 * reported as any unanalysed keyword's is.
 */
export function compareUnevaluatedReads(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const same = (a: Json | undefined, b: Json | undefined): boolean => sameSubtree(a, b, ctx);
  for (const keyword of ['unevaluatedProperties', 'unevaluatedItems'] as const) {
    if (!Object.hasOwn(sub, keyword) || !Object.hasOwn(sup, keyword)) continue;
    if (ctx.shared.sub.dialect === 'draft-07' && ctx.shared.sup.dialect === 'draft-07') continue;
    if (!same(sub[keyword], sup[keyword])) continue;
    const { same: whole, keys } = READS[keyword];
    const changed =
      whole.some((k) => !same(sub[k], sup[k])) || keys.some((k) => shape(k, sub[k]) !== shape(k, sup[k]));
    if (changed) ctx.emit('unevaluated-sees-change', [keyword], { keyword });
  }
}
