import type { Json, JsonObject } from '../types.ts';
import type { Dialect } from '../validator.ts';
import { isObject } from '../generate/merge.ts';
import { PATH_ALIAS, type Aliases, type Ctx } from './context.ts';
import { fits } from './holding.ts';
import { sameSubtree } from './util.ts';
import { setMember } from '../own.ts';
import { SKIP, STOP, walkJson, WHOLE } from '../json-walk.ts';

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
  // The branches, each before the allOf it holds, the last of a list first (json-walk.ts).
  let seen = 0;
  const end = walkJson(
    rest,
    { at: [] } as BranchPlace,
    (v, k, depth, outer): BranchPlace | typeof SKIP | typeof STOP => {
      if (depth === 0) return { at: [] };
      if (outer.list !== true) return Array.isArray(v) ? { at: outer.at, list: true } : SKIP;
      if (seen++ >= MAX_BRANCHES || (!isObject(v) && typeof v !== 'boolean')) return STOP;
      if (!isObject(v)) return SKIP;
      const branch = v;
      const at = [...outer.at, 'allOf', k as number];
      if (NOT_SIMPLE.some((n) => Object.hasOwn(branch, n))) return STOP;
      for (const [map, into, keyword] of [
        [branch.properties, properties, 'properties'],
        [branch.patternProperties, patterns, 'patternProperties'],
      ] as const) {
        if (!isObject(map)) continue;
        for (const name of Object.keys(map)) {
          if (name.includes(PATH_ALIAS)) return STOP;
          if (Object.hasOwn(into, name)) continue;
          setMember(into, name, true);
          aliases[`${keyword}${PATH_ALIAS}${name}`] = [...at, keyword, name].join(PATH_ALIAS);
        }
      }
      return { at };
    },
    WHOLE,
    (place) => (place.list === true ? undefined : ALL_OF),
  );
  if (end === 'stopped') return undefined;
  aliases.additionalProperties = 'unevaluatedProperties';
  const out: JsonObject = { ...rest, additionalProperties: u };
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (Object.keys(patterns).length > 0) out.patternProperties = patterns;
  return { node: out, aliases };
}

/** Where besideAllOf stands: at a node (walking its allOf), or at its allOf list. */
interface BranchPlace {
  at: (string | number)[];
  list?: true;
}
const ALL_OF = ['allOf'];

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
 * judged alike on both only if what evaluates members beside it evaluates, on every value the
 * kept side accepts, at least what it did there: the node's own properties, patterns and tuple
 * of the same shape, and each applicator in place unchanged or widened member by member (see
 * widens). Otherwise the members it applies to may differ between the sides (an `if` whose
 * `then` names another property), and nothing here decides how: `unknown`. A change to the
 * keyword itself is reported as any unanalysed keyword's is.
 */
export function compareUnevaluatedReads(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  for (const keyword of ['unevaluatedProperties', 'unevaluatedItems'] as const) {
    if (!Object.hasOwn(sub, keyword) || !Object.hasOwn(sup, keyword)) continue;
    if (ctx.shared.sub.dialect === 'draft-07' && ctx.shared.sup.dialect === 'draft-07') continue;
    if (!sameSubtree(sub[keyword], sup[keyword], ctx)) continue;
    const { same: whole, keys } = READS[keyword];
    if (!evaluatesAsMuch(sub, sup, whole, keys, ctx, 0))
      ctx.emit('unevaluated-sees-change', [keyword], { keyword });
  }
}

/**
 * Applicators whose members may widen one by one, the rest unchanged: a value one of them
 * accepts on the kept side (a conjunct, a branch of anyOf, the `then` or `else` its unchanged
 * `if` picks, a dependent schema its key brings in) the other side's member accepts too. Not
 * oneOf, where a wider branch can make two hold at once. Kept here, not in the keyword table:
 * its order is the order the comparisons run in (each spends the walk's budget).
 */
const BY_MEMBER = new Set(['allOf', 'anyOf', 'then', 'else', 'dependentSchemas']);
/** Keywords a member evaluates by (names of a map, a tuple's length, present), or keeps unchanged. */
const MEMBER_SHAPES = [
  'properties',
  'patternProperties',
  'additionalProperties',
  'prefixItems',
  'items',
  'additionalItems',
];
const MEMBER_SAME = [
  ...IN_PLACE.filter((k) => !BY_MEMBER.has(k)),
  'dependencies',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedProperties',
  'unevaluatedItems',
];
/** Members within members followed before giving up (unknown). */
const MAX_WIDEN_DEPTH = 8;

/**
 * Whether, on every value `sub` accepts, `sup` evaluates at least the members `sub` does by the
 * keywords `keys` (compared by shape) and `whole` (the applicators: unchanged, or those of
 * BY_MEMBER widened member by member).
 */
function evaluatesAsMuch(
  sub: JsonObject,
  sup: JsonObject,
  whole: readonly string[],
  keys: readonly string[],
  ctx: Ctx,
  depth: number,
): boolean {
  if (keys.some((k) => shape(k, sub[k]) !== shape(k, sup[k]))) return false;
  return whole.every((k) =>
    BY_MEMBER.has(k) ? membersWiden(k, sub[k], sup[k], ctx, depth) : sameSubtree(sub[k], sup[k], ctx),
  );
}

function membersWiden(k: string, a: Json | undefined, b: Json | undefined, ctx: Ctx, depth: number): boolean {
  if (sameSubtree(a, b, ctx)) return true;
  if (a === undefined || b === undefined) return false;
  if (k === 'dependentSchemas') {
    if (!isObject(a) || !isObject(b)) return false;
    const names = Object.keys(a);
    if (names.length !== Object.keys(b).length || !names.every((n) => Object.hasOwn(b, n))) return false;
    return names.every((n) => widens(a[n] as Json, b[n] as Json, ctx, depth + 1));
  }
  if (k === 'then' || k === 'else') return widens(a, b, ctx, depth + 1);
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((m, i) => widens(m, b[i] as Json, ctx, depth + 1));
}

/**
 * Whether member `b` accepts every value member `a` accepts (as the walk shows it, with no
 * step leaning on the open-objects assumption) and evaluates there at least what `a` does:
 * the same shape of names and tuple, and its own applicators unchanged or widened in turn.
 */
function widens(a: Json, b: Json, ctx: Ctx, depth: number): boolean {
  if (sameSubtree(a, b, ctx) || a === false) return true;
  if (depth > MAX_WIDEN_DEPTH || b === false) return false;
  const [x, y] = [a === true ? {} : a, b === true ? {} : b];
  if (!isObject(x) || !isObject(y)) return false;
  return evaluatesAsMuch(x, y, [...BY_MEMBER, ...MEMBER_SAME], MEMBER_SHAPES, ctx, depth) && fits(x, y, ctx);
}
