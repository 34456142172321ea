// Hostile manifests for the compat gate, each with its small counterpart: what the robustness
// tests check for correctness and bench/compat-hostile.ts times as whole processes.
import type { Json, JsonObject, Tool } from '../src/compat/index.ts';

interface Manifest {
  tools: Tool[];
}

/** One changed manifest: before, after, and what the gate must answer. */
export interface HostileCase {
  name: string;
  /** What is measured, in a few words. */
  what: string;
  old: Manifest;
  new: Manifest;
}

const tool = (name: string, inputSchema: Json): Tool => ({
  name,
  description: `the ${name} tool`,
  inputSchema,
});

/** A schema nested `levels` deep (built in a loop: no recursion, whatever the depth). */
export function nested(levels: number, leaf: JsonObject): JsonObject {
  let schema: JsonObject = leaf;
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

/** The leaf of a nested schema changes type: breaking when the gate can read that deep. */
export function deepCase(levels: number): HostileCase {
  return {
    name: `nesting ${levels.toLocaleString('en')} deep`,
    what: 'the innermost type narrowed',
    old: { tools: [tool('deep', nested(levels, { type: 'string' }))] },
    new: { tools: [tool('deep', nested(levels, { type: 'integer' }))] },
  };
}

const values = (n: number): string[] => Array.from({ length: n }, (_, i) => `value-${i}`);

/** An enum of n values loses its first one. */
export function enumCase(n: number): HostileCase {
  const schema = (v: string[]): JsonObject => ({ type: 'object', properties: { pick: { enum: v } } });
  return {
    name: `enum of ${n.toLocaleString('en')}`,
    what: 'one value removed',
    old: { tools: [tool('pick', schema(values(n)))] },
    new: { tools: [tool('pick', schema(values(n).slice(1)))] },
  };
}

/** A oneOf of n objects, each told apart by a required `kind`, loses its first branch. */
export function oneOfCase(n: number): HostileCase {
  const branches = Array.from({ length: n }, (_, i) => ({
    type: 'object',
    properties: { kind: { const: `kind-${i}` }, size: { type: 'integer' } },
    required: ['kind'],
  }));
  const schema = (b: JsonObject[]): JsonObject => ({ type: 'object', properties: { shape: { oneOf: b } } });
  return {
    name: `oneOf of ${n.toLocaleString('en')} branches`,
    what: 'one branch removed',
    old: { tools: [tool('shape', schema(branches))] },
    new: { tools: [tool('shape', schema(branches.slice(1)))] },
  };
}

/** A oneOf of n consts loses its first branch. */
export function oneOfConstsCase(n: number): HostileCase {
  const branches = values(n).map((v) => ({ const: v }));
  const schema = (b: JsonObject[]): JsonObject => ({ type: 'object', properties: { pick: { oneOf: b } } });
  return {
    name: `oneOf of ${n.toLocaleString('en')} consts`,
    what: 'one branch removed',
    old: { tools: [tool('pick', schema(branches))] },
    new: { tools: [tool('pick', schema(branches.slice(1)))] },
  };
}

/** An object of n string properties; one of them becomes required. */
export function propertiesCase(n: number): HostileCase {
  const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }]));
  const last = `p${n - 1}`;
  return {
    name: `${n.toLocaleString('en')} properties`,
    what: 'one made required',
    old: { tools: [tool('wide', { type: 'object', properties })] },
    new: { tools: [tool('wide', { type: 'object', properties, required: [last] })] },
  };
}

/**
 * Property i of an object of distinct properties: no two alike, of varied types and keywords,
 * so that nothing can be built once and reused for the others.
 */
function distinctProperty(i: number): JsonObject {
  switch (i % 4) {
    case 0:
      return { type: 'string', maxLength: i + 1 };
    case 1:
      return { type: 'integer', minimum: -i, maximum: i };
    case 2:
      return { type: 'array', items: { type: 'string', maxLength: i }, maxItems: i };
    default:
      return { type: ['string', 'null'], pattern: `^[a-z]{0,${i}}$`, description: `field ${i}` };
  }
}

/** An object of n distinct properties (see distinctProperty); the last one becomes required. */
export function distinctPropertiesCase(n: number): HostileCase {
  const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, distinctProperty(i)]));
  const last = `p${n - 1}`;
  return {
    name: `${n.toLocaleString('en')} distinct properties`,
    what: 'one made required',
    old: { tools: [tool('wide', { type: 'object', properties })] },
    new: { tools: [tool('wide', { type: 'object', properties, required: [last] })] },
  };
}

/** The invalid schemas the gate must judge one tool at a time: each is unknown, with a reason. */
export const INVALID_SCHEMAS: Record<string, JsonObject> = {
  'duplicate type entries': { type: ['object', 'object'] },
  'required is not an array': { type: 'object', required: 1 as unknown as Json[] },
  'a $ref to the whole schema': { $ref: '#' },
  'a definition that refers to itself': { $defs: { A: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' },
};

/**
 * n valid tools, each changed (even ones compatibly, odd ones breaking), and, when `invalid`
 * names one of INVALID_SCHEMAS, one more tool whose new schema is that.
 */
export function manyToolsCase(n: number, invalid?: string): HostileCase {
  const valid = (i: number, changed: boolean): Tool =>
    tool(`tool-${String(i).padStart(2, '0')}`, {
      type: 'object',
      properties: {
        q: { type: 'string' },
        n: { type: changed && i % 2 === 1 ? 'integer' : 'number' },
        ...(changed && i % 2 === 0 ? { extra: { type: 'boolean' } } : {}),
      },
    });
  const old = Array.from({ length: n }, (_, i) => valid(i, false));
  const now = Array.from({ length: n }, (_, i) => valid(i, true));
  if (invalid !== undefined) {
    old.push(tool('invalid', { type: 'object', properties: { q: { type: 'string' } } }));
    now.push(tool('invalid', INVALID_SCHEMAS[invalid] as JsonObject));
  }
  return {
    name: invalid === undefined ? `${n} valid tools` : `${n} valid tools and one invalid`,
    what: invalid === undefined ? 'every tool changed' : `every tool changed; ${invalid}`,
    old: { tools: old },
    new: { tools: now },
  };
}
