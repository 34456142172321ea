import { STOP, walkJson, type WalkBounds } from './json-walk.ts';
import { keywordsWhere } from './keywords.ts';
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
 * Depth and size of a JSON value, walked by walkJson. The walk stops as soon as a bound is
 * passed, so measuring costs at most the bound, however large the value.
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
  const refs = new Set<string>();
  let depth = 0;
  let values = 0;
  let over: 'depth' | 'refs' | undefined;
  // Depth here is the nesting of containers (a scalar is 0), one more than the walk's level of
  // the deepest container: it is checked in the visit, the count of values by the walk's bound.
  const end = walkJson(
    value,
    null,
    (v, _, level) => {
      values++;
      if (typeof v !== 'object' || v === null) return null;
      if (level + 1 > depth) depth = level + 1;
      if (depth > maxDepth) {
        over = 'depth';
        return STOP;
      }
      if (Array.isArray(v)) return null;
      const ref = (v as Record<string, unknown>).$ref;
      if (typeof ref === 'string' && !refs.has(ref)) {
        refs.add(ref);
        if (refs.size > maxRefs) {
          over = 'refs';
          return STOP;
        }
      }
      return null;
    },
    { maxDepth: Infinity, maxValues },
  );
  if (end === 'too-large') return { depth, values: values + 1, refs: refs.size, over: 'values' };
  return over === undefined ? { depth, values, refs: refs.size } : { depth, values, refs: refs.size, over };
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

/**
 * Keywords whose members Ajv, stopping at the first error, builds each nested in the one before
 * (the keyword table's `nests`).
 */
export const NESTING: readonly string[] = keywordsWhere((k) => k.nests === true);
const widths = new WeakMap<object, number>();

/**
 * The most members one such keyword holds anywhere in a schema (walked by walkJson, once per
 * schema object): how deeply Ajv's default build nests its code.
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
