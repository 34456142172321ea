import { clone, isObject, type Json, type JsonObject } from '../json.ts';
import type { Rng } from '../prng.ts';
import { at, setAt, type Path } from '../walk.ts';
import {
  anyNode,
  derive,
  ensure,
  isNumberLike,
  isObjectLike,
  isStringLike,
  leaf,
  nodeAt,
  objectPaths,
  pick,
  propertyNames,
  replaceNode,
  reshape,
  splitKeywords,
  tighten,
  type Family,
  type Kind,
} from './support.ts';

/** A random non-root subschema path (the root cannot be replaced by a wrapper). */
function innerPath(rng: Rng, base: JsonObject): Path | undefined {
  const paths = objectPaths(base, () => true).filter((p) => p.length > 0);
  return paths.length === 0 ? undefined : rng.pick(paths);
}

function wrapAt(doc: JsonObject, path: Path, wrap: (s: Json) => Json): boolean {
  if (path.length === 0) return false;
  const s = at(doc, path);
  if (s === undefined) return false;
  setAt(doc, path, wrap(clone(s)));
  return true;
}

const combinators: Kind[] = [
  // wrap a subschema in anyOf / oneOf (with another branch) or allOf
  (rng, base) => {
    const p = innerPath(rng, base);
    if (!p || p.length === 0) return undefined;
    const next = clone(base);
    const k = rng.pick(['anyOf', 'oneOf', 'allOf']);
    const ok = wrapAt(next, p, (s) => ({ [k]: k === 'allOf' && rng.chance(0.5) ? [s] : [s, leaf(rng)] }));
    return ok ? next : undefined;
  },
  // unwrap: the old side is a combinator of the subschema and another branch
  (rng, base) => {
    const p = innerPath(rng, base);
    if (!p || p.length === 0) return undefined;
    const inner = clone(at(base, p) as Json);
    const k = rng.pick(['anyOf', 'oneOf', 'allOf']);
    setAt(base, p, { [k]: [clone(inner), leaf(rng)] });
    const next = clone(base);
    setAt(next, p, inner);
    return next;
  },
  // add, remove or change a branch of an existing anyOf / oneOf
  (rng, base) => {
    let p = pick(rng, base, (n) => Array.isArray(n.anyOf) || Array.isArray(n.oneOf));
    if (!p) {
      p = anyNode(rng, base);
      const n = nodeAt(base, p);
      n[rng.pick(['anyOf', 'oneOf'])] = [{ type: 'string', maxLength: 5 }, { type: 'integer' }];
    }
    return derive(base, p, (n) => {
      const key = Array.isArray(n.anyOf) ? 'anyOf' : 'oneOf';
      const branches = [...(n[key] as Json[])];
      const r = rng.int(3);
      if (r === 0) branches.push(leaf(rng));
      else if (r === 1 && branches.length > 1) branches.splice(rng.int(branches.length), 1);
      else {
        const i = rng.int(branches.length);
        branches[i] = reshape(rng, branches[i] as Json);
      }
      n[key] = branches;
    });
  },
  // some keywords moved into an allOf branch, the rest left beside it
  (rng, base) => {
    const p = pick(rng, base, (n) => splitKeywords(rng, n) !== undefined);
    if (!p) return undefined;
    return derive(base, p, (n) => {
      const split = splitKeywords(rng, n);
      if (!split) return false;
      const [part, rest] = split;
      const allOf = Array.isArray(n.allOf) ? n.allOf : [];
      replaceNode(n, { ...rest, allOf: [...allOf, part] });
      return true;
    });
  },
  // keywords beside allOf: added, or the allOf branch changed under them
  (rng, base) => {
    const p = innerPath(rng, base);
    if (!p || p.length === 0) return undefined;
    const inner = clone(at(base, p) as Json);
    const wrapper: JsonObject = { allOf: [inner] };
    if (isObject(inner) && inner.type !== undefined) wrapper.type = clone(inner.type);
    setAt(base, p, wrapper);
    return derive(base, p, (n) => {
      const siblings: Json[] = [
        { required: ['a'] },
        { minProperties: 1 },
        { maxLength: 3 },
        { minimum: 1 },
        { type: 'string' },
        { additionalProperties: false },
        { properties: { a: { type: 'integer' } } },
        { description: 'beside allOf' },
      ];
      if (rng.chance(0.7)) Object.assign(n, clone(rng.pick(siblings)));
      else (n.allOf as Json[])[0] = tighten(rng, (n.allOf as Json[])[0] as Json);
    });
  },
  // a oneOf beside an anyOf (both apply): added, or its branch changed, the anyOf unchanged
  (rng, base) => {
    const p = innerPath(rng, base);
    if (!p) return undefined;
    const inner = clone(at(base, p) as Json);
    const wrapper: JsonObject = isObject(inner) && Array.isArray(inner.anyOf) ? inner : { anyOf: [inner] };
    if (rng.chance(0.5)) wrapper.oneOf = [leaf(rng)];
    setAt(base, p, wrapper);
    return derive(base, p, (n) => {
      const branches = Array.isArray(n.oneOf) ? [...(n.oneOf as Json[])] : [];
      if (branches.length === 0 || rng.chance(0.3)) branches.push(leaf(rng));
      else {
        const i = rng.int(branches.length);
        branches[i] = tighten(rng, branches[i] as Json);
      }
      n.oneOf = branches;
    });
  },
  // conjuncts at two levels, each level with one the fold cannot merge (a keyword said twice),
  // and an edit in one conjunct of the inner level: a new one, or one tightened or replaced
  (rng, base) => {
    // Half the time a string's node, where excluding one string breaks what only that string shows.
    const splittable = (n: JsonObject): boolean => splitKeywords(rng, n) !== undefined;
    const p =
      (rng.chance(0.5) ? pick(rng, base, (n) => isStringLike(n) && splittable(n)) : undefined) ??
      pick(rng, base, splittable);
    if (!p) return undefined;
    const n = nodeAt(base, p);
    const split = splitKeywords(rng, n);
    if (!split) return undefined;
    const [part, rest] = split;
    const unlikely = (i: number): Json => ({ not: { const: `unlikely-${i}` } });
    const inner: Json[] = rng.shuffle([part, unlikely(1), unlikely(2)]);
    const outer: Json[] = rng.shuffle([{ allOf: inner }, unlikely(3), unlikely(4)]);
    replaceNode(n, { ...rest, allOf: [...(Array.isArray(n.allOf) ? n.allOf : []), ...outer] });
    return derive(base, p, (m) => {
      const list = (m.allOf as Json[]).filter((x): x is JsonObject => isObject(x) && Array.isArray(x.allOf));
      const nested = list[list.length - 1]?.allOf as Json[] | undefined;
      if (!nested) return false;
      const i = rng.int(nested.length);
      const r = rng.int(3);
      if (r === 0) nested.splice(rng.int(nested.length + 1), 0, excluded(rng, m));
      else if (r === 1) nested[i] = tighten(rng, nested[i] as Json);
      // A value only the oracle's hints reach (the gate's sampler draws from the old side).
      else nested[i] = { not: rng.chance(0.5) ? excluded(rng, m) : { const: 'unlikely-0' } };
      return true;
    });
  },
];

function excluded(rng: Rng, n: JsonObject): Json {
  const names = propertyNames(n);
  const options: Json[] = [
    { const: 'a' },
    { enum: [1, 'b'] },
    { type: 'null' },
    { type: 'string' },
    { minimum: 10 },
  ];
  if (names.length > 0) {
    const a = rng.pick(names);
    options.push({ required: [a] }, { properties: { [a]: { const: 'x' } }, required: [a] });
  } else {
    // Of a value that is not an object `required` always holds: its `not` excludes them all.
    options.push({ required: ['a'] });
  }
  if (isStringLike(n)) options.push({ pattern: '^a' }, { maxLength: 2 });
  return clone(rng.pick(options));
}

const not: Kind[] = [
  (rng, base) => {
    const p = anyNode(rng, base);
    return derive(base, p, (n) => void (n.not = excluded(rng, n)));
  },
  (rng, base) => {
    const p = anyNode(rng, base);
    const old = nodeAt(base, p);
    old.not = excluded(rng, old);
    return derive(base, p, (n) => {
      if (rng.chance(0.4)) delete n.not;
      else n.not = rng.chance(0.5) ? excluded(rng, n) : reshape(rng, n.not as Json);
    });
  },
];

/** An if/then/else for a node: about a property of an object, or about a number or string. */
function conditional(rng: Rng, n: JsonObject): { if: Json; then: Json; else: Json } {
  const names = propertyNames(n);
  if (isObjectLike(n) || names.length > 0) {
    const a = names.length > 0 ? rng.pick(names) : 'a';
    const others = names.filter((x) => x !== a);
    const b = others.length > 0 ? rng.pick(others) : 'b';
    return {
      if: rng.pick<Json>([{ properties: { [a]: { const: 'x' } }, required: [a] }, { required: [a] }]),
      then: rng.pick<Json>([{ required: [b] }, { properties: { [b]: { type: 'integer' } } }]),
      else: rng.pick<Json>([
        { properties: { [b]: { maxLength: 3 } } },
        { not: { required: [b] } },
        { required: [b] },
      ]),
    };
  }
  if (isNumberLike(n)) return { if: { minimum: 10 }, then: { multipleOf: 2 }, else: { maximum: 5 } };
  return { if: { type: 'string' }, then: { minLength: 2 }, else: { type: 'integer' } };
}

const conditionalFamily: Kind[] = [
  // add an if/then/else, or an if alone
  (rng, base) => {
    const p = ensure(
      rng,
      base,
      () => true,
      () => ({ type: 'object', properties: { a: { type: 'string' } } }),
    );
    return derive(base, p, (n) => {
      const c = conditional(rng, n);
      n.if = c.if;
      const r = rng.int(4);
      if (r !== 3) n.then = c.then;
      if (r === 1 || r === 2) n.else = c.else;
    });
  },
  // an if gaining a then or an else
  (rng, base) => {
    const p = ensure(
      rng,
      base,
      () => true,
      () => ({ type: 'object', properties: { a: { type: 'string' } } }),
    );
    const old = nodeAt(base, p);
    const c = conditional(rng, old);
    old.if = c.if;
    if (rng.chance(0.5)) old.then = c.then;
    return derive(base, p, (n) => {
      if (n.then === undefined && rng.chance(0.5)) n.then = c.then;
      else n.else = c.else;
    });
  },
  // the then, else or if of an existing conditional changed
  (rng, base) => {
    const p = ensure(
      rng,
      base,
      () => true,
      () => ({ type: 'object', properties: { a: { type: 'string' } } }),
    );
    const old = nodeAt(base, p);
    const c = conditional(rng, old);
    Object.assign(old, c);
    return derive(base, p, (n) => {
      const k = rng.pick(['if', 'then', 'else']);
      n[k] = rng.chance(0.3) ? true : reshape(rng, n[k] as Json);
    });
  },
];

export const COMBINATOR_FAMILIES: Family[] = [
  { name: 'combinators', kinds: combinators },
  { name: 'not', kinds: not },
  { name: 'conditional', kinds: conditionalFamily },
];
