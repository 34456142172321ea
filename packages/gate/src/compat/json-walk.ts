/** Returned by a visit: leave the value's members out of the walk. */
export const SKIP: unique symbol = Symbol('skip');
/** Returned by a visit: end the walk here. */
export const STOP: unique symbol = Symbol('stop');

/** How a walk ended: every value visited, stopped by a visit, or a bound passed first. */
export type WalkEnd = 'complete' | 'stopped' | 'too-deep' | 'too-large';

export interface WalkBounds {
  /** The deepest value visited: the root is at 0, its members at 1, and so on. */
  maxDepth: number;
  /** The most values visited, containers and scalars alike. */
  maxValues: number;
}

/**
 * Visits a JSON value and every value inside it, with an explicit stack (any depth walks without
 * growing the call stack) and within bounds (a walk past them ends, saying which; a schema's
 * are SCHEMA_BOUNDS in bounds.ts). Each visit is
 * given the value, the key or index it sits at, its depth, and the context its parent's visit
 * returned; it returns the context for the value's members, SKIP to leave them out, or STOP.
 *
 * Members are pushed in order and taken from the top, so the last member of a container is
 * visited first; nothing is allocated per member beyond its place on four parallel stacks (an
 * enum of 100,000 values is 100,000 steps, not 100,000 small arrays).
 */
export function walkJson<C>(
  root: unknown,
  context: C,
  visit: (
    value: unknown,
    key: string | number | undefined,
    depth: number,
    context: C,
  ) => C | typeof SKIP | typeof STOP,
  bounds: WalkBounds,
): WalkEnd {
  const values: unknown[] = [root];
  const keys: (string | number | undefined)[] = [undefined];
  const depths: number[] = [0];
  const contexts: C[] = [context];
  let visited = 0;
  while (values.length > 0) {
    const value = values.pop();
    const key = keys.pop();
    const depth = depths.pop() as number;
    const outer = contexts.pop() as C;
    if (depth > bounds.maxDepth) return 'too-deep';
    if (++visited > bounds.maxValues) return 'too-large';
    const inner = visit(value, key, depth, outer);
    if (inner === STOP) return 'stopped';
    if (inner === SKIP || typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        values.push(value[i]);
        keys.push(i);
        depths.push(depth + 1);
        contexts.push(inner);
      }
      continue;
    }
    for (const k of Object.keys(value)) {
      values.push((value as Record<string, unknown>)[k]);
      keys.push(k);
      depths.push(depth + 1);
      contexts.push(inner);
    }
  }
  return 'complete';
}
