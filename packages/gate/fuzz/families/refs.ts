import { clone, isObject, type Json, type JsonObject } from '../json.ts';
import type { Rng } from '../prng.ts';
import { at, resolveRef, setAt, slots } from '../walk.ts';
import {
  addDefinition,
  defsKey,
  derive,
  docDialect,
  ensure,
  isObjectLike,
  leaf,
  nodeAt,
  objectPaths,
  pick,
  replaceNode,
  reshape,
  splitKeywords,
  tighten,
  type Family,
  type Kind,
} from './support.ts';

/** Moves a subschema of the old side into a definition and refers to it, returning its path. */
function extract(rng: Rng, base: JsonObject): (string | number)[] | undefined {
  const paths = objectPaths(base, (n) => n.$ref === undefined).filter(
    (p) => p.length > 0 && !p.includes('$defs') && !p.includes('definitions'),
  );
  if (paths.length === 0) return undefined;
  const p = rng.pick(paths);
  const ref = addDefinition(base, 'Part', clone(at(base, p) as Json));
  setAt(base, p, { $ref: ref });
  return p;
}

const refPaths = (doc: JsonObject) =>
  objectPaths(doc, (n) => typeof n.$ref === 'string' && resolveRef(doc, n.$ref) !== undefined);

const RECURSIVE: Json = {
  type: 'object',
  properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } } },
  required: ['name'],
};

const ref: Kind[] = [
  // a $ref retargeted to another definition
  (rng, base) => {
    let paths = refPaths(base);
    if (paths.length === 0 || rng.chance(0.3)) extract(rng, base);
    addDefinition(base, 'Other', leaf(rng));
    paths = refPaths(base);
    if (paths.length === 0) return undefined;
    const p = rng.pick(paths);
    const key = defsKey(base);
    const names = Object.keys(isObject(base[key]) ? base[key] : {});
    return derive(base, p, (n) => {
      const others = names.filter((x) => `#/${key}/${x}` !== n.$ref);
      if (others.length === 0) return false;
      n.$ref = `#/${key}/${rng.pick(others)}`;
      return true;
    });
  },
  // a $ref inlined (reverse: a subschema moved into a definition)
  (rng, base) => {
    if (refPaths(base).length === 0 || rng.chance(0.3)) extract(rng, base);
    const paths = refPaths(base).filter((p) => p.length > 0);
    if (paths.length === 0) return undefined;
    const p = rng.pick(paths);
    return derive(base, p, (n, doc) => {
      const target = resolveRef(doc, n.$ref as string);
      if (target === undefined) return false;
      const { $ref: _gone, ...siblings } = n;
      setAt(doc, p, isObject(target) ? { ...clone(target), ...siblings } : clone(target));
      return true;
    });
  },
  // a definition changed (recursive ones included)
  (rng, base) => {
    const key = defsKey(base);
    if (!isObject(base[key]) || rng.chance(0.3)) {
      const owner = ensure(rng, base, isObjectLike, () => ({ type: 'object', properties: {} }));
      const tree = JSON.parse(JSON.stringify(RECURSIVE).replace(/#\/\$defs\//g, `#/${key}/`)) as Json;
      const refTo = addDefinition(base, 'Tree', tree);
      const fixed = JSON.parse(JSON.stringify(tree).replace(`#/${key}/Tree"`, `${refTo}"`)) as Json;
      (base[key] as JsonObject)[refTo.split('/').pop() as string] = fixed;
      const node = nodeAt(base, owner);
      if (!isObject(node.properties)) node.properties = {};
      (node.properties as JsonObject).tree = { $ref: refTo };
    }
    const defs = slots(base).filter((s) => s.path[0] === key && isObject(s.schema));
    if (defs.length === 0) return undefined;
    const p = rng.pick(defs).path;
    const next = clone(base);
    setAt(next, p, reshape(rng, at(next, p) as Json));
    return next;
  },
  // some keywords moved into a definition, the rest left beside the $ref to it
  (rng, base) => {
    const paths = objectPaths(
      base,
      (n) => n.$ref === undefined && splitKeywords(rng, n) !== undefined,
    ).filter((p) => p.length > 0);
    if (paths.length === 0) return undefined;
    return derive(base, rng.pick(paths), (n, doc) => {
      const split = splitKeywords(rng, n);
      if (!split) return false;
      const [part, rest] = split;
      replaceNode(n, { ...rest, $ref: addDefinition(doc, 'Split', part) });
      return true;
    });
  },
  // a definition that holds definitions of its own, referred to by their path in the document
  // (which resolves) or as if the definition were the root (which leads nowhere), one of them
  // changed; or a definition that declares another dialect's $schema (only a root may)
  (rng, base) => {
    const key = defsKey(base);
    const inner = leaf(rng);
    const name = addDefinition(base, 'Outer', {}).split('/').pop() as string;
    const rooted = rng.chance(0.7);
    const outer: JsonObject = {
      [key]: { Inner: inner },
      $ref: rooted ? `#/${key}/${name}/${key}/Inner` : `#/${key}/Inner`,
    };
    if (rng.chance(0.3))
      outer.$schema = rng.pick([
        'http://json-schema.org/draft-07/schema#',
        'https://json-schema.org/draft/2020-12/schema',
      ]);
    (base[key] as JsonObject)[name] = outer;
    const owner = ensure(rng, base, isObjectLike, () => ({ type: 'object', properties: {} }));
    const node = nodeAt(base, owner);
    if (!isObject(node.properties)) node.properties = {};
    (node.properties as JsonObject).nested = { $ref: `#/${key}/${name}` };
    const next = clone(base);
    const held = ((next[key] as JsonObject)[name] as JsonObject)[key] as JsonObject;
    held.Inner = reshape(rng, held.Inner as Json);
    return next;
  },
  // keywords added beside a $ref
  (rng, base) => {
    if (refPaths(base).length === 0 || rng.chance(0.3)) extract(rng, base);
    const p = pick(rng, base, (n) => typeof n.$ref === 'string');
    if (!p) return undefined;
    return derive(base, p, (n) => {
      const sibling: Json = rng.pick<Json>([
        { maxLength: 3 },
        { required: ['name'] },
        { type: 'string' },
        { minProperties: 1 },
        { description: 'beside $ref' },
        { format: 'email' },
        { enum: ['a', 1] },
        { additionalProperties: false },
      ]);
      Object.assign(n, clone(sibling));
    });
  },
];

const SCHEMAS = {
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
} as const;

/** Keywords whose meaning differs between dialects, placed in the old side before the switch. */
function meaningful(rng: Rng, base: JsonObject): void {
  const owner = ensure(rng, base, isObjectLike, () => ({
    type: 'object',
    properties: { a: { type: 'string' } },
  }));
  const node = nodeAt(base, owner);
  if (!isObject(node.properties)) node.properties = {};
  const props = node.properties as JsonObject;
  const r = rng.int(7);
  if (r === 0) node.dependentSchemas = { a: { required: ['b'] } };
  else if (r === 1) props.list = { type: 'array', contains: { type: 'string' }, minContains: 2 };
  else if (r === 2) {
    const refTo = addDefinition(base, 'Text', { type: 'string' });
    props.text = { $ref: refTo, maxLength: 3 };
  } else if (r === 3)
    props.pair = { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false };
  else if (r === 4) props.pair = { type: 'array', prefixItems: [{ type: 'string' }], items: false };
  else if (r === 5) node.unevaluatedProperties = false;
  else node.dependentRequired = { a: ['b'] };
}

const dialect: Kind[] = [
  (rng, base) => {
    if (rng.chance(0.7)) meaningful(rng, base);
    const current = docDialect(base);
    const choices = [undefined, ...Object.keys(SCHEMAS)].filter((d) => d !== current) as (
      keyof typeof SCHEMAS | undefined
    )[];
    const to = rng.pick(choices);
    const next = clone(base);
    if (to === undefined) delete next.$schema;
    else next.$schema = SCHEMAS[to];
    if (rng.chance(0.3)) {
      const q = pick(rng, next, (n) => n.$ref === undefined);
      if (q) setAt(next, q, tighten(rng, at(next, q) as Json));
    }
    return next;
  },
];

export const REF_FAMILIES: Family[] = [
  { name: 'ref', kinds: ref },
  { name: 'dialect', kinds: dialect },
];
