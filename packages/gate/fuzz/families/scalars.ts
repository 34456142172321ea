import { clone, isObject, type Json, type JsonObject } from '../json.ts';
import type { Rng } from '../prng.ts';
import type { Path } from '../walk.ts';
import {
  anyNode,
  addDefinition,
  derive,
  ensure,
  isArrayLike,
  isNumberLike,
  isObjectLike,
  isStringLike,
  nodeAt,
  typesOf,
  type Family,
  type Kind,
} from './support.ts';

/** Moves a bound: removes it, adds it, or shifts it by one of a few steps. */
function moveBound(rng: Rng, n: JsonObject, key: string, start: number, integral: boolean): void {
  const v = n[key];
  if (typeof v === 'number' && rng.chance(0.2)) {
    delete n[key];
    return;
  }
  const steps = integral ? [-2, -1, 1, 2] : [-1, -0.5, 0.5, 1, -0.001, 0.001];
  const next = (typeof v === 'number' ? v : start) + rng.pick(steps);
  n[key] = integral ? Math.max(0, Math.round(next)) : next;
}

const lengthKeys: [string, (n: JsonObject) => boolean, Json][] = [
  ['minLength', isStringLike, { type: 'string' }],
  ['maxLength', isStringLike, { type: 'string' }],
  ['minItems', isArrayLike, { type: 'array', items: { type: 'string' } }],
  ['maxItems', isArrayLike, { type: 'array', items: { type: 'integer' } }],
  ['minProperties', isObjectLike, { type: 'object', additionalProperties: { type: 'string' } }],
  ['maxProperties', isObjectLike, { type: 'object', properties: { a: { type: 'string' } } }],
];

const lengths: Kind[] = [
  (rng, base) => {
    const [key, test, make] = rng.pick(lengthKeys);
    const p = ensure(rng, base, test, () => clone(make));
    if (rng.chance(0.4)) nodeAt(base, p)[key] = rng.between(1, 4);
    return derive(base, p, (n) => moveBound(rng, n, key, rng.between(0, 5), true));
  },
];

const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
const numberNode = (rng: Rng, base: JsonObject) =>
  ensure(rng, base, isNumberLike, () => ({ type: rng.pick(['integer', 'number']) }));

const bounds: Kind[] = [
  (rng, base) => {
    const p = numberNode(rng, base);
    const key = rng.pick(BOUNDS);
    if (rng.chance(0.4)) nodeAt(base, p)[key] = rng.pick([0, 1, 10, 2.5, -1]);
    return derive(base, p, (n) => moveBound(rng, n, key, rng.pick([0, 1, 10, 100]), false));
  },
  // inclusive ↔ exclusive
  (rng, base) => {
    const p = numberNode(rng, base);
    const [inc, exc] = rng.pick([
      ['minimum', 'exclusiveMinimum'],
      ['maximum', 'exclusiveMaximum'],
    ]) as [string, string];
    const old = nodeAt(base, p);
    const [from, to] = rng.chance(0.5) ? [inc, exc] : [exc, inc];
    if (typeof old[from] !== 'number') old[from] = rng.pick([0, 5, 1.5]);
    return derive(base, p, (n) => {
      n[to] = n[from] as Json;
      delete n[from];
    });
  },
];

const MULTIPLES = [2, 3, 5, 10, 0.1, 0.01, 0.3, 0.5, 2.5, 0.25, 0.2, 1e-3];

/**
 * One keyword drawn from a list: set on the old side (with chance `seed`), then on the new side
 * dropped (with chance `drop`, when it holds a value of type `kind`) or replaced by another of
 * `choices`.
 */
function listEdit(
  nodeOf: (rng: Rng, base: JsonObject) => Path,
  key: string,
  values: readonly Json[],
  chances: { seed: number; drop: number; kind: 'number' | 'string' },
  choices: readonly Json[] = values,
): Kind {
  return (rng, base) => {
    const p = nodeOf(rng, base);
    if (rng.chance(chances.seed)) nodeAt(base, p)[key] = rng.pick(values) as Json;
    return derive(base, p, (n) => {
      if (typeof n[key] === chances.kind && rng.chance(chances.drop)) delete n[key];
      else n[key] = rng.pick(choices.filter((v) => v !== n[key])) as Json;
    });
  };
}

const multipleOf: Kind[] = [
  listEdit(numberNode, 'multipleOf', MULTIPLES, { seed: 0.5, drop: 0.25, kind: 'number' }),
];

/** Regexes of string values; neighbours include or overlap each other. */
const STRING_PATTERNS = [
  '^[a-z]+$',
  '^[a-z]*$',
  '^[a-z0-9_-]+$',
  '^[0-9]{3}$',
  '^[0-9]+$',
  '^a',
  '^ab',
  'b',
  '^\\S+$',
  '^[A-Z][a-z]*$',
];

const stringNode = (rng: Rng, base: JsonObject) =>
  ensure(rng, base, isStringLike, () => ({ type: 'string' }));

const pattern: Kind[] = [
  listEdit(stringNode, 'pattern', STRING_PATTERNS, { seed: 0.5, drop: 0.3, kind: 'string' }),
];

const STRING_FORMATS = ['email', 'uri', 'date-time', 'date', 'uuid', 'ipv4', 'hostname', 'time'];

const format: Kind[] = [
  listEdit(stringNode, 'format', STRING_FORMATS, { seed: 0.5, drop: 0.3, kind: 'string' }, [
    ...STRING_FORMATS,
    'color',
  ]),
];

const NUMBER_FORMATS = ['int32', 'int64', 'float', 'double'];

const numericFormat: Kind[] = [
  // on an integer or number schema directly
  listEdit(numberNode, 'format', NUMBER_FORMATS, { seed: 0.3, drop: 0.3, kind: 'string' }),
  // beside a $ref to a number definition
  (rng, base) => {
    const owner = ensure(rng, base, isObjectLike, () => ({ type: 'object', properties: {} }));
    const def: JsonObject = { type: rng.pick(['integer', 'number']) };
    if (rng.chance(0.3)) def.minimum = 0;
    const ref = addDefinition(base, 'Num', def);
    const node = nodeAt(base, owner);
    if (!isObject(node.properties)) node.properties = {};
    const props = node.properties as JsonObject;
    const name = `n${Object.keys(props).length}`;
    props[name] = { $ref: ref };
    return derive(base, [...owner, 'properties', name], (n) => void (n.format = rng.pick(NUMBER_FORMATS)));
  },
];

/** Values of an enum for a node: of its type, or objects and arrays. */
function enumValues(rng: Rng, n: JsonObject): Json[] {
  const t = typesOf(n);
  if (t.includes('string')) return rng.pick([['a', 'b', 'c'], ['read', 'write'], ['x']]);
  if (t.includes('integer') || t.includes('number')) return rng.pick([[1, 2, 3], [0], [0.5, 1]]);
  if (t.includes('object')) return [{ a: 1 }, { a: 'x' }, {}];
  if (t.includes('array')) return [[1, 2], [], ['a']];
  return rng.pick<Json[]>([['a', 1, null], [{ a: 1 }, [1]], [true]]);
}

const enumConst: Kind[] = [
  // add or remove an enum
  (rng, base) => {
    const p = anyNode(rng, base);
    return derive(base, p, (n) => {
      if (Array.isArray(n.enum)) delete n.enum;
      else n.enum = enumValues(rng, n);
    });
  },
  // add or remove one value
  (rng, base) => {
    const p = anyNode(rng, base);
    const old = nodeAt(base, p);
    if (!Array.isArray(old.enum)) old.enum = enumValues(rng, old);
    return derive(base, p, (n) => {
      const e = [...(n.enum as Json[])];
      if (e.length > 1 && rng.chance(0.5)) e.splice(rng.int(e.length), 1);
      else e.push(rng.pick<Json>(['z', 7, { a: 2 }, [2], null]));
      n.enum = e;
    });
  },
  // add, remove or change a const (objects and arrays too)
  (rng, base) => {
    const p = anyNode(rng, base);
    const values: Json[] = ['k', 3, { a: 1 }, [1, 'x'], null, true];
    if (rng.chance(0.5)) nodeAt(base, p).const = clone(rng.pick(values));
    return derive(base, p, (n) => {
      if (n.const !== undefined && rng.chance(0.4)) delete n.const;
      else n.const = clone(rng.pick(values));
    });
  },
];

export const SCALAR_FAMILIES: Family[] = [
  { name: 'lengths', kinds: lengths },
  { name: 'bounds', kinds: bounds },
  { name: 'multipleOf', kinds: multipleOf },
  { name: 'pattern', kinds: pattern },
  { name: 'format', kinds: format },
  { name: 'numeric-format', kinds: numericFormat },
  { name: 'enum-const', kinds: enumConst },
];
