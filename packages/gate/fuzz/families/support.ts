import { clone, isObject, type Json, type JsonObject } from '../json.ts';
import type { Rng } from '../prng.ts';
import { at, setAt, slots, type Path } from '../walk.ts';

/**
 * One kind of edit. It may first prepare `base` (the old side: give it a map, a pattern, a
 * conditional to change), then returns the new side derived from it, or undefined when it does
 * not apply to this seed.
 */
export type Kind = (rng: Rng, base: JsonObject) => JsonObject | undefined;

/** A named family of edits about one keyword or area of the gate. */
export interface Family {
  name: string;
  kinds: Kind[];
}

export type TypeName = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** The types a schema declares, or the ones its keywords suggest when it declares none. */
export function typesOf(node: JsonObject): TypeName[] {
  const t = node.type;
  if (typeof t === 'string') return [t as TypeName];
  if (Array.isArray(t)) return t.filter((x): x is TypeName => typeof x === 'string');
  const out: TypeName[] = [];
  if (
    ['properties', 'additionalProperties', 'patternProperties', 'required', 'propertyNames'].some((k) =>
      Object.hasOwn(node, k),
    )
  )
    out.push('object');
  if (['items', 'prefixItems', 'contains', 'minItems', 'maxItems'].some((k) => Object.hasOwn(node, k)))
    out.push('array');
  if (['minLength', 'maxLength', 'pattern', 'format'].some((k) => Object.hasOwn(node, k))) out.push('string');
  if (
    ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) =>
      Object.hasOwn(node, k),
    )
  )
    out.push('number');
  return out;
}

export const isObjectLike = (n: JsonObject): boolean => typesOf(n).includes('object');
export const isArrayLike = (n: JsonObject): boolean => typesOf(n).includes('array');
export const isStringLike = (n: JsonObject): boolean => typesOf(n).includes('string');
export const isNumberLike = (n: JsonObject): boolean =>
  typesOf(n).some((t) => t === 'number' || t === 'integer');

/** The dialect a document names: 'draft-07' (06 too), '2019-09', '2020-12', or undefined. */
export function docDialect(doc: JsonObject): 'draft-07' | '2019-09' | '2020-12' | undefined {
  const s = doc.$schema;
  if (typeof s !== 'string') return undefined;
  if (/draft-0[67]/.test(s)) return 'draft-07';
  if (s.includes('2019-09')) return '2019-09';
  if (s.includes('2020-12')) return '2020-12';
  return undefined;
}

/** The paths of the object subschemas of a document that satisfy a test. */
export function objectPaths(doc: JsonObject, test: (n: JsonObject) => boolean): Path[] {
  return slots(doc)
    .filter((s) => isObject(s.schema) && test(s.schema))
    .map((s) => s.path);
}

/** A random object subschema satisfying a test, or undefined. */
export function pick(rng: Rng, doc: JsonObject, test: (n: JsonObject) => boolean): Path | undefined {
  const paths = objectPaths(doc, test);
  return paths.length === 0 ? undefined : rng.pick(paths);
}

/** The object node at a path (a boolean subschema there is replaced by its object form first). */
export function nodeAt(doc: JsonObject, path: Path): JsonObject {
  const node = at(doc, path);
  if (isObject(node)) return node;
  const replacement: JsonObject = node === false ? { not: {} } : {};
  if (path.length === 0) throw new Error('the root must be an object');
  setAt(doc, path, replacement);
  return replacement;
}

/** Names every object inherits, which a schema may still declare (see the gate's own.ts). */
const INHERITED_NAMES = ['constructor', 'toString'];

/**
 * A property name not yet used by the object node. One in twenty-five is a name every object
 * inherits: often enough that a lookup through the prototype shows in every run, rarely enough
 * that the answers such names make unknown (inherited-property-name) do not fill the table.
 */
export function freshName(rng: Rng, node: JsonObject): string {
  const props = isObject(node.properties) ? node.properties : {};
  const pool = ['extra', 'mode', 'limit', 'tags', 'meta', 'x_note', 'S_1', 'count', 'path', 'id'];
  const first = rng.chance(0.04)
    ? [...rng.shuffle(INHERITED_NAMES), ...rng.shuffle(pool)]
    : rng.shuffle(pool);
  for (const n of first) if (!Object.hasOwn(props, n)) return n;
  let i = 0;
  while (Object.hasOwn(props, `p${i}`)) i++;
  return `p${i}`;
}

/** The declared property names of an object node. */
export function propertyNames(node: JsonObject): string[] {
  return isObject(node.properties) ? Object.keys(node.properties) : [];
}

/** The required names of an object node. */
export function requiredNames(node: JsonObject): string[] {
  return Array.isArray(node.required) ? node.required.filter((x): x is string => typeof x === 'string') : [];
}

/** The path of any subschema, or of a new string property when the walk picks none. */
export function anyNode(rng: Rng, base: JsonObject): Path {
  return ensure(
    rng,
    base,
    () => true,
    () => ({ type: 'string' }),
  );
}

/**
 * The path of a subschema passing a test: an existing one, or (sometimes, and always when there
 * is none) a new property holding `make()`, added to `base` so both sides have it.
 */
export function ensure(rng: Rng, base: JsonObject, test: (n: JsonObject) => boolean, make: () => Json): Path {
  const found = objectPaths(base, test);
  if (found.length > 0 && rng.chance(0.75)) return rng.pick(found);
  const owners = objectPaths(base, (n) => isObject(n.properties) || n.type === 'object');
  const owner = owners.length > 0 ? rng.pick(owners) : [];
  const node = nodeAt(base, owner);
  if (!isObject(node.properties)) node.properties = {};
  if (owner.length === 0 && node.type === undefined && node.$ref === undefined) node.type = 'object';
  const name = freshName(rng, node);
  (node.properties as JsonObject)[name] = make();
  return [...owner, 'properties', name];
}

/** The new side: a copy of `base` with `change` applied at `path`; undefined if change declines. */
export function derive(
  base: JsonObject,
  path: Path,
  change: (node: JsonObject, doc: JsonObject) => boolean | void,
): JsonObject | undefined {
  const doc = clone(base);
  const node = nodeAt(doc, path);
  return change(node, doc) === false ? undefined : doc;
}

/** A small schema of the kind found in tool arguments. */
export function leaf(rng: Rng): Json {
  return clone(
    rng.pick<Json>([
      { type: 'string' },
      { type: 'string', maxLength: 8 },
      { type: 'string', minLength: 1 },
      { type: 'string', enum: ['a', 'b'] },
      { type: 'string', pattern: '^[a-z]+$' },
      { type: 'string', format: 'email' },
      { type: 'integer' },
      { type: 'integer', minimum: 0 },
      { type: 'number' },
      { type: 'number', maximum: 100 },
      { type: 'boolean' },
      { type: 'null' },
      { type: ['string', 'null'] },
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: { type: 'integer' }, maxItems: 3 },
      { type: 'object', properties: { x: { type: 'string' } } },
      { type: 'object', additionalProperties: { type: 'integer' } },
      {},
      true,
      { const: 'k' },
    ]),
  );
}

/** A narrower copy of a schema (one constraint added or a type dropped), or undefined. */
export function tighten(rng: Rng, schema: Json): Json {
  if (schema === true || (isObject(schema) && Object.keys(schema).length === 0))
    return rng.pick<Json>([{ type: 'string' }, { type: 'integer' }, false, { type: 'object' }]);
  if (!isObject(schema)) return false;
  const s = clone(schema);
  const types = typesOf(s);
  const options: (() => void)[] = [() => (s.enum = ['a', 1])];
  if (Array.isArray(s.type) && s.type.length > 1) options.push(() => (s.type = (s.type as Json[]).slice(1)));
  if (types.includes('string'))
    options.push(
      () => (s.maxLength = Math.min(typeof s.maxLength === 'number' ? s.maxLength - 1 : 3, 3)),
      () => (s.minLength = (typeof s.minLength === 'number' ? s.minLength : 0) + 2),
      () => (s.pattern = '^[a-c]+$'),
    );
  if (types.includes('integer') || types.includes('number'))
    options.push(
      () => (s.maximum = typeof s.maximum === 'number' ? s.maximum - 1 : 10),
      () => (s.minimum = typeof s.minimum === 'number' ? s.minimum + 1 : 1),
      () => (s.type = 'integer'),
    );
  if (types.includes('array'))
    options.push(
      () => (s.maxItems = 1),
      () => (s.items = { type: 'boolean' }),
    );
  if (types.includes('object'))
    options.push(
      () => (s.additionalProperties = false),
      () => (s.required = [...requiredNames(s), 'x']),
    );
  if (types.length === 0) options.push(() => (s.type = 'string'));
  rng.pick(options)();
  return s;
}

/** A wider copy of a schema (a constraint or type dropped, or true). */
export function loosen(rng: Rng, schema: Json): Json {
  if (!isObject(schema)) return true;
  const s = clone(schema);
  const dropped = Object.keys(s).filter(
    (k) => !['description', 'title', '$ref', 'properties', '$defs'].includes(k),
  );
  if (dropped.length === 0 || rng.chance(0.15)) return true;
  const k = rng.pick(dropped);
  if (k === 'type' && typeof s.type === 'string' && rng.chance(0.5)) s.type = [s.type, 'null'];
  else delete s[k];
  return s;
}

/** A schema that differs from the given one, narrower, wider or simply other. */
export function reshape(rng: Rng, schema: Json): Json {
  const r = rng.int(3);
  return r === 0 ? tighten(rng, schema) : r === 1 ? loosen(rng, schema) : leaf(rng);
}

/** The definitions container a document uses (or should use for its dialect). */
export function defsKey(doc: JsonObject): '$defs' | 'definitions' {
  if (isObject(doc.definitions)) return 'definitions';
  if (isObject(doc.$defs)) return '$defs';
  return docDialect(doc) === 'draft-07' ? 'definitions' : '$defs';
}

/** Adds a definition to the document (under a free name) and returns the `$ref` that names it. */
export function addDefinition(doc: JsonObject, name: string, schema: Json): string {
  const key = defsKey(doc);
  if (!isObject(doc[key])) doc[key] = {};
  const defs = doc[key] as JsonObject;
  let n = name;
  for (let i = 2; Object.hasOwn(defs, n); i++) n = `${name}${i}`;
  defs[n] = schema;
  return `#/${key}/${n}`;
}

const NOT_MOVABLE = new Set([
  '$schema',
  '$id',
  '$defs',
  'definitions',
  '$ref',
  'allOf',
  'description',
  'title',
]);

/**
 * A node's keywords split in two (a non-empty part to move, and the rest), or undefined when it
 * has fewer than two keywords that could move. Moving some keywords into an allOf branch or a
 * definition keeps their meaning, except where siblings interact (additionalProperties and
 * properties, unevaluated*): what the gate must get right.
 */
export function splitKeywords(rng: Rng, node: JsonObject): [JsonObject, JsonObject] | undefined {
  const movable = Object.keys(node).filter((k) => !NOT_MOVABLE.has(k));
  if (movable.length < 2) return undefined;
  const moved = rng.shuffle(movable).slice(0, rng.between(1, movable.length - 1));
  const part: JsonObject = {};
  const rest: JsonObject = {};
  for (const [k, v] of Object.entries(node)) (moved.includes(k) ? part : rest)[k] = v;
  return [part, rest];
}

/** Replaces every key of an object in place (the node keeps its identity in its document). */
export function replaceNode(node: JsonObject, next: JsonObject): void {
  for (const k of Object.keys(node)) delete node[k];
  Object.assign(node, next);
}
