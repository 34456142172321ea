import path from 'node:path';
import type { Json, JsonObject, Schema } from '../../src/compat/index.ts';
import { pruneDefinitions } from '../../src/compat/prune.ts';
import { FIXTURES, readJson } from './helpers.ts';

/** One definition of a published MCP schema revision, with only the definitions it reaches. */
export function specDefinition(revision: string, name: string): JsonObject {
  const doc = readJson<Record<string, unknown>>(path.join(FIXTURES, 'mcp-spec', `${revision}.json`));
  const key = doc.definitions ? 'definitions' : '$defs';
  const whole = { $schema: doc.$schema as string, [key]: doc[key] as never, $ref: `#/${key}/${name}` };
  return structuredClone(pruneDefinitions(whole)) as JsonObject;
}

/** A JSON value type (as the specification's JSONValue) and a pair of mutually recursive definitions. */
export const RECURSIVE: JsonObject[] = [
  {
    type: 'object',
    properties: { data: { $ref: '#/$defs/Value' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['data'],
    $defs: {
      Value: {
        anyOf: [
          { type: 'object', additionalProperties: { $ref: '#/$defs/Value' } },
          { type: 'array', items: { $ref: '#/$defs/Value' } },
          { type: ['string', 'integer', 'boolean', 'null'] },
        ],
      },
    },
  },
  {
    type: 'object',
    properties: { root: { $ref: '#/$defs/Tree' } },
    $defs: {
      Tree: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 20 }, forest: { $ref: '#/$defs/Forest' } },
        required: ['name'],
      },
      Forest: { type: 'array', items: { $ref: '#/$defs/Tree' }, maxItems: 4 },
    },
  },
];

/** Real schemas to mutate: published MCP definitions (recursive ones included) and the two above. */
export function corpus(): JsonObject[] {
  return [
    specDefinition('2026-07-28', 'CallToolRequest'),
    specDefinition('2026-07-28', 'Tool'),
    specDefinition('2026-07-28', 'ClientCapabilities'),
    specDefinition('2025-11-25', 'ElicitRequest'),
    specDefinition('2025-06-18', 'CreateMessageRequest'),
    specDefinition('2025-03-26', 'PromptMessage'),
    ...RECURSIVE.map((s) => structuredClone(s)),
  ];
}

const CHILD_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];
const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const CHILD_ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else'];

/** Every object subschema of a schema, with a way to replace it. */
export function subschemas(root: JsonObject): { node: JsonObject; set: (s: JsonObject) => void }[] {
  const out: { node: JsonObject; set: (s: JsonObject) => void }[] = [];
  const visit = (node: Json, set: (s: JsonObject) => void): void => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    out.push({ node, set });
    for (const k of CHILD_MAPS) {
      const m = node[k];
      if (m && typeof m === 'object' && !Array.isArray(m))
        for (const name of Object.keys(m)) visit(m[name] as Json, (s) => (m[name] = s));
    }
    for (const k of CHILD_LISTS) {
      const l = node[k];
      if (Array.isArray(l)) l.forEach((x, i) => visit(x, (s) => (l[i] = s)));
    }
    for (const k of CHILD_ONE) {
      if (node[k] !== undefined) visit(node[k] as Json, (s) => (node[k] = s));
    }
  };
  visit(root, () => undefined);
  return out;
}

/** One edit at a chosen subschema, of the kinds a server's author makes between releases. */
export function mutate(schema: JsonObject, where: number, kind: number, amount: number): JsonObject {
  const s = structuredClone(schema);
  const nodes = subschemas(s);
  const { node, set } = nodes[where % nodes.length] as { node: JsonObject; set: (s: JsonObject) => void };
  const props = node.properties as JsonObject | undefined;
  const names = props ? Object.keys(props) : [];
  const name = names[amount % Math.max(1, names.length)];
  const required = Array.isArray(node.required) ? (node.required as string[]) : [];
  switch (kind % 18) {
    case 0:
      node.minLength = 1 + (amount % 3);
      break;
    case 1:
      node.maxLength = amount % 5;
      break;
    case 2:
      node.minItems = 1 + (amount % 2);
      break;
    case 3:
      node.maxItems = amount % 3;
      break;
    case 4:
      node.minimum = amount % 3;
      break;
    case 5:
      if (name !== undefined) node.required = [...new Set([...required, name])];
      else node.minProperties = 1;
      break;
    case 6:
      if (required.length > 0) node.required = required.slice(1);
      else node.description = `edited ${amount}`;
      break;
    case 7:
      if (name !== undefined && props) delete props[name];
      break;
    case 8:
      node.additionalProperties = amount % 2 === 0 ? false : { type: 'string' };
      break;
    case 9:
      node.type = ['string', 'object', 'array', 'integer', 'null'][amount % 5] as string;
      break;
    case 10:
      set({ anyOf: [node, { type: 'null' }] });
      break;
    case 11:
      if (Array.isArray(node.enum) && node.enum.length > 1) node.enum = node.enum.slice(1);
      else node.enum = ['a', 'b', 1];
      break;
    case 12:
      if (typeof node.$ref === 'string')
        node[['minItems', 'maxLength', 'minProperties'][amount % 3] as string] = 1;
      else node.maxProperties = amount % 3;
      break;
    case 13:
      for (const k of [
        'minLength',
        'maxLength',
        'minItems',
        'maxItems',
        'minimum',
        'maximum',
        'required',
        'enum',
        'const',
      ])
        delete node[k];
      break;
    case 14:
      if (props) props[`added_${amount % 3}`] = { type: 'string' };
      else node.const = 'fixed';
      break;
    case 15: {
      const l = (node.anyOf ?? node.oneOf) as Json[] | undefined;
      if (Array.isArray(l) && l.length > 1) l.splice(amount % l.length, 1);
      else if (Array.isArray(l)) l.push({ type: 'boolean' });
      else node.uniqueItems = true;
      break;
    }
    case 16:
      if (props && name !== undefined) props[name] = { type: 'array', items: props[name] as Json };
      else node.pattern = '^[a-z]+$';
      break;
    case 17:
      node.format = ['date', 'email', 'uri'][amount % 3] as string;
      break;
  }
  return s;
}

/** A deterministic shuffle (xorshift), so a failing permutation can be reproduced from its seed. */
function shuffle<T>(list: T[], seed: number): T[] {
  let x = seed | 1;
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const j = Math.abs(x) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * The same schema with `properties` (and every other name map, `$defs` included) in another order
 * and `anyOf` / `oneOf` branches permuted: nothing a validator can tell apart.
 */
export function permute(schema: Schema, seed: number): Schema {
  let n = seed;
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      if (CHILD_MAPS.includes(k) && x && typeof x === 'object' && !Array.isArray(x)) {
        out[k] = Object.fromEntries(shuffle(Object.entries(x), ++n).map(([a, b]) => [a, walk(b)]));
      } else if ((k === 'anyOf' || k === 'oneOf') && Array.isArray(x)) {
        out[k] = shuffle(x, ++n).map(walk);
      } else out[k] = walk(x);
    }
    return out;
  };
  return walk(schema as Json) as Schema;
}
