import { clone, isObject, type Json, type JsonObject } from '../json.ts';
import type { Rng } from '../prng.ts';
import { at, setAt } from '../walk.ts';
import {
  addDefinition,
  defsKey,
  derive,
  ensure,
  isObjectLike,
  leaf,
  loosen,
  nodeAt,
  pick,
  reshape,
  tighten,
  typesOf,
  type Family,
  type Kind,
} from './support.ts';

/**
 * Edits of what real schemas use and the other families do not write: OpenAPI's `nullable`,
 * `x-` keywords and `discriminator`; `$anchor`, nested `$id`, escaped and named references;
 * dynamic references; draft-04/06 forms; boolean schemas in every position; unicode and astral
 * text; extreme numbers; wide and deep schemas. The oracle reads every pair as Ajv does.
 */

const D20 = 'https://json-schema.org/draft/2020-12/schema';
const D19 = 'https://json-schema.org/draft/2019-09/schema';
const D07 = 'http://json-schema.org/draft-07/schema#';
const D06 = 'http://json-schema.org/draft-06/schema#';
const D04 = 'http://json-schema.org/draft-04/schema#';

const typed = (n: JsonObject): boolean => n.type !== undefined && n.$ref === undefined;

/** A typed node of the base (or a new typed property), with `nullable` set on it half the time. */
function nullableNode(rng: Rng, base: JsonObject): (string | number)[] {
  const path = ensure(rng, base, typed, () => leafTyped(rng));
  const node = nodeAt(base, path);
  if (node.type === undefined) node.type = 'string';
  if (rng.chance(0.6)) node.nullable = true;
  return path;
}

function leafTyped(rng: Rng): JsonObject {
  const l = leaf(rng);
  return isObject(l) && l.type !== undefined ? l : { type: 'string' };
}

const nullable: Kind[] = [
  // not null / not type null added beside a nullable type
  (rng, base) => {
    const p = nullableNode(rng, base);
    return derive(base, p, (n) => {
      n.not = rng.pick<Json>([
        { const: null },
        { type: 'null' },
        { enum: [null, 'x'] },
        { nullable: true, type: 'string' },
      ]);
    });
  },
  // nullable toggled, dropped, written as a type, or made invalid
  (rng, base) => {
    const p = nullableNode(rng, base);
    return derive(base, p, (n) => {
      const r = rng.int(6);
      if (r === 0) delete n.nullable;
      else if (r === 1) n.nullable = n.nullable !== true;
      else if (r === 2) {
        const ts = typesOf(n);
        n.type = n.nullable === true ? [...ts, 'null'] : ts;
        delete n.nullable;
      } else if (r === 3) n.enum = rng.pick<Json>([['a', 'b'], ['a', null], [null], [1, 'a']]);
      else if (r === 4) {
        // nullable without type (Ajv refuses it), or false beside null
        if (rng.chance(0.5)) delete n.type;
        else {
          n.type = [...typesOf(n), 'null'];
          n.nullable = false;
        }
      } else Object.assign(n, tighten(rng, { ...n }) as JsonObject);
    });
  },
  // through $ref: the nullable node moved into a definition, then edited there or at the reference
  (rng, base) => {
    const p = nullableNode(rng, base);
    const node = clone(nodeAt(base, p));
    const ref = addDefinition(base, 'Nullable', node);
    setAt(base, p, { $ref: ref });
    const next = clone(base);
    const r = rng.int(3);
    if (r === 0) setAt(next, p, { $ref: ref, not: { type: 'null' } });
    else if (r === 1) {
      const def = at(next, ref.slice(2).split('/')) as JsonObject;
      def.nullable = def.nullable !== true;
    } else setAt(next, p, { $ref: ref, nullable: true, type: typesOf(node) });
    return next;
  },
];

/** A name with a slash, a tilde, a percent sign or a space, or a plain one. */
function awkwardName(rng: Rng): string {
  return rng.pick(['a/b', 'a~b', 'a~1b', 'a%2Fb', 'a b', 'é', 'x', 'Name']);
}

/** A reference to a definition name in one of the spellings Ajv reads as that name. */
function spell(rng: Rng, key: string, name: string): string {
  const escaped = name.replace(/~/g, '~0').replace(/\//g, '~1');
  const forms = [
    escaped,
    encodeURIComponent(escaped),
    escaped.replace(/~1/g, '%7E1'),
    escaped.replace(/ /g, '%20'),
  ];
  return `#/${key}/${rng.pick(forms)}`;
}

const anchorId: Kind[] = [
  // $anchor references: the target changed, moved to another schema, or duplicated
  (rng, base) => {
    const key = defsKey(base);
    if (!isObject(base[key])) base[key] = {};
    const defs = base[key] as JsonObject;
    defs.Anchored = { $anchor: 'Item', ...(leafTyped(rng) as JsonObject) };
    defs.Other = leafTyped(rng);
    const p = ensure(rng, base, isObjectLike, () => ({ type: 'object', properties: {} }));
    const owner = nodeAt(base, p);
    if (!isObject(owner.properties)) owner.properties = {};
    (owner.properties as JsonObject).item = { $ref: '#Item' };
    const next = clone(base);
    const nd = next[key] as JsonObject;
    const r = rng.int(5);
    if (r === 0) nd.Anchored = tighten(rng, nd.Anchored as Json);
    else if (r === 1) {
      delete (nd.Anchored as JsonObject).$anchor;
      (nd.Other as JsonObject).$anchor = 'Item';
    } else if (r === 2) (nd.Anchored as JsonObject).$id = 'https://example.com/item';
    else if (r === 3) nd.Anchored = loosen(rng, nd.Anchored as Json);
    else ((nodeAt(next, p).properties as JsonObject).item as JsonObject).$ref = '#/' + key + '/Anchored';
    return next;
  },
  // escaped definition names, referred to in another spelling, or to another definition
  (rng, base) => {
    const key = defsKey(base);
    if (!isObject(base[key])) base[key] = {};
    const defs = base[key] as JsonObject;
    const name = awkwardName(rng);
    defs[name] = leafTyped(rng);
    defs.a = { type: 'object', properties: { b: leafTyped(rng) } };
    const p = ensure(rng, base, isObjectLike, () => ({ type: 'object', properties: {} }));
    const owner = nodeAt(base, p);
    if (!isObject(owner.properties)) owner.properties = {};
    (owner.properties as JsonObject).named = { $ref: spell(rng, key, name) };
    const next = clone(base);
    const r = rng.int(3);
    const target = (nodeAt(next, p).properties as JsonObject).named as JsonObject;
    if (r === 0) target.$ref = spell(rng, key, name);
    else if (r === 1) target.$ref = `#/${key}/a/properties/b`;
    else (next[key] as JsonObject)[name] = reshape(rng, defs[name] as Json);
    return next;
  },
  // a root $id, a nested $id, or a relative reference
  (rng, base) => {
    base.$id = 'https://example.com/root.json';
    const ref = addDefinition(base, 'Rel', leafTyped(rng));
    const p = ensure(rng, base, isObjectLike, () => ({ type: 'object', properties: {} }));
    const owner = nodeAt(base, p);
    if (!isObject(owner.properties)) owner.properties = {};
    (owner.properties as JsonObject).rel = { $ref: ref };
    const next = clone(base);
    const r = rng.int(3);
    const prop = (nodeAt(next, p).properties as JsonObject).rel as JsonObject;
    if (r === 0) prop.$ref = `root.json${ref}`;
    else if (r === 1) prop.$ref = `https://example.com/root.json${ref}`;
    else {
      const where = ref.slice(2).split('/');
      setAt(next, where, tighten(rng, at(next, where) as Json));
    }
    return next;
  },
];

/** A recursive tree: dynamic anchors at the root, in a definition, or both. */
function tree(rng: Rng, root: JsonObject, recursive: boolean): void {
  const anchor: JsonObject = recursive ? { $recursiveAnchor: true } : { $dynamicAnchor: 'node' };
  const ref: JsonObject = recursive ? { $recursiveRef: '#' } : { $dynamicRef: '#node' };
  if (rng.chance(0.7)) Object.assign(root, anchor);
  if (root.type === undefined) root.type = 'object';
  if (!isObject(root.properties)) root.properties = {};
  const props = root.properties as JsonObject;
  props.children = { type: 'array', items: ref };
  if (rng.chance(0.5)) props.label = { type: 'string', maxLength: 20 };
  if (rng.chance(0.4)) {
    const leafRef = addDefinition(root, 'Leaf', { ...anchor, type: rng.pick(['string', 'object']) });
    // Referred to, the anchored definition is compiled, and Ajv's answer depends on the path.
    if (rng.chance(0.5)) props.leaf = { $ref: leafRef };
  }
}

const dynamic: Kind[] = [
  (rng, base) => {
    const recursive = rng.chance(0.3);
    base.$schema = recursive ? D19 : rng.pick([D20, D19]);
    tree(rng, base, recursive);
    const next = clone(base);
    const r = rng.int(6);
    const anchorKey = recursive ? '$recursiveAnchor' : '$dynamicAnchor';
    if (r === 0) {
      if (next[anchorKey] === undefined) next[anchorKey] = recursive ? true : 'node';
      else delete next[anchorKey];
    } else if (r === 1) next.$schema = rng.pick([D07, D20, D19]);
    else if (r === 2) {
      const label = (next.properties as JsonObject).label;
      (next.properties as JsonObject).label = tighten(rng, label ?? { type: 'string' });
    } else if (r === 3) {
      const q = pick(rng, next, (n) => n.$ref === undefined && n.$dynamicRef === undefined);
      if (!q) return undefined;
      setAt(next, q, reshape(rng, at(next, q) as Json));
    } else if (r === 4) {
      const kids = (next.properties as JsonObject).children as JsonObject;
      kids.items = rng.pick<Json>([
        { $ref: '#' },
        { $dynamicRef: '#node' },
        { $recursiveRef: '#' },
        { $dynamicRef: '#other' },
      ]);
    } else {
      delete next.$schema;
    }
    return next;
  },
];

const XKEYS = ['x-order', 'x-internal', 'x-nullable', 'x-examples', 'x-mcp-header', 'x-go-type', 'x-ms-enum'];

const xKeyword: Kind[] = [
  (rng, base) => {
    const p = ensure(
      rng,
      base,
      () => true,
      () => leafTyped(rng),
    );
    if (rng.chance(0.5))
      nodeAt(base, p)[rng.pick(XKEYS)] = rng.pick<Json>([1, 'a', { type: 'string' }, [1, 2], true]);
    return derive(base, p, (n) => {
      const k = rng.pick(XKEYS);
      const r = rng.int(4);
      if (r === 0)
        n[k] =
          k === 'x-mcp-header'
            ? rng.pick<Json>(['X-Id', 'X-Other', 3])
            : rng.pick<Json>([2, 'b', { nullable: true }, { const: 1 }, null]);
      else if (r === 1)
        delete n[
          rng.pick(
            Object.keys(n)
              .filter((x) => x.startsWith('x-'))
              .concat(k),
          )
        ];
      else if (r === 2) {
        n[k] = rng.pick<Json>([7, 'note']);
        Object.assign(n, tighten(rng, { ...n }) as JsonObject);
      } else n[k] = { $ref: '#' };
    });
  },
  // discriminator beside a oneOf of tagged objects
  (rng, base) => {
    const p = ensure(
      rng,
      base,
      () => true,
      () => ({ type: 'object' }),
    );
    const tagged = (t: string): JsonObject => ({
      type: 'object',
      required: ['kind'],
      properties: { kind: { const: t }, v: leafTyped(rng) },
    });
    const node = nodeAt(base, p);
    for (const k of Object.keys(node)) delete node[k];
    Object.assign(node, { oneOf: [tagged('a'), tagged('b')] });
    if (rng.chance(0.5)) node.discriminator = { propertyName: 'kind' };
    return derive(base, p, (n) => {
      const r = rng.int(3);
      if (r === 0)
        n.discriminator = n.discriminator === undefined ? { propertyName: 'kind' } : { propertyName: 'v' };
      else if (r === 1) delete n.discriminator;
      else (n.oneOf as Json[])[rng.int(2)] = tighten(rng, (n.oneOf as Json[])[0] as Json);
    });
  },
];

const legacy: Kind[] = [
  (rng, base) => {
    const r = rng.int(6);
    const p = ensure(rng, base, isObjectLike, () => ({
      type: 'object',
      properties: { a: { type: 'string' } },
    }));
    const next = clone(base);
    const n = nodeAt(next, p);
    if (r === 0) next.$schema = rng.pick([D06, D04, D07]);
    else if (r === 1) {
      // draft-04's boolean exclusiveMinimum
      n.properties = {
        ...(isObject(n.properties) ? n.properties : {}),
        num: { type: 'number', minimum: 0, exclusiveMinimum: rng.chance(0.5) },
      };
    } else if (r === 2) {
      if (!isObject(n.properties)) n.properties = {};
      (n.properties as JsonObject).pair = {
        type: 'array',
        items: [{ type: 'string' }, { type: 'integer' }],
        additionalItems: rng.pick<Json>([false, true, { type: 'string' }]),
      };
    } else if (r === 3)
      n.dependencies = {
        a: rng.pick<Json>([['b'], { required: ['c'] }, { properties: { a: { maxLength: 2 } } }]),
      };
    else if (r === 4) {
      // an unused definition in a form 2020-12 refuses
      next.$schema = rng.pick([D20, D07]);
      addDefinition(
        next,
        'Unused',
        rng.pick<Json>([{ items: [{}] }, { type: [] }, { type: 'string' }, { required: 'a' }]),
      );
    } else n.id = rng.pick(['#thing', 'https://example.com/x']);
    return next;
  },
];

const bool: Kind[] = [
  (rng, base) => {
    const p = ensure(rng, base, isObjectLike, () => ({
      type: 'object',
      properties: { a: { type: 'string' } },
    }));
    return derive(base, p, (n, doc) => {
      const r = rng.int(8);
      const b = rng.chance(0.5);
      if (r === 0) n.properties = { ...(isObject(n.properties) ? n.properties : {}), flag: b };
      else if (r === 1) n.additionalProperties = b;
      else if (r === 2) n.items = b;
      else if (r === 3) n.not = b;
      else if (r === 4) n.anyOf = [b, leafTyped(rng)];
      else if (r === 5) addDefinition(doc, 'Bool', b);
      else if (r === 6) n.propertyNames = b;
      else n.allOf = [true, b];
    });
  },
];

const ASTRAL = ['😀', '𝄞', '𠜎', 'é', 'e\u0301', '\u0000', 'ǅ', 'ﬀ'];

const unicode: Kind[] = [
  (rng, base) => {
    const p = ensure(
      rng,
      base,
      () => true,
      () => ({ type: 'string', maxLength: 3 }),
    );
    const s = rng.pick(ASTRAL);
    return derive(base, p, (n) => {
      const r = rng.int(5);
      if (r === 0) n.maxLength = rng.between(1, 3);
      else if (r === 1) n.enum = [s, `${s}${s}`, 'a'];
      else if (r === 2) n.pattern = rng.pick(['^\\p{L}+$', '^.{1,2}$', `^${s}`, '^[\\u{1F600}-\\u{1F64F}]$']);
      else if (r === 3) n.const = s;
      else {
        n.type = 'object';
        n.properties = { [s]: { type: 'string', minLength: 1 } };
        n.required = [s];
      }
    });
  },
];

const EXTREME = [
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER + 2,
  0.1,
  1e-10,
  -0,
  2 ** 53,
  1.7976931348623157e308,
];

const extreme: Kind[] = [
  (rng, base) => {
    const p = ensure(
      rng,
      base,
      () => true,
      () => ({ type: 'number' }),
    );
    return derive(base, p, (n) => {
      const v = rng.pick(EXTREME);
      const k = rng.pick([
        'minimum',
        'maximum',
        'exclusiveMinimum',
        'exclusiveMaximum',
        'multipleOf',
        'const',
        'enum',
      ]);
      if (k === 'multipleOf') n.multipleOf = Math.abs(v) > 0 ? Math.abs(v) : 1e-10;
      else if (k === 'enum') n.enum = [v, 0];
      else n[k] = v;
      if (rng.chance(0.5)) n.type = rng.pick(['number', 'integer']);
    });
  },
];

const wideDeep: Kind[] = [
  (rng, base) => {
    const wide = rng.chance(0.5);
    const p = ensure(rng, base, isObjectLike, () => ({ type: 'object' }));
    const node = nodeAt(base, p);
    if (wide) {
      const props: JsonObject = {};
      for (let i = 0; i < rng.between(50, 300); i++) props[`f${i}`] = leafTyped(rng);
      node.properties = props;
    } else {
      let inner: JsonObject = leafTyped(rng);
      for (let i = 0; i < rng.between(20, 60); i++) inner = { type: 'object', properties: { d: inner } };
      node.properties = { ...(isObject(node.properties) ? node.properties : {}), deep: inner };
    }
    const next = clone(base);
    const q = pick(rng, next, (n) => n.$ref === undefined && n !== next);
    if (!q) return undefined;
    setAt(next, q, reshape(rng, at(next, q) as Json));
    return next;
  },
  (rng, base) => wideRoot(rng, base),
];

/** Leaves of a wide root beyond leaf()'s: nested, combined, OpenAPI's, annotated. */
function wideLeaf(rng: Rng): Json {
  if (rng.chance(0.55)) return leaf(rng);
  return rng.pick<Json>([
    { type: 'string', maxLength: rng.between(0, 20) },
    { type: 'integer', minimum: -rng.between(0, 9), multipleOf: 2 },
    { type: ['string', 'null'], pattern: '^\\p{L}*$' },
    { type: 'string', nullable: true },
    { type: 'array', items: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] } },
    { anyOf: [{ type: 'string' }, { type: 'integer', maximum: 5 }] },
    { oneOf: [{ const: 'a' }, { const: 'b' }] },
    { not: { type: 'null' } },
    { if: { type: 'string' }, then: { minLength: 1 }, else: { type: 'integer' } },
    { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
    { type: 'string', format: 'date-time', description: 'when', 'x-order': 3 },
    { enum: ['a', 1, null] },
    false,
  ]);
}

/** Leaves the validator refuses though the meta-schema allows them. */
const REFUSED_LEAVES: Json[] = [
  { type: 'string', pattern: '[' },
  { enum: [] },
  { nullable: true },
  { type: 'object', propertyNames: { pattern: '(' } },
  { type: 'object', properties: { deep: { type: 'string', pattern: '\\' } } },
];

/**
 * A root object made wide enough for the validator to build its leaves apart (200 and more,
 * see wide.ts in the gate), then one place of it reshaped. Now and then one leaf the validator
 * refuses, on both sides or the new one only: that document must never be judged compatible.
 */
function wideRoot(rng: Rng, base: JsonObject): JsonObject | undefined {
  if (base.$ref !== undefined) return undefined;
  const props: JsonObject = isObject(base.properties) ? base.properties : {};
  const n = rng.between(200, 320);
  for (let i = 0; i < n; i++) props[`w${i}`] = wideLeaf(rng);
  // Now and then a name every object inherits: the validator reads `value.constructor` too (so
  // most values fail it, and most of these comparisons are unknown).
  if (rng.chance(0.05)) props[rng.pick(['constructor', 'toString'])] = wideLeaf(rng);
  if (rng.chance(0.1)) props[`w${rng.int(n)}`] = clone(rng.pick(REFUSED_LEAVES));
  base.properties = props;
  if (base.type === undefined) base.type = 'object';
  const next = clone(base);
  const q = pick(rng, next, (x) => x.$ref === undefined && x !== next);
  if (!q) return undefined;
  setAt(next, q, reshape(rng, at(next, q) as Json));
  // Sometimes a change only the names see: one made required, or the object closed.
  if (rng.chance(0.2)) next.required = [...(Array.isArray(next.required) ? next.required : []), 'w1'];
  if (rng.chance(0.1)) next.additionalProperties = false;
  if (rng.chance(0.1)) (next.properties as JsonObject)[`w${rng.int(n)}`] = clone(rng.pick(REFUSED_LEAVES));
  return next;
}

export const REAL_FAMILIES: Family[] = [
  { name: 'nullable', kinds: nullable },
  { name: 'anchor-id', kinds: anchorId },
  { name: 'dynamic', kinds: dynamic },
  { name: 'x-keyword', kinds: xKeyword },
  { name: 'legacy', kinds: legacy },
  { name: 'boolean', kinds: bool },
  { name: 'unicode', kinds: unicode },
  { name: 'extreme-numbers', kinds: extreme },
  { name: 'wide-deep', kinds: wideDeep },
];

/** The names of the families above, so a report can total them apart from the others. */
export const REAL_FAMILY_NAMES: ReadonlySet<string> = new Set(REAL_FAMILIES.map((f) => f.name));
