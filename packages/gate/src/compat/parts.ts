import { blocksRewrite } from './definitions.ts';
import { fnv1a } from './hash.ts';
import type { Json, JsonObject, Schema } from './types.ts';
import { STOP, walkJson, WHOLE } from './json-walk.ts';
import { mapApplied } from './keywords.ts';

/**
 * Wide keywords handed to the validator in shared parts. Ajv builds a schema into one function
 * per document: the two sides of a change, which mostly say the same thing (999 of 1,000 oneOf
 * branches, 10,000 properties of which one became required), are each built in full. Here the
 * members of a wide `anyOf`, `allOf` or `properties` are cut into parts, each registered with the
 * validator under an id made from its content and referenced by `$ref`: a part both sides hold
 * is built once. Validity is the same value for value, since
 *
 * - `anyOf` and `allOf` are associative: `anyOf: [a, b, c, d]` accepts what
 *   `anyOf: [{anyOf: [a, b]}, {anyOf: [c, d]}]` accepts, and so for `allOf`;
 * - `properties` applies each member to its own key and nothing else, so beside no
 *   `additionalProperties` (the one sibling that reads which keys it names) it is the `allOf`
 *   of its parts;
 * - a member only moves when its meaning cannot depend on where it stands: it holds no keyword
 *   that names or scopes a location (`$ref` other than to an id the validator holds, `$id`,
 *   `$anchor`, `$dynamic*`, `$recursive*`, `$schema`, any other `$` keyword);
 * - and nothing is cut in a schema where a keyword could see the cut: `unevaluated*` (which reads
 *   what the parts evaluated), a dynamic or scoped reference, a `$ref` by pointer into a place
 *   that moves, or `contains`, which Ajv 8 decides with the shape of the code (see worthCutting).
 *
 * That the validator answers alike with and without parts is also checked value by value: cut
 * at two members a part over the fuzzer's seeds and mutated pairs, 0 values of some hundreds of
 * thousands were answered otherwise once `contains` was left whole.
 *
 * Where a part is cut depends on its members' content alone (a member ends a part when a hash
 * of its text says so), not on positions: removing one branch of 1,000 changes the part that
 * held it and leaves the others as they were, so they are found already built.
 */

/** Fewer members than this are handed over as written. */
const MIN_MEMBERS = 16;
/** A member ends a part when its hash is 0 modulo this: parts of this many members on average. */
const AVERAGE_PART = 16;
/** No part holds more members than this, whatever the hashes say. */
const MAX_PART = 64;
/** Ids the validator was given by the gate: a reference to one means the same wherever it stands. */
export const PART_BASE = 'https://warden.invalid/';

/** Registers a part with the validator and gives its id; undefined when it cannot take more. */
export type RegisterPart = (part: JsonObject, text: string) => string | undefined;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Whether a schema has anything to cut: a keyword wide enough (see MIN_MEMBERS), and nothing
 * that could see the cut, which is `unevaluatedProperties` or `unevaluatedItems` (they read what
 * other keywords evaluated), a keyword that scopes or resolves references dynamically, or a
 * `$ref` by JSON Pointer into anything but the root's definitions (never cut): `#/anyOf/3`
 * would lead elsewhere once the anyOf is cut. Walked by walkJson.
 */
function worthCutting(schema: Json): boolean {
  let wide = false;
  const end = walkJson(
    schema,
    null,
    (v) => {
      if (!isObject(v)) return null;
      for (const k of Object.keys(v)) {
        // Ajv 8 decides `contains` differently with the shape of the code around it (a result
        // kept from the array before it, when the next array is empty): cutting the schema could
        // change what the validator answers, not only how fast, so nothing beside it is cut.
        if (blocksRewrite(k) || (k === '$ref' && !steadyRef(v[k]))) return STOP;
        if (k !== 'anyOf' && k !== 'allOf' && k !== 'properties') continue;
        const m = v[k];
        if ((Array.isArray(m) ? m.length : isObject(m) ? Object.keys(m).length : 0) >= MIN_MEMBERS)
          wide = true;
      }
      return null;
    },
    WHOLE,
  );
  return end === 'complete' && wide;
}

/** A reference that leads to the same schema however the document's wide keywords are cut. */
function steadyRef(ref: Json | undefined): boolean {
  if (typeof ref !== 'string') return false;
  if (ref.startsWith(PART_BASE)) return true;
  return ref === '#' || ref.startsWith('#/$defs/') || ref.startsWith('#/definitions/');
}

/**
 * Whether a member means the same wherever it stands (see the top of this file), given its
 * JSON text: a text without `"$` holds no `$` keyword, which settles most members at once.
 */
function movable(member: Json, text: string): boolean {
  if (!text.includes('"$')) return true;
  const end = walkJson(
    member,
    null,
    (v) => {
      if (!isObject(v)) return null;
      for (const k of Object.keys(v)) {
        if (!k.startsWith('$') || k === '$comment') continue;
        const ref = v[k];
        if (k === '$ref' && typeof ref === 'string' && ref.startsWith(PART_BASE)) continue;
        return STOP;
      }
      return null;
    },
    WHOLE,
  );
  return end === 'complete';
}

/**
 * Members cut into runs by their content: a member whose text hashes to 0 modulo AVERAGE_PART
 * ends a run, and so does the MAX_PART-th member of one.
 */
function cut<T>(members: T[], texts: string[]): { members: T[]; texts: string[] }[] {
  const runs: { members: T[]; texts: string[] }[] = [];
  let run: { members: T[]; texts: string[] } = { members: [], texts: [] };
  for (const [i, m] of members.entries()) {
    const text = texts[i] as string;
    run.members.push(m);
    run.texts.push(text);
    if (fnv1a(text) % AVERAGE_PART === 0 || run.members.length >= MAX_PART) {
      runs.push(run);
      run = { members: [], texts: [] };
    }
  }
  if (run.members.length > 0) runs.push(run);
  return runs;
}

/**
 * A list of movable members as references to registered parts, each `{[keyword]: run}`, cut
 * again while more than MAX_PART references remain (parts of parts). Undefined when the
 * validator would take no more parts.
 */
function asParts(
  keyword: 'anyOf' | 'allOf',
  members: Json[],
  memberTexts: string[],
  register: RegisterPart,
): Json[] | undefined {
  let level = members;
  let texts = memberTexts;
  for (;;) {
    const refs: Json[] = [];
    const refTexts: string[] = [];
    for (const run of cut(level, texts)) {
      const text = `{${JSON.stringify(keyword)}:[${run.texts.join(',')}]}`;
      const id = register({ [keyword]: run.members }, text);
      if (id === undefined) return undefined;
      const ref = { $ref: id };
      refs.push(ref);
      refTexts.push(JSON.stringify(ref));
    }
    if (refs.length <= MAX_PART) return refs;
    level = refs;
    texts = refTexts;
  }
}

/** A `properties` map as references to registered parts, each `{properties: run}`, for an allOf. */
function propertyParts(
  entries: [string, Json][],
  valueTexts: string[],
  register: RegisterPart,
): Json[] | undefined {
  const texts = entries.map(([k], i) => `${JSON.stringify(k)}:${valueTexts[i] as string}`);
  const refs: Json[] = [];
  for (const run of cut(entries, texts)) {
    // additionalProperties: true accepts what it did without it, and tells the validator that
    // the part evaluated every key: else it merges the names each part evaluated into one set
    // part by part while it builds the schema, which is quadratic (10,000 properties: 0.4 s).
    const part = { properties: Object.fromEntries(run.members) as JsonObject, additionalProperties: true };
    const id = register(part, `{"properties":{${run.texts.join(',')}},"additionalProperties":true}`);
    if (id === undefined) return undefined;
    refs.push({ $ref: id });
  }
  // Many parts: their references in turn, as an allOf of parts.
  return refs.length > MAX_PART
    ? asParts(
        'allOf',
        refs,
        refs.map((r) => JSON.stringify(r)),
        register,
      )
    : refs;
}

/** A node's wide keywords as parts (its subschemas are rewritten first: see shareParts). */
function rewrite(node: JsonObject, register: RegisterPart): JsonObject {
  let out: JsonObject | undefined;
  // A node that refers elsewhere is handed over as it stands: its siblings are read by dialect.
  if ('$ref' in node) return node;
  for (const k of ['anyOf', 'allOf'] as const) {
    const l = node[k];
    if (!Array.isArray(l) || l.length < MIN_MEMBERS) continue;
    const texts = l.map((m) => JSON.stringify(m));
    const moves = l.map((m, i) => movable(m, texts[i] as string));
    const moving = l.filter((_, i) => moves[i]);
    if (moving.length < MIN_MEMBERS) continue;
    const parts = asParts(
      k,
      moving,
      texts.filter((_, i) => moves[i]),
      register,
    );
    if (parts === undefined) continue;
    (out ??= { ...node })[k] = [...parts, ...l.filter((_, i) => !moves[i])];
  }
  const props = node.properties;
  const open = node.additionalProperties === undefined || node.additionalProperties === true;
  if (open && isObject(props) && Object.keys(props).length >= MIN_MEMBERS) {
    const entries = Object.entries(props) as [string, Json][];
    const texts = entries.map(([, v]) => JSON.stringify(v));
    const moves = entries.map(([, v], i) => movable(v, texts[i] as string));
    const moving = entries.filter((_, i) => moves[i]);
    const parts =
      moving.length >= MIN_MEMBERS
        ? propertyParts(
            moving,
            texts.filter((_, i) => moves[i]),
            register,
          )
        : undefined;
    if (parts !== undefined) {
      const staying = entries.filter((_, i) => !moves[i]);
      const o = (out ??= { ...node });
      if (staying.length > 0) o.properties = Object.fromEntries(staying) as JsonObject;
      else delete o.properties;
      o.allOf = [...(Array.isArray(o.allOf) ? o.allOf : []), ...parts];
    }
  }
  return out ?? node;
}

/**
 * The schema with its wide keywords as shared parts (see the top of this file); the schema
 * itself when nothing is wide enough, or when an `unevaluated*` keyword could read across parts.
 */
export function shareParts(schema: Schema, register: RegisterPart): Schema {
  if (!isObject(schema) || !worthCutting(schema)) return schema;
  return mapApplied(schema, (node) => rewrite(node, register)) as Schema;
}
