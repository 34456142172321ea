import { mapJson, SKIP, WHOLE } from './json-walk.ts';
import type { Json, JsonObject } from './types.ts';

/**
 * What a keyword is, in the one table every keyword list of the gate is read from:
 *
 * - `dialects`: where the validator (Ajv 8) applies it; in any other dialect it is an unknown
 *   keyword, ignored there (see dialects.ts).
 * - `role`: an `applicator` applies subschemas to the value or its members, an `assertion`
 *   judges the value, an `annotation` never changes which values validate; `reference`,
 *   `identifier`, `dialect` and `definitions` are the core keywords that place schemas.
 * - `holds`: the subschemas its value holds: a `map` of them, a `list`, `one`, or (`items`) one
 *   or, before 2020-12, a list.
 * - `type`: the one instance type it constrains; a value of another type passes it.
 * - `engine`: what the inclusion walk does with a change to it: `decided` (a comparison of its
 *   own), `reported` (an annotation: the change is reported, compatible), or `unknown` (the
 *   walk cannot decide it; a change makes the verdict unknown, unless the keyword was first read
 *   as others that mean the same: `dependencies`, `unevaluated*` and the dynamic references,
 *   see dependencies.ts, engine/unevaluated.ts and applied.ts).
 * - `text`: words for a reader, which say nothing of validity nor of where references lead.
 * - `group`: keywords read together in one schema object (`then`/`else` read the `if` beside
 *   them, `additionalItems` the tuple `items`, `items` the `prefixItems`, the `contains` counts
 *   their `contains`): one moved without the rest says something else (see engine/adjacent.ts).
 * - `inPlace`: its subschemas apply to the value itself, not to a part of it: `applied` where
 *   the value must pass them when they apply, `tested` where their outcome is only read (`not`,
 *   `if`). (`dependencies` is read as the two keywords it splits into before either is asked.)
 * - `nests`: Ajv, stopping at the first error, builds the code of each of its members nested in
 *   the code of the one before (see bounds.ts).
 * - `skipped`: Ajv's walk for ids and anchors (json-schema-traverse) does not enter its value.
 * - `byName`: its value is an object keyed by the value's property names (or patterns of them).
 * - `evaluated`: it reads which members the schemas beside and below it evaluated.
 * - `dynamic`: it resolves, or is resolved, through the dynamic scope (the resources a value
 *   passes through), not where it stands alone.
 *
 * An `x-` keyword is none of these: Ajv ignores a keyword it was not given, so the walk reports
 * its change as an annotation's (see includes.ts). A keyword the table lacks fails closed.
 */
/** The dialects the gate reads (a document declares one by `$schema`, see validator.ts). */
export type Dialect = 'draft-07' | '2019-09' | '2020-12';
const ALL: readonly Dialect[] = ['draft-07', '2019-09', '2020-12'];
/** Every dialect the gate reads. */
export const DIALECTS = ALL;

export interface Keyword {
  dialects: readonly Dialect[];
  role: 'applicator' | 'assertion' | 'annotation' | 'reference' | 'identifier' | 'dialect' | 'definitions';
  holds?: 'map' | 'list' | 'one' | 'one-or-list';
  type?: 'object' | 'array' | 'string' | 'number';
  engine: 'decided' | 'reported' | 'unknown';
  text?: true;
  group?: 'conditional' | 'items' | 'contains';
  inPlace?: 'applied' | 'tested';
  nests?: true;
  skipped?: true;
  byName?: true;
  evaluated?: true;
  dynamic?: true;
}

const SINCE_2019: readonly Dialect[] = ['2019-09', '2020-12'];

const core = (role: Keyword['role'], engine: Keyword['engine'], dialects = ALL): Keyword => ({
  dialects,
  role,
  engine,
});
const text: Keyword = { dialects: ALL, role: 'annotation', engine: 'reported', text: true };
const note: Keyword = { dialects: ALL, role: 'annotation', engine: 'reported' };
const apply = (
  holds: Keyword['holds'],
  type?: Keyword['type'],
  dialects = ALL,
  engine: Keyword['engine'] = 'decided',
): Keyword => ({ dialects, role: 'applicator', holds, engine, ...(type ? { type } : {}) });
const asserts = (type?: Keyword['type'], dialects = ALL): Keyword => ({
  dialects,
  role: 'assertion',
  engine: 'decided',
  ...(type ? { type } : {}),
});

/** Every keyword the gate knows, in the order their changes are reported. */
export const KEYWORDS: Readonly<Record<string, Keyword>> = {
  // core
  $schema: core('dialect', 'reported'),
  $id: core('identifier', 'reported'),
  $anchor: core('identifier', 'unknown'),
  $dynamicAnchor: { ...core('identifier', 'unknown'), dynamic: true },
  $recursiveAnchor: { ...core('identifier', 'unknown', SINCE_2019), dynamic: true },
  $ref: core('reference', 'decided'),
  $dynamicRef: { ...core('reference', 'unknown', SINCE_2019), dynamic: true },
  $recursiveRef: { ...core('reference', 'unknown', SINCE_2019), dynamic: true },
  $defs: { ...core('definitions', 'reported'), holds: 'map' },
  definitions: { ...core('definitions', 'reported'), holds: 'map' },
  // annotations
  title: text,
  description: text,
  default: { ...text, skipped: true },
  examples: { ...text, skipped: true },
  $comment: text,
  deprecated: text,
  readOnly: text,
  writeOnly: text,
  contentMediaType: note,
  contentEncoding: note,
  contentSchema: { ...note, holds: 'one' },
  'x-mcp-header': note,
  // applicators
  properties: { ...apply('map', 'object'), nests: true, byName: true },
  patternProperties: { ...apply('map', 'object'), nests: true, byName: true },
  additionalProperties: apply('one', 'object'),
  propertyNames: apply('one', 'object'),
  dependentSchemas: { ...apply('map', 'object', SINCE_2019), inPlace: 'applied', nests: true, byName: true },
  dependencies: { ...apply('map', 'object', ALL, 'unknown'), byName: true },
  unevaluatedProperties: { ...apply('one', 'object', SINCE_2019, 'unknown'), evaluated: true },
  items: { ...apply('one-or-list', 'array'), group: 'items', nests: true },
  prefixItems: { ...apply('list', 'array', ['2020-12']), group: 'items', nests: true },
  additionalItems: { ...apply('one', 'array', ['draft-07', '2019-09']), group: 'items' },
  contains: { ...apply('one', 'array'), group: 'contains' },
  unevaluatedItems: { ...apply('one', 'array', SINCE_2019, 'unknown'), evaluated: true },
  allOf: { ...apply('list'), inPlace: 'applied', nests: true },
  anyOf: { ...apply('list'), inPlace: 'applied' },
  oneOf: { ...apply('list'), inPlace: 'applied' },
  not: { ...apply('one'), inPlace: 'tested' },
  if: { ...apply('one'), group: 'conditional', inPlace: 'tested' },
  then: { ...apply('one'), group: 'conditional', inPlace: 'applied' },
  else: { ...apply('one'), group: 'conditional', inPlace: 'applied' },
  // assertions
  type: asserts(),
  enum: { ...asserts(), skipped: true },
  const: { ...asserts(), skipped: true },
  format: { ...asserts(), skipped: true },
  required: { ...asserts('object'), skipped: true },
  minProperties: { ...asserts('object'), skipped: true },
  maxProperties: { ...asserts('object'), skipped: true },
  dependentRequired: { ...asserts('object', SINCE_2019), nests: true, byName: true },
  minItems: { ...asserts('array'), skipped: true },
  maxItems: { ...asserts('array'), skipped: true },
  uniqueItems: { ...asserts('array'), skipped: true },
  minContains: { ...asserts('array', SINCE_2019), group: 'contains' },
  maxContains: { ...asserts('array', SINCE_2019), group: 'contains' },
  minLength: { ...asserts('string'), skipped: true },
  maxLength: { ...asserts('string'), skipped: true },
  pattern: { ...asserts('string'), skipped: true },
  minimum: { ...asserts('number'), skipped: true },
  maximum: { ...asserts('number'), skipped: true },
  exclusiveMinimum: { ...asserts('number'), skipped: true },
  exclusiveMaximum: { ...asserts('number'), skipped: true },
  multipleOf: { ...asserts('number'), skipped: true },
  // OpenAPI's, which Ajv applies: `nullable` is read beside `type` (applied.ts); `discriminator`
  // only when a client turns its option on, and then as the oneOf beside it where it compiles
  // (engine/discriminator.ts).
  nullable: { dialects: ALL, role: 'assertion', engine: 'unknown' },
  discriminator: { dialects: ALL, role: 'applicator', engine: 'decided' },
};

const ENTRIES = Object.entries(KEYWORDS);
/** The names of the table's keywords that `pick` selects, in the table's order. */
export function keywordsWhere(pick: (k: Keyword, name: string) => boolean): string[] {
  return ENTRIES.filter(([name, k]) => pick(k, name)).map(([name]) => name);
}

/** Keywords that are text for a reader: they say nothing of validity, nor of where references lead. */
export const TEXT_KEYWORDS: ReadonlySet<string> = new Set(keywordsWhere((k) => k.text === true));

/** Keywords that never change which values validate. */
export const ANNOTATIONS: ReadonlySet<string> = new Set(keywordsWhere((k) => k.engine === 'reported'));

/**
 * Keywords that constrain the values of one instance type only: any value of another type passes
 * them (`{"required": ["a"]}` accepts every string). Formats are left out: some constrain
 * numbers, most strings.
 */
export const ONE_TYPE_KEYWORDS: Readonly<
  Record<'object' | 'array' | 'string' | 'number', ReadonlySet<string>>
> = {
  object: new Set(keywordsWhere((k) => k.type === 'object')),
  array: new Set(keywordsWhere((k) => k.type === 'array')),
  string: new Set(keywordsWhere((k) => k.type === 'string')),
  number: new Set(keywordsWhere((k) => k.type === 'number')),
};

/** Keywords the gate analyses. Anything else that changes makes the verdict unknown. */
export const ANALYSED: ReadonlySet<string> = new Set(keywordsWhere((k) => k.engine === 'decided'));

/** Keywords a dialect's validator does not apply: unknown keywords there, which it ignores. */
export function ignoredIn(dialect: Dialect): string[] {
  return keywordsWhere((k) => !k.dialects.includes(dialect));
}

/**
 * Keywords whose value holds subschemas that the walk decides or reports, as the table says
 * (definitions aside, reached only by reference, and the keywords read as others before the
 * walk): a map of schemas (1), a list (2), or one schema (3; draft-07's `items` may also be a
 * list). What a rewrite of a schema's subschemas walks into (mapApplied), in one place for every
 * such rewrite.
 */
const APPLICATORS: ReadonlyMap<string, 1 | 2 | 3> = new Map(
  ENTRIES.filter(([, k]) => k.holds !== undefined && k.role !== 'definitions' && k.engine !== 'unknown').map(
    ([name, k]) => [name, k.holds === 'map' ? 1 : k.holds === 'list' ? 2 : 3],
  ),
);

/**
 * `root` with `f` applied to it and to every subschema its applicators hold at any depth, each
 * after the subschemas it holds (in document order), by one walk (json-walk.ts); copied only
 * where something changed, so an untouched schema comes back as the same object. A value that
 * is not an object is left as it is, and `f` is not given it.
 */
export function mapApplied(root: Json, f: (schema: JsonObject) => Json): Json {
  return mapJson(
    root,
    'members' as AppliedPlace,
    (v, key, _, outer): AppliedPlace | typeof SKIP => {
      if (outer === 'schema') {
        const kind = APPLICATORS.get(key as string);
        if (kind === undefined) return SKIP;
        if ((kind === 1 && isObject(v)) || Array.isArray(v)) return 'members';
        if (kind !== 3) return SKIP;
      }
      return isObject(v) ? 'schema' : SKIP;
    },
    (v, _, place) => (place === 'schema' ? f(v as JsonObject) : v),
    WHOLE,
  ).value as Json;
}

/** Where mapApplied stands: at a schema, or at the root or a list or map of schemas. */
type AppliedPlace = 'schema' | 'members';

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------
// The validator's build of each keyword (see wide.ts): kept apart from the table above, whose
// fields describe meaning, because this one describes Ajv 8's code generation.

/**
 * Whether Ajv 8, as the gate configures it (strict off, no `$data`, no `discriminator` option),
 * can fail to build a keyword once the schema holding it is valid by its dialect's meta-schema:
 *
 * - `builds`: never (the strict-mode complaints some keywords make are silent with strict off;
 *   an unknown `format` is ignored);
 * - `regex`: only when the validator cannot compile the pattern (Ajv compiles it with its own
 *   flags, `u` by default; the meta-schema only asks for a string);
 * - `regex-keys`: only when it cannot compile one of the value's names as a pattern;
 * - `non-empty`: only when the value is an empty array (`enum: []`, which the 2020-12
 *   meta-schema allows);
 * - `nullable`: only beside no `type`, beside a `type` holding `null` when it is false, or when it
 *   is not a boolean (Ajv's own rules for OpenAPI's keyword, which no meta-schema checks);
 * - `string`: only when the value is not a string (a keyword the gate adds, typed by Ajv alone);
 * - `places`: a keyword that names or finds a schema by its place; a schema holding one means
 *   something only where it stands, and is never built apart from its document;
 * - `may-fail`: Ajv has been read to fail on some valid value, or the gate has not shown it never
 *   does: a schema holding it is built with its document, as it always was.
 *
 * A keyword outside this table that the validator knows (`id`, which Ajv 8 refuses) may fail;
 * one it does not know is ignored by it (see wide.ts). A table test builds each keyword's edge
 * values with Ajv and holds each verdict here to what Ajv does.
 */
export type BuildCheck =
  'builds' | 'regex' | 'regex-keys' | 'non-empty' | 'nullable' | 'string' | 'places' | 'may-fail';

export const BUILDS: Readonly<Record<string, BuildCheck>> = {
  $schema: 'places',
  $id: 'places',
  $anchor: 'places',
  $dynamicAnchor: 'places',
  $recursiveAnchor: 'places',
  $ref: 'places',
  $dynamicRef: 'places',
  $recursiveRef: 'places',
  $defs: 'places',
  definitions: 'builds',
  title: 'builds',
  description: 'builds',
  default: 'builds',
  examples: 'builds',
  $comment: 'builds',
  deprecated: 'builds',
  readOnly: 'builds',
  writeOnly: 'builds',
  contentMediaType: 'builds',
  contentEncoding: 'builds',
  contentSchema: 'builds',
  'x-mcp-header': 'string',
  properties: 'builds',
  patternProperties: 'regex-keys',
  additionalProperties: 'builds',
  propertyNames: 'builds',
  dependentSchemas: 'builds',
  dependencies: 'builds',
  // Ajv's code for it throws on a shape of the evaluated-properties bookkeeping it does not expect.
  unevaluatedProperties: 'may-fail',
  items: 'builds',
  prefixItems: 'builds',
  additionalItems: 'builds',
  contains: 'builds',
  unevaluatedItems: 'may-fail',
  allOf: 'builds',
  anyOf: 'builds',
  oneOf: 'builds',
  not: 'builds',
  if: 'builds',
  then: 'builds',
  else: 'builds',
  type: 'builds',
  enum: 'non-empty',
  const: 'builds',
  format: 'builds',
  required: 'builds',
  minProperties: 'builds',
  maxProperties: 'builds',
  dependentRequired: 'builds',
  minItems: 'builds',
  maxItems: 'builds',
  uniqueItems: 'builds',
  minContains: 'builds',
  maxContains: 'builds',
  minLength: 'builds',
  maxLength: 'builds',
  pattern: 'regex',
  minimum: 'builds',
  maximum: 'builds',
  exclusiveMinimum: 'builds',
  exclusiveMaximum: 'builds',
  multipleOf: 'builds',
  nullable: 'nullable',
  // Built only with Ajv's `discriminator` option, which then refuses many valid uses of it.
  discriminator: 'may-fail',
};

/** Where a keyword's value holds subschemas, as the table above says (for walks of every subschema). */
export function holdsOf(keyword: string): Keyword['holds'] {
  return Object.hasOwn(KEYWORDS, keyword) ? KEYWORDS[keyword]?.holds : undefined;
}
