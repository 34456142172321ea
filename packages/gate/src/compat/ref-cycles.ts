import { SCHEMA_BOUNDS } from './bounds.ts';
import { compactTextIfWritable } from './json-text.ts';
import { walkJson } from './json-walk.ts';
import { refPointer, resolvePointer } from './pointer.ts';
import type { Json, JsonObject, Schema } from './types.ts';

/** Keywords that apply their subschemas to the same value, not to a part of it. */
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'];
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_MAP = ['dependentSchemas'];

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The local references a schema applies to the value it is given, through in-place keywords. */
function inPlaceRefs(node: Json | undefined): string[] {
  const out: string[] = [];
  const stack: (Json | undefined)[] = [node];
  while (stack.length > 0) {
    const s = stack.pop();
    if (!isObject(s)) continue;
    if (typeof s.$ref === 'string' && s.$ref.startsWith('#')) out.push(s.$ref);
    for (const k of IN_PLACE_ONE) stack.push(s[k]);
    // One push per member: spreading a long array into push() would overflow the stack itself.
    for (const k of IN_PLACE_LIST) if (Array.isArray(s[k])) for (const x of s[k] as Json[]) stack.push(x);
    for (const k of IN_PLACE_MAP)
      if (isObject(s[k])) for (const x of Object.values(s[k] as JsonObject)) stack.push(x);
  }
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
