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
 * The stack holds one frame per open container, whose members are taken last to first, each
 * subtree whole (as if pushed in order and taken from the top): nothing is allocated per member,
 * so an enum of 100,000 values is 100,000 steps on one frame. `members`, when given, chooses
 * which members of an object are walked (see Members): a walk over a schema's in-place
 * subschemas need not take its other keywords.
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
  // One frame per container whose members are being walked (nothing is allocated per member).
  const open: Frame<C>[] = [];
  let value: unknown = root;
  let key: string | number | undefined;
  let depth = 0;
  let outer = context;
  let visited = 0;
  for (;;) {
    if (depth > bounds.maxDepth) return 'too-deep';
    if (++visited > bounds.maxValues) return 'too-large';
    const inner = visit(value, key, depth, outer);
    if (inner === STOP) return 'stopped';
    if (inner !== SKIP && typeof value === 'object' && value !== null) {
      const only = Array.isArray(value) ? undefined : members?.(inner);
      const names = Array.isArray(value) ? undefined : (only ?? Object.keys(value));
      open.push({
        container: value as Record<string | number, unknown>,
        names,
        chosen: only !== undefined,
        next: (names ?? (value as unknown[])).length - 1,
        depth: depth + 1,
        context: inner,
      });
    }
    // The next member to visit: the top container's, or, when it has none left, the one below's.
    for (;;) {
      const top = open[open.length - 1];
      if (top === undefined) return 'complete';
      const i = top.next--;
      if (i < 0) {
        open.pop();
        continue;
      }
      if (top.names === undefined) key = i;
      else {
        key = top.names[i] as string;
        if (top.chosen && !Object.hasOwn(top.container, key)) continue;
      }
      value = top.container[key];
      depth = top.depth;
      outer = top.context;
      break;
    }
  }
}

/**
 * A container whose members walkJson is walking: its keys (undefined for an array; `chosen` when
 * `members` named them), the next member to take (counting down: the last first), and its
 * members' depth and context.
 */
interface Frame<C> {
  container: Record<string | number, unknown>;
  names: readonly string[] | undefined;
  chosen: boolean;
  next: number;
  depth: number;
  context: C;
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
