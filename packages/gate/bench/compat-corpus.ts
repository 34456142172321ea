// A generated corpus of tool schema pairs for the compat benchmark: realistic tool inputs
// (2 to 8 properties, nested objects, arrays, enums, formats, $defs) and one edit each.
import { seeded, type Chooser } from '../src/compat/generate/chooser.ts';
import type { Json, JsonObject } from '../src/compat/index.ts';

const NAMES = [
  'query',
  'limit',
  'cursor',
  'member',
  'email',
  'since',
  'tags',
  'format',
  'region',
  'page',
  'note',
  'id',
];

function leaf(r: Chooser, depth: number): JsonObject {
  const kind = r.int(0, depth > 1 ? 7 : 9);
  switch (kind) {
    case 0:
      return { type: 'string', description: 'free text', maxLength: r.int(20, 200) };
    case 1:
      return { type: 'integer', minimum: 0, maximum: r.int(10, 1000) };
    case 2:
      return { type: 'number', minimum: r.int(-10, 0) };
    case 3:
      return { type: 'string', enum: ['json', 'csv', 'xml', 'yaml'].slice(0, r.int(2, 4)) };
    case 4:
      return { type: 'string', format: r.pick(['email', 'date', 'uri', 'uuid', 'date-time']) as string };
    case 5:
      return { type: 'boolean', default: false };
    case 6:
      return { type: ['string', 'null'] };
    case 7:
      return { type: 'string', pattern: '^[a-z0-9_-]+$', minLength: 1 };
    case 8:
      return { type: 'array', items: leaf(r, depth + 1), maxItems: r.int(5, 50) };
    default:
      return objectOf(r, depth + 1);
  }
}

function objectOf(r: Chooser, depth: number): JsonObject {
  const props: JsonObject = {};
  const n = r.int(2, depth === 0 ? 8 : 4);
  for (let i = 0; i < n; i++) props[NAMES[(i * 5 + r.int(0, 11)) % NAMES.length] as string] = leaf(r, depth);
  const keys = Object.keys(props);
  const schema: JsonObject = {
    type: 'object',
    properties: props,
    required: keys.filter(() => r.chance(0.3)),
  };
  if ((schema.required as Json[]).length === 0) delete schema.required;
  if (r.chance(0.3)) schema.additionalProperties = false;
  return schema;
}

type Edit = (s: JsonObject, r: Chooser) => void;

function someProperty(s: JsonObject, r: Chooser): [JsonObject, string] {
  const props = s.properties as JsonObject;
  const key = r.pick(Object.keys(props)) as string;
  return [props, key];
}

/** One edit per family of rule 2, each applied to a random property. */
const EDITS: Record<string, Edit> = {
  'type narrowed': (s, r) => {
    const [p, k] = someProperty(s, r);
    p[k] = { ...(p[k] as JsonObject), type: 'integer' };
  },
  'type widened': (s, r) => {
    const [p, k] = someProperty(s, r);
    const t = (p[k] as JsonObject).type;
    p[k] = {
      ...(p[k] as JsonObject),
      type: [...new Set([...(Array.isArray(t) ? t : [t ?? 'string']), 'null'])] as Json,
    };
  },
  'property added optional': (s) => {
    (s.properties as JsonObject).extra = { type: 'string' };
  },
  'property added required': (s) => {
    (s.properties as JsonObject).extra = { type: 'string' };
    s.required = [...((s.required as Json[]) ?? []), 'extra'];
  },
  'property became required': (s, r) => {
    const [, k] = someProperty(s, r);
    s.required = [...new Set([...((s.required as Json[]) ?? []), k])];
  },
  'property became optional': (s) => {
    delete s.required;
  },
  'property removed': (s, r) => {
    const [p, k] = someProperty(s, r);
    delete p[k];
    if (Array.isArray(s.required)) s.required = s.required.filter((x) => x !== k);
  },
  'additionalProperties closed': (s) => {
    s.additionalProperties = false;
  },
  'additionalProperties opened': (s) => {
    delete s.additionalProperties;
  },
  'enum changed': (s, r) => {
    const [p, k] = someProperty(s, r);
    p[k] = { type: 'string', enum: r.chance(0.5) ? ['json'] : ['json', 'csv', 'xml', 'yaml', 'toml'] };
  },
  'bounds changed': (s, r) => {
    const [p, k] = someProperty(s, r);
    p[k] = { ...(p[k] as JsonObject), minimum: r.int(-5, 5), maximum: r.int(5, 500) };
  },
  'length changed': (s, r) => {
    const [p, k] = someProperty(s, r);
    p[k] = { ...(p[k] as JsonObject), maxLength: r.int(1, 300) };
  },
  'format changed': (s, r) => {
    const [p, k] = someProperty(s, r);
    p[k] = { type: 'string', format: r.pick(['email', 'uri', 'date']) as string };
  },
  'items changed': (s, r) => {
    const [p, k] = someProperty(s, r);
    p[k] = {
      type: 'array',
      items: { type: r.pick(['string', 'integer']) as string },
      maxItems: r.int(1, 10),
    };
  },
  'anyOf added': (s, r) => {
    const [p, k] = someProperty(s, r);
    p[k] = { anyOf: [p[k] as Json, { type: 'null' }] };
  },
  'description changed': (s, r) => {
    const [p, k] = someProperty(s, r);
    p[k] = { ...(p[k] as JsonObject), description: 'rewritten for the model' };
  },
};

export interface Pair {
  family: string;
  old: JsonObject;
  new: JsonObject;
}

/** `count` pairs, deterministic for a seed. */
export function corpus(count: number, seed = 20261129): Pair[] {
  const r = seeded(seed);
  const families = Object.keys(EDITS);
  const out: Pair[] = [];
  for (let i = 0; i < count; i++) {
    const old = objectOf(r, 0);
    const family = families[i % families.length] as string;
    const edited = structuredClone(old);
    (EDITS[family] as Edit)(edited, r);
    out.push({ family, old, new: edited });
  }
  return out;
}
