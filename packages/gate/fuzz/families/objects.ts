import { clone, isObject, type Json, type JsonObject } from '../json.ts';
import type { Rng } from '../prng.ts';
import {
  derive,
  ensure,
  freshName,
  isObjectLike,
  leaf,
  loosen,
  nodeAt,
  pick,
  propertyNames,
  requiredNames,
  reshape,
  tighten,
  typesOf,
  type Family,
  type Kind,
  type TypeName,
} from './support.ts';

const TYPES: TypeName[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const objectNode = (rng: Rng, base: JsonObject) =>
  ensure(rng, base, isObjectLike, () => ({ type: 'object', properties: { a: { type: 'string' } } }));

/** Sometimes closes the object in the old side too, so edits are tried on open and closed objects. */
function maybeClose(rng: Rng, base: JsonObject, path: (string | number)[]): void {
  if (rng.chance(0.3)) nodeAt(base, path).additionalProperties = false;
}

const type: Kind[] = [
  (rng, base) => {
    const p = pick(rng, base, (n) => n.type === undefined && n.$ref === undefined);
    return p && derive(base, p, (n) => void (n.type = rng.pick(typesOf(n).length ? typesOf(n) : TYPES)));
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => n.type !== undefined);
    return p && derive(base, p, (n) => void delete n.type);
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => typeof n.type === 'string');
    return p && derive(base, p, (n) => void (n.type = rng.pick(TYPES.filter((t) => t !== n.type))));
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => typeof n.type === 'string');
    return (
      p &&
      derive(base, p, (n) => void (n.type = [n.type as string, rng.pick(TYPES.filter((t) => t !== n.type))]))
    );
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => Array.isArray(n.type) && n.type.length > 1);
    return (
      p &&
      derive(base, p, (n) => {
        const t = [...(n.type as Json[])];
        t.splice(rng.int(t.length), 1);
        n.type = t.length === 1 && rng.chance(0.5) ? (t[0] as Json) : t;
      })
    );
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => n.type !== undefined && !typesOf(n).includes('null'));
    return p && derive(base, p, (n) => void (n.type = [...typesOf(n), 'null']));
  },
  (rng, base) => {
    const p = ensure(
      rng,
      base,
      (n) => n.type === 'integer' || n.type === 'number',
      () => ({ type: 'integer' }),
    );
    return derive(base, p, (n) => void (n.type = n.type === 'integer' ? 'number' : 'integer'));
  },
];

const properties: Kind[] = [
  (rng, base) => {
    const p = objectNode(rng, base);
    maybeClose(rng, base, p);
    return derive(base, p, (n) => {
      n.properties = { ...(isObject(n.properties) ? n.properties : {}), [freshName(rng, n)]: leaf(rng) };
    });
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => propertyNames(n).length > 0);
    if (!p) return undefined;
    maybeClose(rng, base, p);
    return derive(base, p, (n) => {
      const name = rng.pick(propertyNames(n));
      delete (n.properties as JsonObject)[name];
      if (rng.chance(0.5)) n.required = requiredNames(n).filter((r) => r !== name);
    });
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => propertyNames(n).length > 0);
    if (!p) return undefined;
    maybeClose(rng, base, p);
    return derive(base, p, (n) => {
      const props = n.properties as JsonObject;
      const name = rng.pick(Object.keys(props));
      props[name] = reshape(rng, props[name] as Json);
    });
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => propertyNames(n).length > 0);
    if (!p) return undefined;
    maybeClose(rng, base, p);
    return derive(base, p, (n) => {
      const props = n.properties as JsonObject;
      const name = rng.pick(Object.keys(props));
      const fresh = freshName(rng, n);
      n.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k === name ? fresh : k, v]));
      n.required = requiredNames(n).map((r) => (r === name ? fresh : r));
    });
  },
  (rng, base) => {
    const p = objectNode(rng, base);
    maybeClose(rng, base, p);
    return derive(base, p, (n) => {
      const name = freshName(rng, n);
      n.properties = { ...(isObject(n.properties) ? n.properties : {}), [name]: leaf(rng) };
      n.required = [...requiredNames(n), name];
    });
  },
];

const required: Kind[] = [
  (rng, base) => {
    const p = pick(rng, base, (n) => propertyNames(n).some((k) => !requiredNames(n).includes(k)));
    return (
      p &&
      derive(base, p, (n) => {
        const optional = propertyNames(n).filter((k) => !requiredNames(n).includes(k));
        n.required = [...requiredNames(n), rng.pick(optional)];
      })
    );
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => requiredNames(n).length > 0);
    return (
      p &&
      derive(base, p, (n) => {
        const r = requiredNames(n);
        r.splice(rng.int(r.length), 1);
        if (r.length === 0 && rng.chance(0.5)) delete n.required;
        else n.required = r;
      })
    );
  },
  (rng, base) => {
    const p = objectNode(rng, base);
    return derive(base, p, (n) => void (n.required = [...requiredNames(n), freshName(rng, n)]));
  },
  (rng, base) => {
    const p = pick(rng, base, (n) => requiredNames(n).length > 1);
    return p && derive(base, p, (n) => void delete n.required);
  },
];

const MAP_VALUES: Json[] = [
  { type: 'string' },
  { type: 'integer' },
  { type: ['string', 'number'] },
  {},
  true,
];

const additionalProperties: Kind[] = [
  // open (absent or true) → closed
  (rng, base) => {
    const p = objectNode(rng, base);
    if (rng.chance(0.3)) nodeAt(base, p).additionalProperties = true;
    return derive(base, p, (n) => {
      if (n.additionalProperties === false) return false;
      n.additionalProperties = false;
      return true;
    });
  },
  // absent → true, or true → absent
  (rng, base) => {
    const p = objectNode(rng, base);
    return derive(base, p, (n) => {
      if (n.additionalProperties === undefined) n.additionalProperties = true;
      else if (n.additionalProperties === true) delete n.additionalProperties;
      else return false;
      return true;
    });
  },
  // open or closed → a map
  (rng, base) => {
    const p = objectNode(rng, base);
    maybeClose(rng, base, p);
    return derive(base, p, (n) => void (n.additionalProperties = clone(rng.pick(MAP_VALUES))));
  },
  // a map tightened or loosened, or a map → true / false / absent
  (rng, base) => {
    const p = objectNode(rng, base);
    nodeAt(base, p).additionalProperties = clone(rng.pick(MAP_VALUES));
    return derive(base, p, (n) => {
      const r = rng.int(5);
      if (r === 0) n.additionalProperties = tighten(rng, n.additionalProperties as Json);
      else if (r === 1) n.additionalProperties = loosen(rng, n.additionalProperties as Json);
      else if (r === 2) n.additionalProperties = false;
      else if (r === 3) n.additionalProperties = true;
      else delete n.additionalProperties;
    });
  },
];

/** Regexes used as patternProperties and propertyNames patterns; neighbours overlap. */
const PATTERNS = ['^x-', '^x-a', '^[a-z]+$', '^[a-z_]+$', '^[0-9]+$', '^S_', '^S_[0-9]+$', '.*', 'a', '^me'];

function patternFor(rng: Rng, node: JsonObject): string {
  const names = propertyNames(node);
  if (names.length > 0 && rng.chance(0.3)) return `^${rng.pick(names).slice(0, 2)}`;
  return rng.pick(PATTERNS);
}

function patternsOf(n: JsonObject): JsonObject {
  if (!isObject(n.patternProperties)) n.patternProperties = {};
  return n.patternProperties as JsonObject;
}

const patternProperties: Kind[] = [
  // add a pattern (open or closed object)
  (rng, base) => {
    const p = objectNode(rng, base);
    maybeClose(rng, base, p);
    return derive(base, p, (n) => void (patternsOf(n)[patternFor(rng, n)] = leaf(rng)));
  },
  // remove a pattern, change its regex, or change its value schema
  (rng, base) => {
    const p = objectNode(rng, base);
    maybeClose(rng, base, p);
    const old = nodeAt(base, p);
    const regex = patternFor(rng, old);
    patternsOf(old)[regex] = leaf(rng);
    return derive(base, p, (n) => {
      const pp = patternsOf(n);
      const r = rng.int(3);
      if (r === 0) delete pp[regex];
      else if (r === 1) {
        const other = rng.pick(PATTERNS.filter((x) => x !== regex));
        n.patternProperties = Object.fromEntries(
          Object.entries(pp).map(([k, v]) => [k === regex ? other : k, v]),
        );
      } else pp[regex] = reshape(rng, pp[regex] as Json);
    });
  },
  // a pattern overlapping an old one, with another value schema
  (rng, base) => {
    const p = objectNode(rng, base);
    maybeClose(rng, base, p);
    const old = nodeAt(base, p);
    const [a, b] = rng.pick([
      ['^x-', '^x-a'],
      ['^[a-z]+$', '^[a-z_]+$'],
      ['^S_', '^S_[0-9]+$'],
      ['^[a-z]+$', 'a'],
      ['.*', '^me'],
    ]) as [string, string];
    const [first, second] = rng.chance(0.5) ? [a, b] : [b, a];
    const value = leaf(rng);
    patternsOf(old)[first] = value;
    return derive(
      base,
      p,
      (n) => void (patternsOf(n)[second] = rng.chance(0.5) ? tighten(rng, value) : leaf(rng)),
    );
  },
  // a pattern over an additionalProperties map: added (reverse: removed), or its schema changed
  (rng, base) => {
    const p = objectNode(rng, base);
    const old = nodeAt(base, p);
    const map = clone(rng.pick(MAP_VALUES));
    old.additionalProperties = map;
    const regex = patternFor(rng, old);
    if (rng.chance(0.3)) patternsOf(old)[regex] = leaf(rng);
    return derive(
      base,
      p,
      (n) => void (patternsOf(n)[regex] = rng.chance(0.5) ? tighten(rng, map) : loosen(rng, map)),
    );
  },
];

const NAME_SCHEMAS = (names: string[]): Json[] => [
  { pattern: '^[a-z]+$' },
  { pattern: '^[a-z_][a-z0-9_]*$' },
  { maxLength: 3 },
  { maxLength: 12 },
  { minLength: 2 },
  { enum: names.length > 0 ? names : ['a'] },
  { pattern: '^x-' },
];

const propertyNamesFamily: Kind[] = [
  // add propertyNames, sometimes on an object whose keys a pattern or a map declares
  (rng, base) => {
    const p = objectNode(rng, base);
    const old = nodeAt(base, p);
    const r = rng.int(4);
    if (r === 0) old.additionalProperties = clone(rng.pick(MAP_VALUES));
    if (r === 1) patternsOf(old)[rng.pick(PATTERNS)] = leaf(rng);
    if (r === 2) old.additionalProperties = false;
    return derive(base, p, (n) => void (n.propertyNames = rng.pick(NAME_SCHEMAS(propertyNames(n)))));
  },
  // tighten or remove existing propertyNames
  (rng, base) => {
    const p = objectNode(rng, base);
    const old = nodeAt(base, p);
    if (rng.chance(0.5)) old.additionalProperties = clone(rng.pick(MAP_VALUES));
    old.propertyNames = { maxLength: 20 };
    return derive(base, p, (n) => {
      const r = rng.int(4);
      if (r === 0) delete n.propertyNames;
      else if (r === 1) n.propertyNames = { maxLength: 4 };
      else if (r === 2) n.propertyNames = { maxLength: 20, pattern: '^[a-z]+$' };
      else n.propertyNames = { maxLength: 20, enum: propertyNames(n).length > 0 ? propertyNames(n) : ['a'] };
    });
  },
];

function twoNames(rng: Rng, n: JsonObject): [string, string] {
  const names = propertyNames(n);
  const a = names.length > 0 ? rng.pick(names) : 'a';
  const rest = names.filter((x) => x !== a);
  return [a, rest.length > 0 ? rng.pick(rest) : freshName(rng, n)];
}

const dependencies: Kind[] = [
  // dependentRequired: add, remove, or require one more name
  (rng, base) => {
    const p = objectNode(rng, base);
    const [a, b] = twoNames(rng, nodeAt(base, p));
    if (rng.chance(0.4)) nodeAt(base, p).dependentRequired = { [a]: [b] };
    return derive(base, p, (n) => {
      if (isObject(n.dependentRequired)) {
        if (rng.chance(0.5)) delete n.dependentRequired;
        else n.dependentRequired = { [a]: [b, 'z'] };
      } else n.dependentRequired = { [a]: [b] };
    });
  },
  // dependentSchemas: add, remove, tighten
  (rng, base) => {
    const p = objectNode(rng, base);
    const [a, b] = twoNames(rng, nodeAt(base, p));
    const dep: Json = rng.pick<Json>([
      { required: [b] },
      { properties: { [b]: { type: 'string' } } },
      { properties: { [b]: { maxLength: 2 } }, required: [b] },
      { not: { required: [b] } },
    ]);
    if (rng.chance(0.4)) nodeAt(base, p).dependentSchemas = { [a]: clone(dep) };
    return derive(base, p, (n) => {
      if (isObject(n.dependentSchemas)) {
        if (rng.chance(0.5)) delete n.dependentSchemas;
        else n.dependentSchemas = { [a]: tighten(rng, dep) };
      } else n.dependentSchemas = { [a]: dep };
    });
  },
  // draft-07 dependencies, array form and schema form
  (rng, base) => {
    const p = objectNode(rng, base);
    const [a, b] = twoNames(rng, nodeAt(base, p));
    const forms: Json[] = [[b], { required: [b] }, { properties: { [b]: { type: 'integer' } } }];
    if (rng.chance(0.4)) nodeAt(base, p).dependencies = { [a]: clone(rng.pick(forms)) };
    return derive(base, p, (n) => {
      if (isObject(n.dependencies) && rng.chance(0.5)) delete n.dependencies;
      else n.dependencies = { [a]: clone(rng.pick(forms)) };
    });
  },
];

export const OBJECT_FAMILIES: Family[] = [
  { name: 'type', kinds: type },
  { name: 'properties', kinds: properties },
  { name: 'required', kinds: required },
  { name: 'additionalProperties', kinds: additionalProperties },
  { name: 'patternProperties', kinds: patternProperties },
  { name: 'propertyNames', kinds: propertyNamesFamily },
  { name: 'dependencies', kinds: dependencies },
];
