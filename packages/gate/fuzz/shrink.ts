import { reachedDefinitions } from './corpus.ts';
import { canonical, clone, isObject, type Json, type JsonObject } from './json.ts';
import { LISTS, MAPS, ONE, resolveRef, slots } from './walk.ts';

/** A bound on the work of one shrink: predicate calls and wall time. */
export interface Budget {
  calls: number;
  deadline: number;
}

/** A budget of so many predicate calls and milliseconds from now. */
export function budget(calls: number, ms: number): Budget {
  return { calls, deadline: Date.now() + ms };
}

function spend(b: Budget): boolean {
  if (b.calls <= 0 || Date.now() > b.deadline) return false;
  b.calls--;
  return true;
}

/** Simpler values than a value: smaller containers, shorter strings, plainer numbers. */
function simpler(v: Json, depth = 0): Json[] {
  const out: Json[] = [];
  if (Array.isArray(v)) {
    if (v.length > 1) out.push([v[0] as Json], v.slice(0, Math.floor(v.length / 2)));
    v.forEach((_, i) => out.push([...v.slice(0, i), ...v.slice(i + 1)]));
    if (depth < 4)
      v.forEach((x, i) => simpler(x, depth + 1).forEach((s) => out.push(v.map((y, j) => (j === i ? s : y)))));
  } else if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length > 1) out.push({});
    for (const k of keys) {
      const rest = { ...v };
      delete rest[k];
      out.push(rest);
    }
    if (depth < 4)
      for (const k of keys) for (const s of simpler(v[k] as Json, depth + 1)) out.push({ ...v, [k]: s });
  } else if (typeof v === 'string') {
    if (v.length > 0) out.push('', v.slice(0, Math.floor(v.length / 2)), v.slice(1), v.slice(0, -1));
  } else if (typeof v === 'number') {
    out.push(0, 1, -1, Math.trunc(v), Math.round(v * 10) / 10, v / 2);
  } else if (v !== null) out.push(null);
  return out;
}

const size = (v: Json): number => canonical(v).length;

/** The smallest value found (greedily) that still satisfies the predicate. */
export function shrinkValue(value: Json, keeps: (v: Json) => boolean, b: Budget): Json {
  let current = value;
  for (let progress = true; progress;) {
    progress = false;
    for (const s of simpler(current)) {
      if (
        size(s) >= size(current) &&
        !(typeof s === 'number' && typeof current === 'number' && Math.abs(s) < Math.abs(current))
      )
        continue;
      if (!spend(b)) return current;
      if (keeps(s)) {
        current = s;
        progress = true;
        break;
      }
    }
  }
  return current;
}

type Path = (string | number)[];

/** Whether the child k of the place at path is a subschema (so `true` may stand in for it). */
function holdsSchema(path: Path, k: string | number): boolean {
  const parent = path[path.length - 1];
  if (typeof k === 'number') return (LISTS as readonly (string | number | undefined)[]).includes(parent);
  if ((MAPS as readonly (string | number | undefined)[]).includes(parent) || parent === 'dependentSchemas')
    return true;
  return (ONE as readonly string[]).includes(k);
}

function get(root: Json, path: Path): Json | undefined {
  let node: Json | undefined = root;
  for (const step of path)
    node = Array.isArray(node) ? node[step as number] : isObject(node) ? node[step as string] : undefined;
  return node;
}

/** Removes (or replaces) the children at one place of a document; returns a changed copy. */
function edit(root: JsonObject, path: Path, keys: (string | number)[], replace?: Json): JsonObject {
  const doc = clone(root);
  const node = get(doc, path);
  if (Array.isArray(node)) {
    const drop = new Set(keys);
    if (replace === undefined) {
      const kept = node.filter((_, i) => !drop.has(i));
      node.length = 0;
      node.push(...kept);
    } else for (const k of keys) node[k as number] = replace;
  } else if (isObject(node))
    for (const k of keys)
      if (replace === undefined) delete node[k as string];
      else node[k as string] = replace;
  return doc;
}

/**
 * Shrinks a schema pair while a predicate (the gate's wrong answer) holds: at each place both
 * sides share, the children equal on both sides are removed (all at once, then by halves, then
 * one by one) or replaced by `true`; children that differ, or that had to stay, are entered.
 * Only what both sides hold identically is touched, so the change under test survives.
 */
export function shrinkPair(
  pair: { old: JsonObject; new: JsonObject },
  keeps: (o: JsonObject, n: JsonObject) => boolean,
  b: Budget,
): { old: JsonObject; new: JsonObject } {
  let cur = pair;
  const attempt = (o: JsonObject, n: JsonObject): boolean => {
    if (!spend(b)) return false;
    if (!keeps(o, n)) return false;
    cur = { old: o, new: n };
    return true;
  };
  const visit = (path: Path, depth: number): void => {
    if (depth > 40 || b.calls <= 0 || Date.now() > b.deadline) return;
    let o = get(cur.old, path);
    let n = get(cur.new, path);
    // The same $ref on both sides: try each side's target in its place.
    if (isObject(o) && isObject(n) && typeof o.$ref === 'string' && o.$ref === n.$ref) {
      const oi = inline(cur.old, path);
      const ni = inline(cur.new, path);
      if (oi && ni && attempt(oi, ni)) {
        o = get(cur.old, path);
        n = get(cur.new, path);
      }
    }
    const sameShape =
      (Array.isArray(o) && Array.isArray(n) && o.length === n.length) || (isObject(o) && isObject(n));
    if (!sameShape) return;
    const keys: (string | number)[] = Array.isArray(o)
      ? o.map((_, i) => i)
      : Object.keys(o as JsonObject).filter((k) => Object.hasOwn(n as JsonObject, k));
    const equal = keys.filter(
      (k) => canonical(get(o as Json, [k]) as Json) === canonical(get(n as Json, [k]) as Json),
    );
    // Remove equal children in chunks (array indexes from the end, so indexes stay valid).
    const chunks: (string | number)[][] = equal.length > 0 ? [equal] : [];
    while (chunks.length > 0) {
      const chunk = chunks.shift() as (string | number)[];
      if (attempt(edit(cur.old, path, chunk), edit(cur.new, path, chunk))) {
        if (Array.isArray(o)) return visit(path, depth);
        continue;
      }
      if (chunk.length > 1) {
        const half = Math.ceil(chunk.length / 2);
        chunks.unshift(chunk.slice(0, half), chunk.slice(half));
      }
    }
    const now = get(cur.old, path);
    const remaining: (string | number)[] = Array.isArray(now)
      ? now.map((_, i) => i)
      : isObject(now)
        ? Object.keys(now).filter((k) => Object.hasOwn(get(cur.new, path) as JsonObject, k))
        : [];
    for (const k of remaining) {
      const child = get(cur.old, [...path, k]);
      const same = canonical(child as Json) === canonical(get(cur.new, [...path, k]) as Json);
      if (same && isObject(child) && Object.keys(child).length > 0 && holdsSchema(path, k))
        if (attempt(edit(cur.old, path, [k], true), edit(cur.new, path, [k], true))) continue;
      visit([...path, k], depth + 1);
    }
  };
  for (
    let before = '';
    before !== canonical([cur.old, cur.new]) && b.calls > 0 && Date.now() <= b.deadline;
  ) {
    before = canonical([cur.old, cur.new]);
    visit([], 0);
    const plain = { old: withoutAnnotations(cur.old), new: withoutAnnotations(cur.new) };
    if (canonical([plain.old, plain.new]) !== canonical([cur.old, cur.new])) attempt(plain.old, plain.new);
    const pruned = { old: withoutUnreached(cur.old), new: withoutUnreached(cur.new) };
    if (canonical([pruned.old, pruned.new]) !== canonical([cur.old, cur.new]))
      attempt(pruned.old, pruned.new);
  }
  return cur;
}

const ANNOTATIONS = [
  'description',
  'title',
  'examples',
  'default',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
];

/**
 * A document without annotation keywords in any of its subschemas (never a property so named),
 * tried on both sides, even where they differ: annotations never change validity.
 */
function withoutAnnotations(doc: JsonObject): JsonObject {
  const out = clone(doc);
  for (const { schema } of slots(out)) if (isObject(schema)) for (const k of ANNOTATIONS) delete schema[k];
  return out;
}

/** A document without the definitions no `$ref` reaches any more (an emptied container goes too). */
function withoutUnreached(doc: JsonObject): JsonObject {
  const out: JsonObject = { ...doc };
  for (const key of ['$defs', 'definitions']) {
    const defs = doc[key];
    if (!isObject(defs)) continue;
    const body: JsonObject = { ...doc };
    delete body[key];
    const kept = reachedDefinitions(body, defs);
    if (kept.length === 0) delete out[key];
    else out[key] = Object.fromEntries(kept.map((n) => [n, defs[n] as Json]));
  }
  return out;
}

/** A copy of a document with the `$ref` at path replaced by its target (siblings kept). */
function inline(doc: JsonObject, path: Path): JsonObject | undefined {
  const node = get(doc, path);
  if (!isObject(node) || typeof node.$ref !== 'string') return undefined;
  const target = resolveRef(doc, node.$ref);
  if (!isObject(target) || target === node) return undefined;
  const { $ref: _ref, ...siblings } = node;
  const replaced: JsonObject = { ...clone(target), ...siblings };
  if (path.length === 0) return replaced;
  const out = clone(doc);
  const parent = get(out, path.slice(0, -1));
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent)) parent[last as number] = replaced;
  else if (isObject(parent)) parent[last as string] = replaced;
  return out;
}
