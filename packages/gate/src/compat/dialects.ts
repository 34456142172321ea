import { ignoredIn, keywordsWhere } from './keywords.ts';
import { SCHEMA_BOUNDS } from './bounds.ts';
import { compactTextIfWritable } from './json-text.ts';
import { mapJson, SKIP, walkJson, WHOLE } from './json-walk.ts';
import { appendPointer } from './pointer.ts';
import type { Json, JsonObject, Schema } from './types.ts';
import type { Dialect } from './validator.ts';
import { setMember } from './own.ts';

export const DIALECT_URI: Readonly<Record<Dialect, string>> = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

/**
 * Keywords each dialect ignores, as the validator (Ajv 8) reads them (the keyword table's
 * `dialects`). Ajv's draft-07 instance has no dynamic vocabulary: `$dynamicRef` and the
 * `$recursive*` keywords are unknown keywords there, and a switch to 2019-09 or 2020-12 makes
 * every one of them apply.
 */
const IGNORED: Readonly<Record<Dialect, readonly string[]>> = {
  'draft-07': ignoredIn('draft-07'),
  '2019-09': ignoredIn('2019-09'),
  '2020-12': ignoredIn('2020-12'),
};

/**
 * Keywords whose effect differs between the dialects, as the validator (Ajv 8) applies them:
 * draft-07 ignores the dependent*, contains-count, prefixItems, unevaluated* and dynamic-reference
 * keywords (`$dynamicAnchor` stays a plain anchor there, as Ajv reads it); 2019-09
 * ignores prefixItems; `items` as an array (with `additionalItems`) is a tuple before 2020-12
 * and invalid in it. `dependencies` is applied in every dialect (and read everywhere as the two
 * keywords it was split into).
 */
const SENSITIVE: ReadonlySet<string> = new Set([
  // Not a keyword of 2019-09 or 2020-12 by their specifications, but Ajv applies it in every
  // dialect: rewritten as the two keywords it splits into, it is decided like them.
  'dependencies',
  ...Object.values(IGNORED).flat(),
]);

/** The sensitive keys as JSON text writes them, and `items` holding a list. */
const SENSITIVE_TEXT: readonly string[] = [
  ...[...SENSITIVE].map((k) => `${JSON.stringify(k)}:`),
  '"items":[',
];

/** Deeper than this, no reading is rewritten (the comparison itself then says the schema is too deep). */
const MAX_REWRITE_DEPTH = 200;

/**
 * Whether a schema uses a keyword that means something else in another dialect, found by
 * walkJson (the schema may be hostile); false too when it nests too deep to rewrite.
 */
export function dialectSensitive(schema: Schema): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  // A key is written as itself in the JSON text (usually written already): a text naming none
  // of them is settled without a walk.
  const text = compactTextIfWritable(schema);
  if (text !== undefined && !SENSITIVE_TEXT.some((k) => text.includes(k))) return false;
  let found = false;
  const end = walkJson(
    schema,
    null,
    (node) => {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return null;
      for (const k of Object.keys(node))
        if (SENSITIVE.has(k) || (k === 'items' && Array.isArray((node as JsonObject)[k]))) found = true;
      return null;
    },
    // Any value deeper, scalars included, would be too deep to rewrite.
    { ...SCHEMA_BOUNDS, maxDepth: MAX_REWRITE_DEPTH },
  );
  return end === 'complete' && found;
}

// The subschemas a rewrite enters, as the keyword table says they are held (`items` apart,
// one or a list; `dependencies` is split before its maps are entered).
const MAPS: ReadonlySet<string> = new Set(keywordsWhere((k) => k.holds === 'map'));
const LISTS: ReadonlySet<string> = new Set(keywordsWhere((k) => k.holds === 'list'));
const ONE: ReadonlySet<string> = new Set(keywordsWhere((k) => k.holds === 'one'));

function isObject(v: Json | undefined): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Where a keyword of the rewrite stands in the schema as written: rewritten pointer → original. */
export type Renames = [string, string][];

/**
 * A schema written in `dialect`, rewritten so that read as 2020-12 it accepts exactly the values
 * the validator accepts under `dialect`: keywords that dialect ignores are dropped, a tuple
 * `items` becomes `prefixItems` (its `additionalItems` the new `items`), and `dependencies`
 * becomes the two keywords it was split into. Two schemas of different dialects are compared in
 * this one reading, so a `$schema` change that changes what a keyword means is judged as such.
 * `renames` collects where each renamed keyword came from, so findings point at the text.
 */
export function as2020(schema: Schema, dialect: Dialect, renames: Renames = []): Schema {
  const out = rewrite(schema, dialect, renames);
  return typeof out === 'object' ? { ...out, $schema: DIALECT_URI['2020-12'] } : out;
}

/** A pointer into a rewrite, led back to the keyword it was written as (the longest renamed prefix). */
export function originalPointer(pointer: string, renames: Renames): string {
  let best: [string, string] | undefined;
  for (const r of renames)
    if ((pointer === r[0] || pointer.startsWith(`${r[0]}/`)) && r[0].length > (best?.[0].length ?? -1))
      best = r;
  return best ? best[1] + pointer.slice(best[0].length) : pointer;
}

/**
 * Where the rewrite stands: at a schema (`at` its pointer in the rewrite, `was` where it was
 * written), or at a list or map of schemas (each member a schema at `at`/`was` and its key).
 */
interface Place {
  kind: 'schema' | 'members';
  at: string;
  was: string;
  /** Of a schema: the value as written, whose members are being placed. */
  node?: JsonObject;
}

/**
 * A schema and every subschema it holds read as 2020-12 (see as2020), by one walk (json-walk.ts):
 * each member is placed where the rewritten schema will hold it (`items` as written before
 * 2020-12 may become `prefixItems`, `additionalItems` the new `items`, a member of
 * `dependencies` one of `dependentSchemas`), subschemas are rewritten before the schema that
 * holds them, and every schema, list and map of schemas comes back a copy.
 */
function rewrite(node: Schema, dialect: Dialect, renames: Renames): Schema {
  const ignored = new Set(IGNORED[dialect]);
  const place = (value: unknown, key: string | number | undefined, outer: Place): Place | typeof SKIP => {
    if (outer.kind === 'members' && key !== undefined)
      return isObject(value as Json)
        ? {
            kind: 'schema',
            at: appendPointer(outer.at, key),
            was: appendPointer(outer.was, key),
            node: value as JsonObject,
          }
        : SKIP;
    if (outer.kind === 'members')
      return isObject(value as Json) ? { ...outer, kind: 'schema', node: value as JsonObject } : SKIP;
    const k = key as string;
    const n = outer.node as JsonObject;
    if (ignored.has(k)) return SKIP;
    const tuple = dialect !== '2020-12' && Array.isArray(n.items);
    // The keyword this member is held under once the schema is rewritten, and how it holds schemas.
    let as = k;
    if (tuple && k === 'items') as = 'prefixItems';
    else if (k === 'additionalItems') {
      if (!tuple) return SKIP;
      as = 'items';
    } else if (k === 'dependencies') {
      if (!isObject(value as Json)) return SKIP;
      const own =
        ignored.has('dependentRequired') ||
        (n.dependentRequired === undefined && n.dependentSchemas === undefined);
      const base = own ? '' : `/allOf/${Array.isArray(n.allOf) ? n.allOf.length : 0}`;
      return {
        kind: 'members',
        at: `${outer.at}${base}/dependentSchemas`,
        was: `${outer.was}${base}/dependentSchemas`,
      };
    }
    const at = appendPointer(outer.at, as);
    const was = appendPointer(outer.was, as);
    if (MAPS.has(as)) return isObject(value as Json) ? { kind: 'members', at, was } : SKIP;
    if (LISTS.has(as)) return Array.isArray(value) ? { kind: 'members', at, was } : SKIP;
    if (ONE.has(as) || as === 'items')
      return isObject(value as Json) ? { kind: 'schema', at, was, node: value as JsonObject } : SKIP;
    return SKIP;
  };
  return mapJson(
    node,
    { kind: 'members', at: '', was: '' } as Place,
    (value, key, _, outer) => place(value, key, outer),
    (value, _, here) => {
      if (here.kind === 'members')
        return Array.isArray(value) ? value.slice() : Object.fromEntries(Object.entries(value as JsonObject));
      return rewriteNode(value as JsonObject, dialect, here.at, here.was, renames);
    },
    WHOLE,
  ).value as Schema;
}

/** One schema read as 2020-12, its subschemas rewritten already: a copy. */
function rewriteNode(
  node: JsonObject,
  dialect: Dialect,
  at: string,
  was: string,
  renames: Renames,
): JsonObject {
  const s: JsonObject = { ...node };
  // A map its dialect ignores still tells callers that any key may be sent: `{}` keeps that
  // (the open-objects policy reads it as a map) and accepts what the ignored keyword did.
  if (dialect === 'draft-07' && isObject(s.unevaluatedProperties) && s.additionalProperties === undefined)
    s.additionalProperties = {};
  for (const k of IGNORED[dialect]) delete s[k];
  if (dialect !== '2020-12') {
    if (Array.isArray(s.items)) {
      s.prefixItems = s.items;
      // Both renames stand even for a keyword this side lacks: a finding about what the other
      // side had there points at the keyword this side would have written.
      renames.push([appendPointer(at, 'prefixItems'), appendPointer(was, 'items')]);
      renames.push([appendPointer(at, 'items'), appendPointer(was, 'additionalItems')]);
      if (s.additionalItems !== undefined) s.items = s.additionalItems;
      else delete s.items;
    }
    delete s.additionalItems;
  }
  if (dialect === '2019-09') recursiveAsDynamic(s);
  if (isObject(s.dependencies)) splitDependencies(s, at, was, renames);
  return s;
}

/** The anchor name a 2019-09 `$recursiveAnchor: true` is read as (Ajv names it "", which 2020-12 may not). */
const RECURSIVE_ANCHOR = '__recursive';

/**
 * 2019-09's `$recursiveAnchor`/`$recursiveRef` as the 2020-12 keywords Ajv runs them as (the
 * same code, under the anchor ""): 2020-12's meta-schema refuses `$recursiveAnchor: true`, and
 * the rewrite must stay a schema it accepts. A node that holds both kinds is left as it is.
 */
function recursiveAsDynamic(s: JsonObject): void {
  if (s.$recursiveAnchor !== undefined && s.$dynamicAnchor === undefined) {
    if (s.$recursiveAnchor === true) s.$dynamicAnchor = RECURSIVE_ANCHOR;
    if (typeof s.$recursiveAnchor === 'boolean') delete s.$recursiveAnchor;
  }
  if (typeof s.$recursiveRef === 'string' && s.$dynamicRef === undefined) {
    s.$dynamicRef = s.$recursiveRef === '#' ? `#${RECURSIVE_ANCHOR}` : s.$recursiveRef;
    delete s.$recursiveRef;
  }
}

/** `dependencies` as the validator splits it, added beside the node's own dependent* keywords. */
function splitDependencies(s: JsonObject, at: string, was: string, renames: Renames): void {
  const required: JsonObject = {};
  const schemas: JsonObject = {};
  for (const [k, v] of Object.entries(s.dependencies as JsonObject)) {
    setMember(Array.isArray(v) ? required : schemas, k, v);
  }
  delete s.dependencies;
  const part: JsonObject = {};
  if (Object.keys(required).length > 0) part.dependentRequired = required;
  if (Object.keys(schemas).length > 0) part.dependentSchemas = schemas;
  const own = s.dependentRequired === undefined && s.dependentSchemas === undefined;
  const base = own ? at : appendPointer(at, 'allOf', Array.isArray(s.allOf) ? s.allOf.length : 0);
  for (const k of ['dependentRequired', 'dependentSchemas'])
    renames.push([appendPointer(base, k), appendPointer(was, 'dependencies')]);
  if (Object.keys(part).length === 0) return;
  if (own) Object.assign(s, part);
  else s.allOf = [...(Array.isArray(s.allOf) ? s.allOf : []), part];
}
