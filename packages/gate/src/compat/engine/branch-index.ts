import { isObject } from '../generate/merge.ts';
import { canonicalJson, canonicalKeys, canonicalOrder } from '../hash.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import { resolveRef } from '../refs.ts';
import { admits, typeSet } from './util.ts';
import { keySet } from './value-sets.ts';
import { member } from '../own.ts';

function derefIn(root: Schema, s: Schema): Schema {
  if (isObject(s) && typeof s.$ref === 'string') return resolveRef(root, s.$ref)?.schema ?? s;
  return s;
}

function deref(s: Schema, side: 'sub' | 'sup', ctx: Ctx): Schema {
  return derefIn(ctx.shared[side].root, s);
}

function finiteValues(s: Json | undefined): Json[] | undefined {
  if (!isObject(s)) return undefined;
  return 'const' in s ? [s.const as Json] : Array.isArray(s.enum) ? s.enum : undefined;
}

function required(s: JsonObject): Set<string> {
  return new Set(
    Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [],
  );
}

/**
 * A cheap proof that no value matches both an old branch and a new one: disjoint types, own
 * values (const or enum) of which they share none, or a property the new branch requires whose allowed values (const or enum) share none with the
 * old branch's.
 */
function disjoint(aIn: Schema, bIn: Schema, ctx: Ctx): boolean {
  const a = deref(aIn, 'sub', ctx),
    b = deref(bIn, 'sup', ctx);
  if (a === false || b === false) return true;
  if (a === true || b === true) return false;
  const ta = typeSet(a),
    tb = typeSet(b);
  if (ta && tb && ![...ta].some((t) => admits(tb, t)) && ![...tb].some((t) => admits(ta, t))) return true;
  // Each allows only its own values (const or enum), and they share none.
  const own = finiteValues(a),
    theirOwn = finiteValues(b);
  if (own && theirOwn) {
    const theirs = keySet(theirOwn);
    if (!own.some((v) => theirs.has(canonicalJson(v)))) return true;
  }
  const ap = isObject(a.properties) ? a.properties : {};
  const bp = isObject(b.properties) ? b.properties : {};
  const breq = required(b);
  for (const k of Object.keys(bp)) {
    if (!breq.has(k)) continue;
    const xs = finiteValues(member(ap, k)),
      ys = finiteValues(bp[k]);
    if (!xs || !ys) continue;
    const theirs = keySet(ys);
    if (!xs.some((v) => theirs.has(canonicalJson(v)))) return true;
  }
  return false;
}

/** How the new branches tell themselves apart by the values of one required property. */
interface Discriminator {
  /** Branches that do not (a value there cannot rule them out). */
  open: number[];
  /** Per value (canonical JSON), the branches that allow it. */
  byValue: Map<string, number[]>;
}

/**
 * The new side's branches of one anyOf/oneOf, indexed once, so that choosing which branches
 * to try for each old branch, and proving a oneOf still exclusive, cost about the number of
 * branches that could match rather than the number of branches: a 1,000-branch oneOf is not a
 * million comparisons. Every answer is what a scan of all branches would give, in its order.
 */
export interface BranchIndex {
  /** Branches equal to `old` (as JSON), in order of content. */
  equal(old: Schema | undefined): number[];
  /** Branches with the same `$ref` as `old` but other content, in order of content. */
  sameRef(old: Schema | undefined): number[];
  /** Branches not provably disjoint from `branch` (see disjoint), in ascending position, as needed. */
  overlapping(branch: Schema, ctx: Ctx): Iterable<number>;
  /** Every branch in order of content (ties by position), sorted once. */
  readonly byContent: readonly number[];
  /** Some branches in order of content (ties by position), as `byContent` lists them. */
  inContentOrder(js: readonly number[]): number[];
}

const indexes = new WeakMap<readonly Schema[], { root: Schema; index: BranchIndex }>();

export function branchIndex(branches: readonly Schema[], ctx: Ctx): BranchIndex {
  const root = ctx.shared.sup.root;
  const hit = indexes.get(branches);
  if (hit && hit.root === root) return hit.index;
  const index = buildIndex(branches, root);
  indexes.set(branches, { root, index });
  return index;
}

function push<K>(map: Map<K, number[]>, key: K, j: number): void {
  const list = map.get(key);
  if (list) list.push(j);
  else map.set(key, [j]);
}

function buildIndex(branches: readonly Schema[], supRoot: Schema): BranchIndex {
  const order = canonicalOrder(branches);
  const keys = canonicalKeys(branches);
  const byContent = new Map<string, number[]>();
  const byRef = new Map<string, number[]>();
  for (const j of order) {
    push(byContent, keys[j] as string, j);
    const b = branches[j];
    if (isObject(b) && typeof b.$ref === 'string') push(byRef, b.$ref, j);
  }
  const discriminators = new Map<string, Discriminator>();
  const resolved = branches.map((b) => derefIn(supRoot, b));
  // The branches' own values (const or enum), as a discriminator of the value itself.
  const values: Discriminator = { open: [], byValue: new Map() };
  resolved.forEach((b, j) => {
    const ys = finiteValues(b);
    if (!ys) values.open.push(j);
    else for (const key of new Set(canonicalKeys(ys))) push(values.byValue, key, j);
  });
  resolved.forEach((b, j) => {
    if (!isObject(b) || !isObject(b.properties)) return;
    const req = required(b);
    for (const [k, y] of Object.entries(b.properties)) {
      const ys = req.has(k) ? finiteValues(y) : undefined;
      if (!ys) continue;
      let d = discriminators.get(k);
      if (!d) {
        d = { open: [], byValue: new Map() };
        discriminators.set(k, d);
      }
      for (const key of new Set(canonicalKeys(ys))) push(d.byValue, key, j);
    }
  });
  // A branch without a finite required value at k is open for k.
  for (const [k, d] of discriminators) {
    const closed = new Set<number>();
    for (const list of d.byValue.values()) for (const j of list) closed.add(j);
    // A branch with an empty enum at k allows no value there: closed, in no list.
    resolved.forEach((b, j) => {
      if (closed.has(j)) return;
      const ys =
        isObject(b) && isObject(b.properties) && required(b).has(k)
          ? finiteValues(member(b.properties, k))
          : undefined;
      if (!ys) d.open.push(j);
    });
  }
  const all = branches.map((_, j) => j);

  /** A superset of the branches not disjoint from `a`: those its most selective discriminator leaves. */
  const candidates = (aIn: Schema, ctx: Ctx): number[] => {
    const a = deref(aIn, 'sub', ctx);
    if (!isObject(a)) return all;
    let best: number[] | undefined;
    const xs = finiteValues(a);
    if (xs) {
      const found = new Set(values.open);
      for (const key of canonicalKeys(xs)) for (const j of values.byValue.get(key) ?? []) found.add(j);
      best = [...found];
    }
    if (!isObject(a.properties)) return best ? best.sort((p, q) => p - q) : all;
    for (const [k, x] of Object.entries(a.properties)) {
      const d = discriminators.get(k);
      const xs = d ? finiteValues(x) : undefined;
      if (!d || !xs) continue;
      const found = new Set(d.open);
      for (const key of canonicalKeys(xs)) for (const j of d.byValue.get(key) ?? []) found.add(j);
      if (!best || found.size < best.length) best = [...found];
    }
    return best ? best.sort((p, q) => p - q) : all;
  };

  const byKey = (p: number, q: number): number => {
    const a = keys[p] as string,
      b = keys[q] as string;
    return a < b ? -1 : a > b ? 1 : p - q;
  };

  return {
    byContent: order,
    inContentOrder: (js) => [...js].sort(byKey),
    equal: (old) => (old === undefined ? [] : (byContent.get(canonicalJson(old)) ?? [])),
    sameRef(old) {
      if (!isObject(old) || typeof old.$ref !== 'string') return [];
      const same = canonicalJson(old);
      return (byRef.get(old.$ref) ?? []).filter((j) => keys[j] !== same);
    },
    *overlapping(branch, ctx) {
      for (const j of candidates(branch, ctx)) if (!disjoint(branch, branches[j] as Schema, ctx)) yield j;
    },
  };
}
