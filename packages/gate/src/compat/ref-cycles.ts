import { SCHEMA_BOUNDS } from './bounds.ts';
import { compactTextIfWritable } from './json-text.ts';
import { SKIP, walkJson, WHOLE } from './json-walk.ts';
import { KEYWORDS, keywordsWhere, type Keyword } from './keywords.ts';
import { refPointer, resolvePointer } from './pointer.ts';
import type { Json, JsonObject, Schema } from './types.ts';

/**
 * Keywords that apply their subschemas to the same value, not to a part of it (the keyword
 * table's `inPlace`): those holding one schema, then lists, then maps, the order the search
 * meets references in.
 */
export const IN_PLACE: readonly string[] = (['one', 'list', 'map'] as const).flatMap((holds) =>
  keywordsWhere((k) => k.inPlace !== undefined && k.holds === holds),
);
const IN_PLACE_HOLDS: ReadonlyMap<string, Keyword['holds']> = new Map(
  IN_PLACE.map((name) => [name, KEYWORDS[name]?.holds]),
);

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Where a walk over in-place subschemas stands: at a schema (its in-place keywords are walked
 * next), or at the root or a list or map of schemas (each member is a schema).
 */
type Place = 'schema' | 'members';
const inPlaceMembers = (place: Place): readonly string[] | undefined =>
  place === 'schema' ? IN_PLACE : undefined;

/** The local references a schema applies to the value it is given, through in-place keywords. */
function inPlaceRefs(node: Json | undefined): string[] {
  const out: string[] = [];
  walkJson(
    node,
    'members' as Place,
    (v, key, _, place): Place | typeof SKIP => {
      if (place === 'schema') {
        const holds = IN_PLACE_HOLDS.get(key as string);
        if (holds === 'list') return Array.isArray(v) ? 'members' : SKIP;
        if (holds === 'map') return isObject(v) ? 'members' : SKIP;
      }
      if (!isObject(v)) return SKIP;
      if (typeof v.$ref === 'string' && v.$ref.startsWith('#')) out.push(v.$ref);
      return 'schema';
    },
    WHOLE,
    inPlaceMembers,
  );
  return out;
}

/** Every local `$ref` string anywhere in the document, the starting points of the search. */
function allRefs(schema: Schema): string[] {
  const out = new Set<string>();
  walkJson(
    schema,
    null,
    (v) => {
      if (isObject(v as Json) && typeof (v as JsonObject).$ref === 'string') {
        const ref = (v as JsonObject).$ref as string;
        if (ref.startsWith('#')) out.add(ref);
      }
      return null;
    },
    SCHEMA_BOUNDS,
  );
  return [...out];
}

function target(schema: Schema, ref: string): Json | undefined {
  const pointer = refPointer(ref);
  if (pointer === undefined) return undefined;
  const { found, value } = resolvePointer(schema, pointer);
  return found ? (value as Json) : undefined;
}

/**
 * A local reference that leads back to itself without the validator reading any part of the
 * value on the way (`{"$defs": {"Loop": {"$ref": "#/$defs/Loop"}}}`, or through `allOf`), found
 * with an explicit stack; undefined when there is none. No validator can apply such a schema:
 * Ajv overflows its stack compiling the document, or validating any value that reaches it, so
 * wherever it sits, reached or not, the schema proves nothing either way.
 */
export function refCycle(schema: Schema): string | undefined {
  // A key is written as itself in the JSON text (usually written already): most documents
  // have no reference at all, and are settled without a walk.
  if (compactTextIfWritable(schema)?.includes('"$ref"') === false) return undefined;
  const edges = new Map<string, string[]>();
  const next = (ref: string): string[] => {
    let out = edges.get(ref);
    if (!out) {
      out = inPlaceRefs(target(schema, ref));
      edges.set(ref, out);
    }
    return out;
  };
  // Colours of an iterative depth-first search: 1 on the current path, 2 finished.
  const colour = new Map<string, 1 | 2>();
  for (const start of allRefs(schema)) {
    if (colour.has(start)) continue;
    const path: { ref: string; rest: string[] }[] = [{ ref: start, rest: [...next(start)] }];
    colour.set(start, 1);
    while (path.length > 0) {
      const top = path[path.length - 1] as { ref: string; rest: string[] };
      const ref = top.rest.pop();
      if (ref === undefined) {
        colour.set(top.ref, 2);
        path.pop();
        continue;
      }
      const c = colour.get(ref);
      if (c === 1) return ref;
      if (c === 2) continue;
      colour.set(ref, 1);
      path.push({ ref, rest: [...next(ref)] });
    }
  }
  return undefined;
}
