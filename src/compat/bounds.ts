import type { Json } from './types.ts';

/**
 * How deep and how large a schema the gate reads. Real tool schemas nest a few levels and hold
 * a few hundred values (a whole MCP specification revision nests 12 deep and holds about 3,000),
 * so the bounds are generous; what lies beyond them is hostile or broken, and is answered
 * `unknown` before any recursive walk (the engine, generation, Ajv's compiler) can meet it.
 */
export const MAX_SCHEMA_DEPTH = 256;
export const MAX_SCHEMA_VALUES = 250_000;

export interface Measure {
  /** Nesting of objects and arrays: a scalar is 0, `{}` is 1, `{"a": []}` is 2. */
  depth: number;
  /** Every value counted once, containers and scalars alike. */
  values: number;
}

/**
 * Depth and size of a JSON value, walked with an explicit stack. The walk stops as soon as a
 * bound is passed, so measuring costs at most the bound, however large the value.
 */
export function measure(
  value: unknown,
  maxDepth = MAX_SCHEMA_DEPTH,
  maxValues = MAX_SCHEMA_VALUES,
): Measure & { over?: 'depth' | 'values' } {
  const pending: [unknown, number][] = [[value, 0]];
  let depth = 0;
  let values = 0;
  while (pending.length > 0) {
    const [v, level] = pending.pop() as [unknown, number];
    values++;
    if (values > maxValues) return { depth, values, over: 'values' };
    if (typeof v !== 'object' || v === null) continue;
    const inner = level + 1;
    if (inner > depth) depth = inner;
    if (depth > maxDepth) return { depth, values, over: 'depth' };
    for (const member of Object.values(v)) pending.push([member, inner]);
  }
  return { depth, values };
}

/**
 * The rule and arguments of the finding that says a schema is beyond the gate's bounds, or
 * undefined when it is within them. Both rules are unknown in either direction: the gate cannot
 * say, so it fails closed.
 */
export function beyondBounds(schema: unknown): { rule: string; args: Record<string, Json> } | undefined {
  const m = measure(schema);
  if (m.over === 'depth') return { rule: 'schema-too-deep', args: { limit: MAX_SCHEMA_DEPTH } };
  if (m.over === 'values') return { rule: 'schema-too-large', args: { limit: MAX_SCHEMA_VALUES } };
  return undefined;
}

/** Keywords whose members Ajv, stopping at the first error, builds each nested in the one before. */
const NESTING = [
  'properties',
  'patternProperties',
  'dependentSchemas',
  'dependentRequired',
  'prefixItems',
  'items',
  'allOf',
];
const widths = new WeakMap<object, number>();

/**
 * The most members one such keyword holds anywhere in a schema (walked with an explicit stack,
 * once per schema object): how deeply Ajv's default build nests its code.
 */
export function widestNesting(schema: unknown): number {
  if (typeof schema !== 'object' || schema === null) return 0;
  const known = widths.get(schema);
  if (known !== undefined) return known;
  let widest = 0;
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (!Array.isArray(v)) {
      for (const k of NESTING) {
        const m = (v as Record<string, unknown>)[k];
        if (typeof m === 'object' && m !== null) widest = Math.max(widest, Object.keys(m).length);
      }
    }
    for (const member of Object.values(v)) pending.push(member);
  }
  widths.set(schema, widest);
  return widest;
}
