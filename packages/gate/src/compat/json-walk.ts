/** Returned by a visit: leave the value's members out of the walk. */
export const SKIP: unique symbol = Symbol('skip');
/** Returned by a visit: end the walk here. */
export const STOP: unique symbol = Symbol('stop');

/**
 * Chooses, by the context an object's visit returned, which of its members are walked and in
 * which order (those it names and the object has as its own); undefined walks every member.
 */
export type Members<C> = (context: C) => readonly string[] | undefined;

/** How a walk ended: every value visited, stopped by a visit, or a bound passed first. */
export type WalkEnd = 'complete' | 'stopped' | 'too-deep' | 'too-large';

export interface WalkBounds {
  /** The deepest value visited: the root is at 0, its members at 1, and so on. */
  maxDepth: number;
  /** The most values visited, containers and scalars alike. */
  maxValues: number;
}

/**
 * No bound but the value itself: for a walk whose answer is owed for any value already held
 * (an equality, a search, a rewrite of a schema measured before). The work stays linear in the
 * value and the call stack does not grow, so any depth and width is walked to the end.
 */
export const WHOLE: WalkBounds = { maxDepth: Infinity, maxValues: Infinity };

/**
 * Visits a JSON value and every value inside it, with an explicit stack (any depth walks without
 * growing the call stack) and within bounds (a walk past them ends, saying which; a schema's
 * are SCHEMA_BOUNDS in bounds.ts). Each visit is
 * given the value, the key or index it sits at, its depth, and the context its parent's visit
 * returned; it returns the context for the value's members, SKIP to leave them out, or STOP.
 *
 * Members are pushed in order and taken from the top, so the last member of a container is
 * visited first; nothing is allocated per member beyond its place on four parallel stacks (an
 * enum of 100,000 values is 100,000 steps, not 100,000 small arrays). `members`, when given,
 * chooses which members of an object are walked (see Members): a walk over a schema's in-place
 * subschemas need not push its other keywords.
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
  members?: Members<C>,
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
    const only = members?.(inner);
    if (only !== undefined) {
      for (const k of only) {
        if (!Object.hasOwn(value, k)) continue;
        values.push((value as Record<string, unknown>)[k]);
        keys.push(k);
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

/** A container being rewritten: its members are walked, then `leave` is given it. */
interface Open<C> {
  value: object;
  key: string | number | undefined;
  inner: C;
  /** The container's copy, made when the first member came back changed. */
  copy: Record<string, unknown> | unknown[] | undefined;
  parent: Open<C> | undefined;
}

/**
 * A JSON value rewritten bottom-up, copied only where something changed, with the same explicit
 * stack and bounds as walkJson. `visit` is given each value before its members, as in walkJson,
 * and returns the context for them, or SKIP to keep the value as it is (its members unwalked,
 * `leave` not called). `leave` is given each visited value after its members, with the members
 * that came back changed in a copy (the value itself when none did), and the context its visit
 * returned; what it returns stands in the value's place. Unlike walkJson, members are walked in
 * document order (first to last, each subtree whole), as a recursive rewrite would walk them.
 *
 * Returns how the walk ended, and the rewritten value when it completed (the value as given
 * otherwise): nothing is half rewritten.
 */
export function mapJson<C>(
  root: unknown,
  context: C,
  visit: (value: unknown, key: string | number | undefined, depth: number, context: C) => C | typeof SKIP,
  leave: (value: unknown, key: string | number | undefined, context: C) => unknown,
  bounds: WalkBounds,
): { end: WalkEnd; value: unknown } {
  // One stack of work: a value to visit (its parent beside it), or a container to leave (`open`).
  const values: unknown[] = [root];
  const keys: (string | number | undefined)[] = [undefined];
  const depths: number[] = [0];
  const parents: (Open<C> | undefined)[] = [undefined];
  const opens: (Open<C> | undefined)[] = [undefined];
  let result: unknown = root;
  let visited = 0;
  const put = (
    parent: Open<C> | undefined,
    key: string | number | undefined,
    was: unknown,
    now: unknown,
  ): void => {
    if (parent === undefined) {
      result = now;
      return;
    }
    if (now === was) return;
    if (Array.isArray(parent.value)) {
      const copy = (parent.copy ??= parent.value.slice()) as unknown[];
      copy[key as number] = now;
      return;
    }
    const copy = (parent.copy ??= { ...parent.value }) as Record<string, unknown>;
    // Defined, not assigned: a member named `__proto__` stays a member (as JSON.parse makes it).
    Object.defineProperty(copy, key as string, {
      value: now,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  };
  while (values.length > 0) {
    const value = values.pop();
    const key = keys.pop();
    const depth = depths.pop() as number;
    const parent = parents.pop();
    const open = opens.pop();
    if (open !== undefined) {
      put(open.parent, open.key, open.value, leave(open.copy ?? open.value, open.key, open.inner));
      continue;
    }
    if (depth > bounds.maxDepth) return { end: 'too-deep', value: root };
    if (++visited > bounds.maxValues) return { end: 'too-large', value: root };
    const inner = visit(value, key, depth, parent === undefined ? context : parent.inner);
    if (inner === SKIP) continue;
    if (typeof value !== 'object' || value === null) {
      put(parent, key, value, leave(value, key, inner));
      continue;
    }
    const here: Open<C> = { value, key, inner, copy: undefined, parent };
    values.push(undefined);
    keys.push(key);
    depths.push(depth);
    parents.push(parent);
    opens.push(here);
    // Pushed last to first, so that they are taken first to last.
    const names = Array.isArray(value) ? undefined : Object.keys(value);
    for (let i = (names ?? (value as unknown[])).length - 1; i >= 0; i--) {
      const k = names === undefined ? i : (names[i] as string);
      values.push((value as Record<string | number, unknown>)[k]);
      keys.push(k);
      depths.push(depth + 1);
      parents.push(here);
      opens.push(undefined);
    }
  }
  return { end: 'complete', value: result };
}
