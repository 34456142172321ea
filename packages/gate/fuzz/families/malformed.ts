import { clone, type Json, type JsonObject } from '../json.ts';
import { at, setAt } from '../walk.ts';
import {
  anyNode,
  addDefinition,
  derive,
  ensure,
  isObjectLike,
  leaf,
  nodeAt,
  objectPaths,
  tighten,
  type Family,
  type Kind,
} from './support.ts';

/** Invalid keyword values a careless release might ship; the gate must not crash or pass them. */
const INVALID: ((n: JsonObject) => void)[] = [
  (n) => (n.type = ['string', 'string']),
  (n) => (n.type = 'strin'),
  (n) => (n.required = 1),
  (n) => (n.required = ['a', 'a']),
  (n) => (n.minLength = -1),
  (n) => (n.pattern = '['),
  (n) => (n.enum = []),
  (n) => (n.multipleOf = 0),
  (n) => (n.properties = []),
  (n) => (n.additionalProperties = 'no'),
  (n) => (n.$ref = '#/$defs/Missing'),
  (n) => (n.items = 5),
  (n) => (n.exclusiveMaximum = true),
];

const malformed: Kind[] = [
  (rng, base) => {
    const p = anyNode(rng, base);
    return derive(base, p, (n) => rng.pick(INVALID)(n));
  },
  // a definition that refers to itself and nothing else
  (rng, base) => {
    const ref = addDefinition(base, 'Loop', { type: 'string' });
    const owner = ensure(rng, base, isObjectLike, () => ({ type: 'object', properties: {} }));
    const node = nodeAt(base, owner);
    node.properties = { ...(node.properties as JsonObject | undefined), loop: { $ref: ref } };
    const next = clone(base);
    const steps = ref.slice(2).split('/');
    setAt(next, steps, rng.chance(0.5) ? { $ref: ref } : { allOf: [{ $ref: ref }] });
    return next;
  },
];

/** Wraps a schema in `depth` levels of one nesting keyword. */
function nest(schema: Json, depth: number, how: number): Json {
  let s = schema;
  for (let i = 0; i < depth; i++) {
    if (how === 0) s = { type: 'object', properties: { n: s }, required: ['n'] };
    else if (how === 1) s = { allOf: [s] };
    else if (how === 2) s = { type: 'array', items: s };
    else if (how === 3) s = { anyOf: [s, { type: 'null' }] };
    else s = { not: { not: s } };
  }
  return s;
}

const deep: Kind[] = [
  (rng, base) => {
    const paths = objectPaths(base, () => true).filter((p) => p.length > 0);
    if (paths.length === 0) return undefined;
    const p = rng.pick(paths);
    const depth = rng.pick([20, 60, 120, 250]);
    const how = rng.int(5);
    const inner = rng.chance(0.5) ? clone(at(base, p) as Json) : leaf(rng);
    setAt(base, p, nest(inner, depth, how));
    const next = clone(base);
    setAt(next, p, nest(tighten(rng, inner), depth, how));
    return next;
  },
];

export const MALFORMED_FAMILIES: Family[] = [
  { name: 'malformed', kinds: malformed },
  { name: 'deep', kinds: deep },
];
