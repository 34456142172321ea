import { requiredNames, typesOf, type TypeName } from './families/support.ts';
import type { Hints } from './hints.ts';
import { canonical, isObject, type Json, type JsonObject } from './json.ts';
import { mergeSchemas, without } from './merge.ts';
import { numberCandidates } from './numbers.ts';
import type { Rng } from './prng.ts';
import { keyCandidates, patternInstances, stringCandidates } from './strings.ts';
import { resolveRef } from './walk.ts';

interface Ctx {
  root: Json;
  hints: Hints;
  rng: Rng;
}

const MAX_DEPTH = 7;
const ALL_TYPES: TypeName[] = ['object', 'string', 'number', 'array', 'boolean', 'null'];

/**
 * Candidate values built from a schema (independently of the gate): boundary numbers, strings
 * at length bounds, pattern and format instances, objects with each property present or absent,
 * pattern and map keys, undeclared keys, arrays at length bounds, each enum value, each anyOf /
 * oneOf branch and each if/then/else branch. Many are invalid; the oracle sorts them.
 */
export function generateValues(root: Json, hints: Hints, rng: Rng, max: number): Json[] {
  return dedupe(gen({ root, hints, rng }, root, 0, max), max);
}

function dedupe(values: Json[], max: number): Json[] {
  const seen = new Set<string>();
  const out: Json[] = [];
  for (const v of values) {
    const text = canonical(v);
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(v);
    if (out.length >= max) break;
  }
  return out;
}

/** Resolves `$ref` and folds `allOf` into one schema (roughly: see mergeSchemas). */
function flatten(ctx: Ctx, schema: Json, hops: number): Json {
  if (!isObject(schema)) return schema;
  let node: Json = { ...schema };
  // A dynamic reference, guessed to lead to the root (where Ajv sends it when the root carries
  // its anchor); values are only candidates, which the oracle judges.
  for (const k of ['$dynamicRef', '$recursiveRef'])
    if (typeof schema[k] === 'string' && schema.$ref === undefined) {
      delete (node as JsonObject)[k];
      if (hops < 12) node = mergeSchemas(flatten(ctx, ctx.root, hops + 1), node);
    }
  if (typeof schema.$ref === 'string') {
    delete (node as JsonObject).$ref;
    const target = hops < 12 ? resolveRef(ctx.root, schema.$ref) : undefined;
    if (target !== undefined) node = mergeSchemas(flatten(ctx, target, hops + 1), node);
  }
  if (isObject(node) && Array.isArray(node.allOf)) {
    const branches = node.allOf;
    node = without(node, 'allOf');
    for (const b of branches) node = mergeSchemas(node, flatten(ctx, b, hops + 1));
  }
  return node;
}

/** The branches a value may take: anyOf / oneOf branches, or the two arms of a conditional. */
function alternatives(node: JsonObject): Json[] | undefined {
  for (const key of ['anyOf', 'oneOf']) {
    const list = node[key];
    if (Array.isArray(list)) {
      const rest = without(node, key);
      return list.map((b) => mergeSchemas(rest, b));
    }
  }
  if (node.if !== undefined) {
    const rest = without(node, 'if', 'then', 'else');
    return [
      mergeSchemas(mergeSchemas(rest, node.if as Json), (node.then ?? true) as Json),
      mergeSchemas(rest, (node.else ?? true) as Json),
      rest,
    ];
  }
  return undefined;
}

function generic(ctx: Ctx, budget: number): Json[] {
  return ['a', 1, 0.5, true, null, {}, [], { a: 1 }, ['x'], ...ctx.hints.values].slice(0, budget);
}

function gen(ctx: Ctx, schema: Json, depth: number, budget: number): Json[] {
  if (budget <= 0 || schema === false) return [];
  if (!isObject(schema)) return generic(ctx, budget);
  if (depth > MAX_DEPTH) return [null, '', 0, {}, [], false].slice(0, budget);
  const node = flatten(ctx, schema, 0);
  if (node === false) return [];
  if (!isObject(node)) return generic(ctx, budget);
  if (node.const !== undefined) return [node.const];
  if (Array.isArray(node.enum)) return node.enum.slice(0, budget);
  const alts = alternatives(node);
  if (alts) {
    const share = Math.max(1, Math.floor(budget / alts.length));
    return dedupe(
      alts.flatMap((a) => gen(ctx, a, depth + 1, share)),
      budget,
    );
  }
  let types = typesOf(node);
  // OpenAPI's nullable, as Ajv applies it beside a type.
  if (node.nullable === true && types.length > 0 && !types.includes('null')) types = [...types, 'null'];
  const keywords = Object.keys(node).filter(
    (k) =>
      !['description', 'title', '$schema', '$defs', 'definitions', '$id', 'default', 'examples'].includes(k),
  );
  if (types.length === 0) {
    if (keywords.length === 0) return generic(ctx, budget);
    types = ALL_TYPES;
  }
  const weights = types.map((t) =>
    t === 'object' || t === 'array' ? 3 : t === 'boolean' || t === 'null' ? 0.3 : 1,
  );
  const total = weights.reduce((a, b) => a + b, 0);
  const out: Json[] = [];
  types.forEach((t, i) => {
    const share = Math.max(1, Math.floor((budget * (weights[i] as number)) / total));
    out.push(...typed(ctx, { ...node, type: t }, t, depth, share));
  });
  return dedupe(out, budget);
}

function typed(ctx: Ctx, node: JsonObject, t: TypeName, depth: number, budget: number): Json[] {
  switch (t) {
    case 'null':
      return [null];
    case 'boolean':
      return [true, false];
    case 'integer':
    case 'number':
      return numberCandidates(node, ctx.hints.numbers, budget);
    case 'string':
      return stringCandidates(node, ctx.hints, ctx.rng, budget);
    case 'array':
      return genArray(ctx, node, depth, budget);
    case 'object':
      return genObject(ctx, node, depth, budget);
  }
}

const regexes = new Map<string, RegExp | null>();

/** Whether a key matches a patternProperties regex (as Ajv reads it, with the `u` flag). */
export function matches(pattern: string, key: string): boolean {
  let re = regexes.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = null;
    }
    if (regexes.size > 5000) regexes.clear();
    regexes.set(pattern, re);
  }
  return re !== null && re.test(key);
}

/** The schema a key's value must meet in an object schema: its property, patterns, or the map. */
function schemaForKey(node: JsonObject, key: string): Json {
  const parts: Json[] = [];
  if (isObject(node.properties) && Object.hasOwn(node.properties, key))
    parts.push(node.properties[key] as Json);
  if (isObject(node.patternProperties))
    for (const [p, s] of Object.entries(node.patternProperties)) if (matches(p, key)) parts.push(s);
  if (parts.length === 0) {
    const ap = node.additionalProperties ?? node.unevaluatedProperties;
    return ap === undefined ? true : ap;
  }
  return parts.length === 1 ? (parts[0] as Json) : { allOf: parts };
}

function genObject(ctx: Ctx, node: JsonObject, depth: number, budget: number): Json[] {
  const { rng, hints } = ctx;
  const names = isObject(node.properties) ? Object.keys(node.properties) : [];
  const required = requiredNames(node);
  const all = [...new Set([...names, ...required])];
  const sub = Math.max(1, Math.min(16, Math.floor(budget / (all.length + 4))));
  const cache = new Map<string, Json[]>();
  const valuesOf = (key: string, n = sub): Json[] => {
    let v = cache.get(key);
    if (!v) {
      v = gen(ctx, schemaForKey(node, key), depth + 1, n);
      if (v.length === 0) v = ['x'];
      cache.set(key, v);
    }
    return v;
  };
  const base: JsonObject = {};
  for (const r of required) base[r] = valuesOf(r)[0] as Json;
  const out: Json[] = [base];
  const full: JsonObject = { ...base };
  const full2: JsonObject = { ...base };
  for (const name of all) {
    const vals = valuesOf(name);
    full[name] = vals[0] as Json;
    full2[name] = (vals[1] ?? vals[0]) as Json;
    for (const v of vals) out.push({ ...base, [name]: v });
  }
  out.push(full, full2);
  const declared = new Set(all);
  // Keys declared by a pattern, by a map, named by propertyNames, and undeclared ones.
  if (isObject(node.patternProperties))
    for (const p of Object.keys(node.patternProperties))
      for (const k of patternInstances(p, rng, 2))
        for (const v of valuesOf(k, 3)) out.push({ ...base, [k]: v });
  const others = hints.names.filter((n) => !declared.has(n)).slice(0, 3);
  const ap = node.additionalProperties ?? node.unevaluatedProperties;
  if (ap !== false)
    for (const k of [...others, 'k', 'extra'])
      for (const v of isObject(ap) ? valuesOf(k, 3) : ['x', 1, { a: 1 }]) out.push({ ...base, [k]: v });
  for (const k of keyCandidates(node.propertyNames, rng, 3))
    out.push({ ...base, [k]: valuesOf(k, 2)[0] as Json });
  // Dependencies: the trigger with what it requires, and the objects a dependent schema allows.
  const depReq = isObject(node.dependentRequired) ? node.dependentRequired : {};
  const deps = isObject(node.dependencies) ? node.dependencies : {};
  for (const [k, d] of [...Object.entries(depReq), ...Object.entries(deps)]) {
    const o: JsonObject = { ...base, [k]: valuesOf(k)[0] as Json };
    out.push({ ...o });
    if (Array.isArray(d)) {
      for (const x of d) if (typeof x === 'string') o[x] = valuesOf(x)[0] as Json;
    } else {
      const holding = mergeSchemas(without(node, 'dependencies'), mergeSchemas(d, { required: [k] }));
      out.push(...gen(ctx, holding, depth + 1, sub));
    }
    out.push(o);
  }
  if (isObject(node.dependentSchemas))
    for (const [k, d] of Object.entries(node.dependentSchemas))
      out.push(
        ...gen(
          ctx,
          mergeSchemas(without(node, 'dependentSchemas'), mergeSchemas(d, { required: [k] })),
          depth + 1,
          sub,
        ),
      );
  // Sizes at the property-count bounds, filled with optional names, then pattern keys, then others.
  const counts = [node.minProperties, node.maxProperties, ...hints.lengths]
    .filter((n): n is number => typeof n === 'number' && n <= 20)
    .flatMap((n) => [n, n - 1, n + 1])
    .filter((n) => n >= 0);
  const fillers = [...all.filter((n) => !Object.hasOwn(base, n)), ...['f1', 'f2', 'f3', 'f4', 'f5']];
  for (const c of [...new Set(counts)]) {
    const o: JsonObject = { ...base };
    for (const k of fillers) {
      if (Object.keys(o).length >= c) break;
      o[k] = valuesOf(k, 2)[0] as Json;
    }
    out.push(o);
  }
  // A few random mixtures of the optional properties.
  for (let i = 0; i < 4; i++) {
    const o: JsonObject = { ...base };
    for (const name of all) if (rng.chance(0.5)) o[name] = rng.pick(valuesOf(name));
    out.push(o);
  }
  return dedupe(out, budget);
}

function genArray(ctx: Ctx, node: JsonObject, depth: number, budget: number): Json[] {
  const { rng, hints } = ctx;
  const sub = Math.max(2, Math.min(12, Math.floor(budget / 6)));
  const tuple: Json[] = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : [];
  const rest: Json =
    (Array.isArray(node.items) ? node.additionalItems : node.items) ?? node.unevaluatedItems ?? true;
  const itemVals = rest === false ? [] : gen(ctx, rest, depth + 1, sub);
  const tupleVals = tuple.map((s) => gen(ctx, s, depth + 1, 3));
  const head = tupleVals.map((v) => (v[0] ?? null) as Json);
  const out: Json[] = [[], head];
  const [v0, v1] = itemVals;
  for (const v of itemVals) out.push([...head, v]);
  if (v0 !== undefined) out.push([...head, v0, v0]);
  if (v0 !== undefined && v1 !== undefined) out.push([...head, v0, v1]);
  tupleVals.forEach((vals, i) => {
    for (const v of vals.slice(1)) {
      const h = [...head];
      h[i] = v;
      out.push(h);
    }
    out.push(head.slice(0, i));
  });
  const counts = [node.minItems, node.maxItems, node.minContains, node.maxContains, ...hints.lengths]
    .filter((n): n is number => typeof n === 'number' && n <= 50)
    .flatMap((n) => [n, n - 1, n + 1])
    .filter((n) => n >= 0);
  for (const c of [...new Set(counts)]) {
    const fill = itemVals.length > 0 ? itemVals : [null];
    out.push([
      ...head,
      ...Array.from({ length: Math.max(0, c - head.length) }, (_, i) => fill[i % fill.length] as Json),
    ]);
    if (v0 !== undefined)
      out.push([...head, ...Array.from({ length: Math.max(0, c - head.length) }, () => v0)]);
  }
  if (node.contains !== undefined) {
    const cv = gen(ctx, node.contains, depth + 1, 3);
    for (const c of cv) {
      out.push([c], [...head, c], [c, c], [c, c, c]);
      if (v0 !== undefined) out.push([...head, c, v0], [...head, v0, c, c]);
    }
  }
  for (let i = 0; i < 3 && itemVals.length > 0; i++)
    out.push([...head, ...Array.from({ length: rng.int(4) }, () => rng.pick(itemVals))]);
  return dedupe(out, budget);
}
