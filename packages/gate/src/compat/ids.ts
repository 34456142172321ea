import uriModule from 'ajv/dist/runtime/uri.js';
import { compactText } from './json-text.ts';
import { SKIP, walkJson, WHOLE } from './json-walk.ts';
import { keywordsWhere } from './keywords.ts';
import { escapeSegment, pointerRef, refPointer, resolvePointer } from './pointer.ts';
import type { Json, JsonObject, Schema } from './types.ts';

/**
 * Keys whose values json-schema-traverse (Ajv's walk for ids and anchors) does not enter (the
 * keyword table's `skipped`).
 */
export const SKIPPED: ReadonlySet<string> = new Set(keywordsWhere((k) => k.skipped === true));
/** Keys whose value is a map of schemas, or a list of them (the keyword table's `holds`). */
const MAPS: ReadonlySet<string> = new Set(keywordsWhere((k) => k.holds === 'map'));
const LISTS: ReadonlySet<string> = new Set(
  keywordsWhere((k) => k.holds === 'list' || k.holds === 'one-or-list'),
);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Where a walk over schema positions stands (the pointer of the value it is at): a schema (its
 * keywords next), a list or map of schemas (each member a schema), or the root.
 */
export interface SchemaPlace {
  kind: 'schema' | 'members' | 'root';
  at: string;
  /** Of a list or map: the pointer of the schema that holds it. */
  holder?: string;
}

/**
 * How a walk over schema positions (as Ajv's walk enters them) reads a value, given where its
 * parent stands: the place for its members when it is a schema, or a list or map of them; SKIP
 * for anything else (a keyword whose value is data, a scalar).
 */
export function schemaPlace(
  value: unknown,
  key: string | number | undefined,
  outer: SchemaPlace,
): SchemaPlace | typeof SKIP {
  let at: string;
  if (outer.kind === 'schema') {
    const k = key as string;
    at = `${outer.at}/${escapeSegment(k)}`;
    if (Array.isArray(value)) return LISTS.has(k) ? { kind: 'members', at, holder: outer.at } : SKIP;
    if (MAPS.has(k)) return isObject(value) ? { kind: 'members', at, holder: outer.at } : SKIP;
    if (SKIPPED.has(k)) return SKIP;
  } else at = outer.kind === 'root' ? '' : `${outer.at}/${escapeSegment(key as string | number)}`;
  return isObject(value) ? { kind: 'schema', at } : SKIP;
}

/** The place a walk over schema positions starts from. */
export const ROOT_PLACE: SchemaPlace = { kind: 'root', at: '' };

/**
 * Every schema position of a document as Ajv's walk enters them, with its pointer and the
 * pointer of the schema it stands in (undefined for the root), parents before their children.
 */
export function eachSchema(
  root: Json,
  visit: (node: JsonObject, at: string, parent: string | undefined, key: string) => void,
): void {
  walkJson(
    root,
    ROOT_PLACE,
    (value, key, _, outer) => {
      const place = schemaPlace(value, key, outer);
      if (place === SKIP) return SKIP;
      if (place.kind === 'schema')
        visit(
          value as JsonObject,
          place.at,
          outer.kind === 'schema' ? outer.at : outer.holder,
          String(key ?? ''),
        );
      return place;
    },
    WHOLE,
  );
}

// Ajv's own URI resolver (fast-uri), so that a reference resolves here as it does there.
const uri = ((uriModule as unknown as { default?: unknown }).default ?? uriModule) as {
  resolve(base: string, ref: string): string;
};

/** As Ajv normalises an id or a reference: a trailing `#` or `#/` says nothing. */
const normalizeId = (id: string): string => id.replace(/#\/?$/, '');
const resolveUrl = (base: string, ref: string): string =>
  base ? uri.resolve(base, normalizeId(ref)) : normalizeId(ref);
/** Ajv's test of a plain name (`$anchor`); it refuses a document with any other. */
const ANCHOR = /^[a-z_][-a-z0-9._]*$/i;
/**
 * Member names at which Ajv's reading of a pointer does not take a schema's `$id` as a new base
 * (see getJsonPointer in Ajv's compile/index.ts); a schema with an `$id` standing under such
 * a name is read here otherwise, so such a document is left as written. Not a keyword property,
 * so not from the keyword table: `enum` is among them.
 */
const PREVENT_SCOPE_CHANGE = new Set([
  'properties',
  'patternProperties',
  'enum',
  'dependencies',
  'definitions',
]);
/** Keywords read through the dynamic scope (the keyword table's `dynamic`). */
export const DYNAMIC = keywordsWhere((k) => k.dynamic === true);

const resolved = new WeakMap<object, Schema>();

/**
 * The document with every reference that Ajv resolves through an `$id` (the root's, or one
 * below it that sets a new base: `other.json#/x`, `#foo` within a resource, an absolute URI
 * naming the root) written as the local JSON Pointer of the schema Ajv resolves it to, and the
 * ids and anchors that only named places dropped. Nothing else changes, so the validator
 * reads the result value for value as the document as written.
 *
 * The document comes back as written when there is nothing to rewrite, and when a reference
 * leads outside the document (then it stays unresolvable, unknown with its reason), or where Ajv
 * would refuse or read it otherwise: an id or anchor given twice or malformed, a dynamic
 * keyword (whose meaning depends on the resources a value passes through), a draft-07 `$ref`
 * beside an `$id` (which the dialect ignores), an `$id` under a name Ajv reads specially.
 */
export function resolveIds(schema: Schema, draft07: boolean): Schema {
  if (!isObject(schema)) return schema;
  const known = resolved.get(schema);
  if (known !== undefined) return known;
  // A key is written as itself in the JSON text (usually written already): most documents have
  // no `$id` at all, and are settled without a walk.
  const out = (compactText(schema).includes('"$id"') && resolveOnce(schema, draft07)) || schema;
  resolved.set(schema, out);
  return out;
}

function resolveOnce(root: JsonObject, draft07: boolean): Schema | undefined {
  // Bases by pointer; resources (URI without fragment) and anchors (URI#name) by where they are.
  const bases = new Map<string, string>();
  const places = new Map<string, string>();
  let needed = false;
  let refused = false;
  const claim = (key: string, at: string): void => {
    if (places.has(key) && places.get(key) !== at) refused = true;
    places.set(key, at);
  };
  const rootBase = typeof root.$id === 'string' ? normalizeId(root.$id) : '';
  eachSchema(root, (node, at, parent, key) => {
    if (refused) return;
    let base = parent === undefined ? rootBase : (bases.get(parent) as string);
    if (DYNAMIC.some((k) => node[k] !== undefined)) refused = true;
    const id = node.$id;
    if (typeof id === 'string') {
      if (parent !== undefined) needed = true;
      if (draft07 && node.$ref !== undefined) refused = true;
      if (PREVENT_SCOPE_CHANGE.has(key)) refused = true;
      const hash = id.indexOf('#');
      if (draft07 && id.startsWith('#')) {
        if (!ANCHOR.test(id.slice(1))) refused = true;
        claim(`${base}${id}`, at);
      } else if (hash >= 0 && hash < id.length - 1) refused = true;
      else {
        base = parent === undefined ? base : resolveUrl(base, id);
        claim(base, at);
      }
    } else if (id !== undefined) refused = true;
    if (node.$anchor !== undefined) {
      if (typeof node.$anchor !== 'string' || !ANCHOR.test(node.$anchor)) refused = true;
      else claim(`${base}#${node.$anchor}`, at);
    }
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) needed = true;
    bases.set(at, base);
  });
  if (refused || !needed) return undefined;
  claim(rootBase, '');
  if (refused) return undefined;
  const targetOf = (ref: string, base: string): string | undefined => {
    const full = resolveUrl(base, ref);
    const hash = full.indexOf('#');
    const [resource, fragment] = hash < 0 ? [full, ''] : [full.slice(0, hash), full.slice(hash + 1)];
    if (fragment === '' || fragment.startsWith('/')) {
      const start = places.get(resource);
      const rest = fragment === '' ? '' : refPointer(`#${fragment}`);
      if (start === undefined || rest === undefined) return undefined;
      const target = `${start}${rest}`;
      return resolvePointer(root, target).found ? target : undefined;
    }
    return places.get(`${resource}#${fragment}`);
  };
  let unresolved = false;
  const define = (o: JsonObject, k: string, v: Json): void => {
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  };
  /** A node copied, its references rewritten, its maps and lists copied once for its children. */
  const rewrite = (node: JsonObject, at: string): JsonObject => {
    const copy: JsonObject = {};
    for (const k of Object.keys(node)) {
      let v = node[k] as Json;
      if (k === '$id' || k === '$anchor') continue;
      if (k === '$ref' && typeof v === 'string') {
        const target = targetOf(v, bases.get(at) as string);
        if (target === undefined) unresolved = true;
        else v = pointerRef(target);
      } else if (Array.isArray(v) && LISTS.has(k)) v = v.slice();
      else if (isObject(v) && MAPS.has(k)) v = { ...v };
      define(copy, k, v);
    }
    return copy;
  };
  // Every schema position rewritten, parents first, each into its copied parent.
  const copies = new Map<string, JsonObject>();
  let top: JsonObject | undefined;
  eachSchema(root, (node, at, parent, key) => {
    const copy = rewrite(node, at);
    copies.set(at, copy);
    if (parent === undefined) {
      top = copy;
      return;
    }
    // Between parent and child: "/keyword", or "/keyword/member" into a map or list.
    const parentCopy = copies.get(parent) as JsonObject;
    const steps = at.slice(parent.length + 1).split('/');
    const keyword = unescape(steps[0] as string);
    if (steps.length === 1) define(parentCopy, keyword, copy);
    else {
      const holder = parentCopy[keyword];
      if (Array.isArray(holder)) holder[Number(key)] = copy;
      else if (isObject(holder)) define(holder, key, copy);
    }
  });
  return unresolved ? undefined : top;
}

const unescape = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');
