import { eachSchema, resolveIds, ROOT_PLACE, schemaPlace } from './ids.ts';
import { mapJson, WHOLE } from './json-walk.ts';
import { pointerRef, refPointer, resolvePointer } from './pointer.ts';
import { compactTextIfWritable } from './json-text.ts';
import { keywordsWhere, TEXT_KEYWORDS } from './keywords.ts';
import { setMember } from './own.ts';
import type { Json, JsonObject, Schema } from './types.ts';
import type { Dialect } from './validator.ts';

/**
 * A document as the validator (Ajv 8) applies it, in the plain keywords the walk decides:
 *
 * - OpenAPI's `nullable: true` beside `type` admits null (Ajv adds "null" to the types; it
 *   refuses `nullable` without `type`, and `nullable: false` beside a type that holds null, so
 *   those are left for the compile to refuse);
 * - a `$ref` to a plain-name fragment (`#node`) becomes the pointer of the one schema that
 *   carries that `$anchor` or `$dynamicAnchor`, when no schema below the root has its own `$id`
 *   (which would scope the names);
 * - a reference through an `$id` (`other.json#/x`, an anchor within a nested resource) becomes
 *   the pointer of the schema Ajv resolves it to (see ids.ts);
 * - a `$dynamicRef` or `$recursiveRef` whose anchor the root itself carries becomes `$ref: "#"`:
 *   Ajv resolves it through the outermost schema that carries the anchor on the way to it, and
 *   the root is always the outermost (measured in each of Ajv's configurations, references
 *   inlined or not, first error or all), and so does one whose anchor no schema Ajv compiles
 *   carries, outside every `$ref` target. Only a reference with nothing but text beside it is
 *   so read: without allErrors, Ajv's code for a dynamic reference leaves the keywords beside it
 *   unchecked, and with it checks them. Any other dynamic reference is left as it is and named
 *   in `dynamic`: what it means depends on the path a value takes, which the gate does not follow.
 *
 * Once no reference by name is left, `$anchor`, `$dynamicAnchor` and `$recursiveAnchor` are
 * dropped: they mean nothing but a name to refer to. The document is copied only where it
 * changes; pointers into it stay pointers into the document as written.
 */
export interface Applied {
  schema: Schema;
  /** A dynamic reference left as written, and where. */
  dynamic?: { keyword: string; ref: string; at: string };
}

/** References resolved through the dynamic scope (the keyword table's `dynamic` references). */
export const DYNAMIC_REFS = keywordsWhere((k) => k.dynamic === true && k.role === 'reference');
const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface Scan {
  anchors: Map<string, string[]>;
  nestedId: boolean;
  /** Whether anything asks for a rewrite: nullable, a reference by name, a dynamic keyword. */
  needed: boolean;
}

function scan(root: Schema): Scan {
  const out: Scan = { anchors: new Map(), nestedId: false, needed: false };
  eachSchema(root as Json, (node, at) => {
    if (at !== '' && node.$id !== undefined) out.nestedId = true;
    for (const k of ['$anchor', '$dynamicAnchor']) {
      const name = node[k];
      if (typeof name !== 'string') continue;
      out.anchors.set(name, [...(out.anchors.get(name) ?? []), at]);
    }
    if (
      node.nullable !== undefined ||
      node.$anchor !== undefined ||
      node.$dynamicAnchor !== undefined ||
      node.$recursiveAnchor !== undefined ||
      DYNAMIC_REFS.some((k) => node[k] !== undefined) ||
      (typeof node.$ref === 'string' && /^#[^/]/.test(node.$ref))
    )
      out.needed = true;
  });
  return out;
}

/** Where a local reference leads, as a pointer: by JSON Pointer or by a name one schema carries. */
function targetOf(ref: string, found: Scan): string | undefined {
  if (/^#[^/]/.test(ref)) {
    const places = found.nestedId ? undefined : found.anchors.get(ref.slice(1));
    return places?.length === 1 ? places[0] : undefined;
  }
  return refPointer(ref);
}

/** Every place a `$ref` of the document leads to; undefined when one leads somewhere unknown. */
function refTargets(root: JsonObject, found: Scan): string[] | undefined {
  const out: string[] = [];
  let unknown = false;
  eachSchema(root, (node) => {
    if (node.$ref === undefined) return;
    const t = typeof node.$ref === 'string' ? targetOf(node.$ref, found) : undefined;
    if (t === undefined) unknown = true;
    else out.push(t);
  });
  return unknown ? undefined : out;
}

/**
 * The dynamic anchors (`""` for `$recursiveAnchor: true`) of the schemas Ajv compiles: those the
 * root reaches through its keywords and references, definitions nothing reaches left out
 * (Ajv compiles none of them). Undefined when a reference leads somewhere unknown.
 */
function compiledAnchors(root: JsonObject, found: Scan): Set<string> | undefined {
  const anchors = new Set<string>();
  const seen = new Set<string>();
  const queue: [Json, string][] = [];
  const visit = (node: JsonObject): boolean => {
    if (typeof node.$dynamicAnchor === 'string') anchors.add(node.$dynamicAnchor);
    if (node.$recursiveAnchor === true) anchors.add('');
    if (node.$ref === undefined) return true;
    const t = typeof node.$ref === 'string' ? targetOf(node.$ref, found) : undefined;
    if (t === undefined) return false;
    // The root's own keywords are walked already.
    if (t !== '' && !seen.has(t)) {
      seen.add(t);
      const { found: ok, value } = resolvePointer(root, t);
      if (!ok) return false;
      queue.push([value as Json, t]);
    }
    return true;
  };
  let ok = true;
  const body: JsonObject = { ...root };
  delete body.$defs;
  delete body.definitions;
  eachSchema(body, (node) => {
    ok &&= visit(node);
  });
  while (ok && queue.length > 0) {
    const [node] = queue.pop() as [Json, string];
    eachSchema(node, (n) => {
      ok &&= visit(n);
    });
  }
  return ok ? anchors : undefined;
}

/** `nullable` folded into `type` where Ajv's reading of it is fixed; the node itself otherwise. */
function foldNullable(node: JsonObject): JsonObject {
  if (node.nullable === undefined) return node;
  const types = typeof node.type === 'string' ? [node.type] : node.type;
  if (
    !Array.isArray(types) ||
    types.length === 0 ||
    !types.every((t) => typeof t === 'string' && JSON_TYPES.has(t))
  )
    return node; // no type (or an invalid one): Ajv refuses it, and so does the compile
  const hasNull = types.includes('null');
  if (typeof node.nullable !== 'boolean' || (hasNull && node.nullable === false)) return node; // refused likewise
  const out = { ...node };
  delete out.nullable;
  if (node.nullable && !hasNull) out.type = [...(types as string[]), 'null'];
  return out;
}

/** What scan() finds needed, as JSON text writes it: a key, or a `$ref` by name. */
const NEEDS_TEXT =
  /"(?:nullable|\$anchor|\$dynamicAnchor|\$recursiveAnchor|\$dynamicRef|\$recursiveRef)":|"\$ref":"#[^/"]/;

/** The document as Ajv applies it (see Applied). */
export function asApplied(written: Schema, dialect: Dialect): Applied {
  if (!isObject(written)) return { schema: written };
  const schema = resolveIds(written, dialect === 'draft-07') as JsonObject;
  // A key is written as itself in the JSON text (usually written already): a text that names
  // nothing scan() looks for is settled without a walk.
  const text = compactTextIfWritable(schema);
  if (text !== undefined && !NEEDS_TEXT.test(text)) return { schema };
  const found = scan(schema);
  if (!found.needed) return { schema };
  const dynamicApplies = dialect !== 'draft-07';
  const rootAnchors = new Set<string>();
  if (typeof schema.$dynamicAnchor === 'string') rootAnchors.add(schema.$dynamicAnchor);
  if (schema.$recursiveAnchor === true) rootAnchors.add('');
  const compiled = dynamicApplies ? compiledAnchors(schema, found) : undefined;
  const targets = dynamicApplies ? refTargets(schema, found) : undefined;
  // Where Ajv sends a dynamic reference: to the root when the root carries its anchor; to the
  // function it is compiled in when no schema Ajv compiles carries it, which is the root's when
  // no `$ref` leads into the place that holds it (each `$ref` target may be a function of its own).
  const toRoot = (anchor: string, at: string): boolean =>
    rootAnchors.has(anchor) ||
    (compiled !== undefined &&
      !compiled.has(anchor) &&
      targets !== undefined &&
      !targets.some((t) => t !== '' && (at === t || at.startsWith(`${t}/`))));
  let dynamic: Applied['dynamic'];
  let byName = false;
  const rewrite = (node: JsonObject, at: string): JsonObject => {
    let out = foldNullable(node);
    if (typeof out.$ref === 'string' && /^#[^/]/.test(out.$ref)) {
      const places = found.nestedId ? undefined : found.anchors.get(out.$ref.slice(1));
      if (places?.length === 1) out = { ...out, $ref: pointerRef(places[0] as string) };
      else byName = true;
    }
    for (const k of DYNAMIC_REFS) {
      const ref = out[k];
      if (ref === undefined || !dynamicApplies) continue;
      if (
        typeof ref === 'string' &&
        ref.startsWith('#') &&
        toRoot(ref.slice(1), at) &&
        Object.keys(out).every((key) => key === k || TEXT_KEYWORDS.has(key))
      ) {
        const copy: JsonObject = {};
        for (const key of Object.keys(out))
          setMember(copy, key === k ? '$ref' : key, key === k ? '#' : (out[key] as Json));
        out = copy;
      } else dynamic ??= { keyword: k, ref: String(ref), at };
    }
    return out;
  };
  let result = mapSchemas(schema, rewrite) as JsonObject;
  if (!byName && dynamic === undefined) {
    result = mapSchemas(result, (node) => {
      if (
        node.$anchor === undefined &&
        node.$dynamicAnchor === undefined &&
        (node.$recursiveAnchor === undefined || !dynamicApplies)
      )
        return node;
      const out = { ...node };
      delete out.$anchor;
      delete out.$dynamicAnchor;
      if (dynamicApplies) delete out.$recursiveAnchor;
      return out;
    }) as JsonObject;
  }
  return dynamic === undefined ? { schema: result } : { schema: result, dynamic };
}

/**
 * `f` applied to every schema position (children first, in document order, as Ajv's walk
 * enters them: see schemaPlace), copying only what changes.
 */
function mapSchemas(node: Json, f: (node: JsonObject, at: string) => JsonObject): Json {
  return mapJson(
    node,
    ROOT_PLACE,
    (value, key, _, outer) => schemaPlace(value, key, outer),
    (value, _, place) => (place.kind === 'schema' ? f(value as JsonObject, place.at) : value),
    WHOLE,
  ).value as Json;
}
