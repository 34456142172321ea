import { walkJson, type WalkBounds } from './json-walk.ts';
import type { RuleId } from './rules.ts';
import type { Json } from './types.ts';

/**
 * How deep and how large a schema the gate reads. Real tool schemas nest a few levels and hold
 * a few hundred values (a whole MCP specification revision nests 12 deep and holds about 3,000),
 * so the bounds are generous; what lies beyond them is hostile or broken, and is answered
 * `unknown` before any recursive walk (the engine, generation, Ajv's compiler) can meet it.
 */
export const MAX_SCHEMA_DEPTH = 256;
export const MAX_SCHEMA_VALUES = 250_000;
/**
 * Distinct `$ref` targets. Ajv writes the code that fetches each referenced validator into the
 * function that uses it by copying what it wrote so far: quadratic in the targets of one
 * function (4,000 took 11 s, 6,000 20 s). A specification revision has under 300.
 */
export const MAX_SCHEMA_REFS = 2_000;

/** The bounds of a walk over a schema (json-walk.ts): one within the gate's bounds is never cut short. */
export const SCHEMA_BOUNDS: WalkBounds = { maxDepth: MAX_SCHEMA_DEPTH, maxValues: MAX_SCHEMA_VALUES };

export interface Measure {
  /** Nesting of objects and arrays: a scalar is 0, `{}` is 1, `{"a": []}` is 2. */
  depth: number;
  /** Every value counted once, containers and scalars alike. */
  values: number;
  /** Distinct `$ref` targets. */
  refs: number;
}

/** Measures of whole values at the default bounds, once per object: several checks ask of one schema. */
const measured = new WeakMap<object, Measure & { over?: 'depth' | 'values' | 'refs' }>();

/**
 * Depth and size of a JSON value, walked with an explicit stack. The walk stops as soon as a
 * bound is passed, so measuring costs at most the bound, however large the value. Nothing is
 * allocated per member (an enum of 100,000 values is 100,000 steps, not 100,000 small arrays).
 */
export function measure(
  value: unknown,
  maxDepth = MAX_SCHEMA_DEPTH,
  maxValues = MAX_SCHEMA_VALUES,
  maxRefs = MAX_SCHEMA_REFS,
): Measure & { over?: 'depth' | 'values' | 'refs' } {
  const memo =
    typeof value === 'object' &&
    value !== null &&
    maxDepth === MAX_SCHEMA_DEPTH &&
    maxValues === MAX_SCHEMA_VALUES &&
    maxRefs === MAX_SCHEMA_REFS;
  if (memo) {
    const known = measured.get(value);
    if (known) return { ...known };
  }
  const result = walkMeasure(value, maxDepth, maxValues, maxRefs);
  if (memo) measured.set(value, { ...result });
  return result;
}

function walkMeasure(
  value: unknown,
  maxDepth: number,
  maxValues: number,
  maxRefs: number,
): Measure & { over?: 'depth' | 'values' | 'refs' } {
  // Two stacks side by side (a value and its level), in the order one stack of pairs would give.
  const pending: unknown[] = [value];
  const levels: number[] = [0];
  const refs = new Set<string>();
  let depth = 0;
  let values = 0;
  while (pending.length > 0) {
    const v = pending.pop();
    const level = levels.pop() as number;
    values++;
    if (values > maxValues) return { depth, values, refs: refs.size, over: 'values' };
    if (typeof v !== 'object' || v === null) continue;
    const inner = level + 1;
    if (inner > depth) depth = inner;
    if (depth > maxDepth) return { depth, values, refs: refs.size, over: 'depth' };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        pending.push(v[i]);
        levels.push(inner);
      }
      continue;
    }
    const ref = (v as Record<string, unknown>).$ref;
    if (typeof ref === 'string' && !refs.has(ref)) {
      refs.add(ref);
      if (refs.size > maxRefs) return { depth, values, refs: refs.size, over: 'refs' };
    }
    for (const member of Object.values(v)) {
      pending.push(member);
      levels.push(inner);
    }
  }
  return { depth, values, refs: refs.size };
}

/**
 * The rule and arguments of the finding that says a schema is beyond the gate's bounds, or
 * undefined when it is within them. Both rules are unknown in either direction: the gate cannot
 * say, so it fails closed.
 */
export function beyondBounds(schema: unknown): { rule: RuleId; args: Record<string, Json> } | undefined {
  const m = measure(schema);
  if (m.over === 'depth') return { rule: 'schema-too-deep', args: { limit: MAX_SCHEMA_DEPTH } };
  if (m.over === 'values') return { rule: 'schema-too-large', args: { limit: MAX_SCHEMA_VALUES } };
  if (m.over === 'refs') return { rule: 'schema-too-many-refs', args: { limit: MAX_SCHEMA_REFS } };
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
  const end = walkJson(
    schema,
    null,
    (v) => {
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
        for (const k of NESTING) {
          const m = (v as Record<string, unknown>)[k];
          if (typeof m === 'object' && m !== null) widest = Math.max(widest, Object.keys(m).length);
        }
      }
      return null;
    },
    SCHEMA_BOUNDS,
  );
  // A schema past the bounds is never compiled; were it asked, it is as wide as can be.
  if (end !== 'complete') widest = Infinity;
  widths.set(schema, widest);
  return widest;
}
