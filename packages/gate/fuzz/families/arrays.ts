import { isObject, type Json, type JsonObject } from '../json.ts';
import type { Rng } from '../prng.ts';
import {
  derive,
  docDialect,
  ensure,
  isArrayLike,
  isObjectLike,
  leaf,
  loosen,
  nodeAt,
  propertyNames,
  reshape,
  tighten,
  type Family,
  type Kind,
} from './support.ts';

const arrayNode = (rng: Rng, base: JsonObject) =>
  ensure(rng, base, isArrayLike, () => ({ type: 'array', items: leaf(rng) }));

/** A tuple written as the document's dialect writes it: prefixItems, or draft-07's items array. */
function setTuple(doc: JsonObject, n: JsonObject, tuple: Json[], closed: boolean): void {
  if (docDialect(doc) === 'draft-07') {
    n.items = tuple;
    if (closed) n.additionalItems = false;
  } else {
    n.prefixItems = tuple;
    if (closed) n.items = false;
  }
}

function tupleOf(n: JsonObject): Json[] | undefined {
  if (Array.isArray(n.prefixItems)) return n.prefixItems;
  if (Array.isArray(n.items)) return n.items;
  return undefined;
}

const arrays: Kind[] = [
  // items schema: tightened, loosened, replaced, added or removed
  (rng, base) => {
    const p = arrayNode(rng, base);
    return derive(base, p, (n) => {
      if (Array.isArray(n.items)) return false;
      const r = rng.int(4);
      if (n.items === undefined || r === 0) n.items = leaf(rng);
      else if (r === 1) delete n.items;
      else n.items = reshape(rng, n.items);
      return true;
    });
  },
  // a tuple added, changed, closed or opened
  (rng, base) => {
    const p = arrayNode(rng, base);
    if (rng.chance(0.5)) {
      const n = nodeAt(base, p);
      if (!tupleOf(n)) setTuple(base, n, [{ type: 'string' }, { type: 'integer' }], rng.chance(0.5));
    }
    return derive(base, p, (n, doc) => {
      const t = tupleOf(n);
      if (!t) return void setTuple(doc, n, [leaf(rng), leaf(rng)], rng.chance(0.4));
      const r = rng.int(4);
      if (r === 0) t[rng.int(t.length)] = reshape(rng, t[0] as Json);
      else if (r === 1) t.push(leaf(rng));
      else if (r === 2) t.pop();
      else if (Array.isArray(n.items)) n.additionalItems = n.additionalItems === false ? true : false;
      else n.items = n.items === false ? true : false;
    });
  },
  // contains, minContains, maxContains
  (rng, base) => {
    const p = arrayNode(rng, base);
    if (rng.chance(0.5)) nodeAt(base, p).contains = { type: 'string' };
    return derive(base, p, (n) => {
      const r = rng.int(5);
      if (n.contains === undefined || r === 0) n.contains = leaf(rng);
      else if (r === 1) delete n.contains;
      else if (r === 2) n.minContains = rng.pick([0, 2, 3]);
      else if (r === 3) n.maxContains = rng.pick([1, 2]);
      else n.contains = reshape(rng, n.contains);
    });
  },
  // uniqueItems added or removed
  (rng, base) => {
    const p = arrayNode(rng, base);
    return derive(base, p, (n) => {
      if (n.uniqueItems === true) delete n.uniqueItems;
      else n.uniqueItems = true;
    });
  },
];

const unevaluated: Kind[] = [
  // unevaluatedProperties in the common shape (no applicator beside it)
  (rng, base) => {
    const p = ensure(rng, base, isObjectLike, () => ({
      type: 'object',
      properties: { a: { type: 'string' } },
    }));
    if (rng.chance(0.4)) nodeAt(base, p).unevaluatedProperties = rng.pick<Json>([false, { type: 'string' }]);
    return derive(base, p, (n) => {
      const u = n.unevaluatedProperties;
      if (u === undefined) n.unevaluatedProperties = rng.pick<Json>([false, { type: 'string' }, true]);
      else if (rng.chance(0.4)) delete n.unevaluatedProperties;
      else
        n.unevaluatedProperties =
          u === false ? { type: 'string' } : rng.chance(0.5) ? tighten(rng, u) : loosen(rng, u);
    });
  },
  // unevaluatedProperties beside an allOf that declares properties
  (rng, base) => {
    const p = ensure(rng, base, isObjectLike, () => ({
      type: 'object',
      properties: { a: { type: 'string' } },
    }));
    const n0 = nodeAt(base, p);
    const names = propertyNames(n0);
    n0.allOf = [{ properties: { [names[0] ?? 'b']: { type: 'string' }, c: { type: 'integer' } } }];
    return derive(base, p, (n) => {
      if (n.unevaluatedProperties === undefined) n.unevaluatedProperties = false;
      else delete n.unevaluatedProperties;
      if (rng.chance(0.3)) (n.allOf as JsonObject[]).push({ properties: { d: true } });
    });
  },
  // unevaluated* kept beside an applicator in place, whose evaluated members the edit moves
  (rng, base) => {
    if (rng.chance(0.25)) {
      const p = ensure(rng, base, isArrayLike, () => ({ type: 'array' }));
      const n0 = nodeAt(base, p);
      n0.contains = leaf(rng);
      n0.unevaluatedItems = rng.pick<Json>([false, { type: 'integer' }]);
      return derive(base, p, (n) => {
        if (rng.chance(0.5)) n.contains = reshape(rng, n.contains as Json);
        else n.minContains = rng.pick([0, 2]);
      });
    }
    const p = ensure(rng, base, isObjectLike, () => ({
      type: 'object',
      properties: { a: { type: 'string' } },
    }));
    const n0 = nodeAt(base, p);
    const k = propertyNames(n0)[0] ?? 'a';
    const named = (name: string): JsonObject => ({ properties: { [name]: leaf(rng) } });
    const where = rng.int(5);
    if (where === 0) Object.assign(n0, { if: { required: [k] }, then: named('x') });
    else if (where === 1) n0.anyOf = [named('x'), { type: 'object' }];
    else if (where === 2) n0.oneOf = [named('x'), { required: ['zz'] }];
    else if (where === 3) n0.dependentSchemas = { [k]: named('x') };
    else Object.assign(n0, { if: { required: [k] }, then: named('x'), else: named('y') });
    n0.unevaluatedProperties = rng.pick<Json>([false, { type: 'string' }]);
    return derive(base, p, (n) => {
      const holder = (
        where === 0 || where === 4
          ? rng.chance(0.5) || where === 0
            ? n.then
            : n.else
          : where === 3
            ? (n.dependentSchemas as JsonObject)[k]
            : (n[where === 1 ? 'anyOf' : 'oneOf'] as Json[])[0]
      ) as JsonObject;
      const props = holder.properties as JsonObject;
      const [name] = Object.keys(props);
      const r = rng.int(4);
      if (r === 0) holder.properties = { [`${name}2`]: props[name as string] as Json };
      else if (r === 1) props.w = leaf(rng);
      else if (r === 2) delete holder.properties;
      else props[name as string] = reshape(rng, props[name as string] as Json);
    });
  },
  // unevaluatedItems beside a tuple
  (rng, base) => {
    const p = ensure(rng, base, isArrayLike, () => ({ type: 'array' }));
    const n0 = nodeAt(base, p);
    if (!Array.isArray(n0.prefixItems)) n0.prefixItems = [{ type: 'string' }];
    return derive(base, p, (n) => {
      if (n.unevaluatedItems === undefined) n.unevaluatedItems = rng.pick<Json>([false, { type: 'integer' }]);
      else delete n.unevaluatedItems;
      if (isObject(n.items) && rng.chance(0.3)) delete n.items;
    });
  },
];

export const ARRAY_FAMILIES: Family[] = [
  { name: 'arrays', kinds: arrays },
  { name: 'unevaluated', kinds: unevaluated },
];
