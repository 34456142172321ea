import { MAX_REF_HOPS, resolveRef, siblingsApply } from '../refs.ts';
import { canonicalOrder } from '../hash.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import type { Chooser } from './chooser.ts';
import { FORMAT_EXAMPLES } from './formats.ts';
import { isObject, mergeForGeneration, withoutKeys } from './merge.ts';
import { generateNumber } from './number.ts';
import { stringForPattern } from './pattern.ts';
import { member, setMember } from '../own.ts';

export interface GenEnv {
  root: Schema;
  dialect: string;
  choose: Chooser;
  /** Add undeclared properties to open objects (strict set semantics). */
  extras: boolean;
}

const MAX_DEPTH = 12;
const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'];

/** Which instance types a schema allows, from `type` or else from the keywords it uses. */
function typesOf(schema: JsonObject): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema) return ['object'];
  if ('items' in schema || 'prefixItems' in schema) return ['array'];
  if ('minLength' in schema || 'maxLength' in schema || 'pattern' in schema || 'format' in schema)
    return ['string'];
  if ('minimum' in schema || 'maximum' in schema || 'multipleOf' in schema) return ['number'];
  return TYPES;
}

/**
 * Builds a value the schema probably accepts: the first choice everywhere (minimal) or random
 * ones (sampling). Returns undefined when it cannot. Callers always validate the result.
 */
export function generate(schema: Schema, env: GenEnv, salt = 0, depth = 0, type?: string): Json | undefined {
  if (schema === false || depth > MAX_DEPTH) return undefined;
  if (schema === true) return type ? generate({ type }, env, salt, depth) : salt === 0 ? null : salt;
  const s = flatten(schema, env);
  if (s === undefined) return undefined;
  if ('const' in s) return s.const as Json;
  if (Array.isArray(s.enum))
    return env.choose.random ? env.choose.pick(s.enum) : s.enum[salt % s.enum.length];
  for (const k of ['anyOf', 'oneOf'] as const) {
    const branches = s[k];
    if (Array.isArray(branches) && branches.length > 0) {
      const ordered = inCanonicalOrder(branches);
      const order = env.choose.random ? [env.choose.pick(ordered)] : ordered;
      for (const b of order) {
        const v = generate(branchForm(s, k, b as Schema), env, salt, depth + 1, type);
        if (v !== undefined) return v;
      }
      return undefined;
    }
  }
  const types = typesOf(s).filter((t) => !type || t === type || (type === 'number' && t === 'integer'));
  const chosen = env.choose.random ? env.choose.pick(types) : types[0];
  switch (chosen) {
    case 'null':
      return null;
    case 'boolean':
      return env.choose.random ? env.choose.chance(0.5) : salt % 2 === 1;
    case 'number':
    case 'integer':
      return generateNumber(s, chosen === 'integer', env.choose, salt);
    case 'string':
      return generateString(s, env.choose, salt);
    case 'array':
      return generateArray(s, env, salt, depth);
    case 'object':
      return generateObject(s, env, salt, depth);
    default:
      return undefined;
  }
}

const branchForms = new WeakMap<JsonObject, Map<Schema, Schema>>();

/** A branch with what its node says beside the branches, built once per node and branch. */
function branchForm(node: JsonObject, keyword: 'anyOf' | 'oneOf', branch: Schema): Schema {
  let forms = branchForms.get(node);
  if (!forms) {
    forms = new Map();
    branchForms.set(node, forms);
  }
  let form = forms.get(branch);
  if (form === undefined) {
    form = mergeForGeneration(withoutKeys(node, [keyword]), branch);
    forms.set(branch, form);
  }
  return form;
}

const canonicalOrders = new WeakMap<readonly Json[], readonly Json[]>();

/**
 * Branches in the order of their canonical JSON, so the first choice (and a seeded random one)
 * is the same however a schema orders its anyOf/oneOf: a witness or a sample, and so a verdict,
 * never depends on it.
 */
function inCanonicalOrder(items: readonly Json[]): readonly Json[] {
  let ordered = canonicalOrders.get(items);
  if (!ordered) {
    ordered = canonicalOrder(items).map((i) => items[i] as Json);
    canonicalOrders.set(items, ordered);
  }
  return ordered;
}

/**
 * Each node's flattened form, per document and dialect: every value drawn from a schema (some
 * thirty for a comparison) walks the same nodes, and a node's form depends on nothing else.
 */
const flattened = new WeakMap<object, Map<string, WeakMap<JsonObject, JsonObject | null>>>();

function flatten(schema: JsonObject, env: GenEnv): JsonObject | undefined {
  if (typeof env.root !== 'object') return flattenOnce(schema, env);
  let byDialect = flattened.get(env.root);
  if (!byDialect) {
    byDialect = new Map();
    flattened.set(env.root, byDialect);
  }
  let nodes = byDialect.get(env.dialect);
  if (!nodes) {
    nodes = new WeakMap();
    byDialect.set(env.dialect, nodes);
  }
  let s = nodes.get(schema);
  if (s === undefined) {
    s = flattenOnce(schema, env) ?? null;
    nodes.set(schema, s);
  }
  return s ?? undefined;
}

/** Follows $ref and folds allOf into one schema (shallowly), so generation sees plain keywords. */
function flattenOnce(schema: JsonObject, env: GenEnv): JsonObject | undefined {
  let s = schema;
  for (let hops = 0; typeof s.$ref === 'string' && hops < MAX_REF_HOPS; hops++) {
    const target = resolveRef(env.root, s.$ref);
    if (!target || target.schema === false) return undefined;
    const rest = siblingsApply(env.dialect) ? withoutKeys(s, ['$ref']) : {};
    const merged = mergeForGeneration(target.schema === true ? {} : target.schema, rest);
    if (merged === false || merged === true) return merged === true ? {} : undefined;
    s = merged;
  }
  if (Array.isArray(s.allOf)) {
    let merged: Schema = withoutKeys(s, ['allOf']);
    for (const part of s.allOf) {
      const p = isObject(part) ? flatten(part, env) : part;
      if (p === undefined || merged === false) return undefined;
      merged = mergeForGeneration(merged === true ? {} : merged, p as Schema);
    }
    return merged === false ? undefined : merged === true ? {} : merged;
  }
  return s;
}

function generateString(s: JsonObject, choose: Chooser, salt: number): string | undefined {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  if (typeof s.format === 'string') return FORMAT_EXAMPLES[s.format];
  if (typeof s.pattern === 'string') {
    const base = stringForPattern(s.pattern, salt);
    if (base === undefined) return undefined;
    return base.length < min ? base + 'a'.repeat(min - base.length) : base;
  }
  const len = choose.random ? choose.int(min, Math.min(max, min + 6)) : min;
  const letters = choose.random ? ['a', 'b', 'z', ' ', '0', 'é'] : ['a'];
  let out = '';
  for (let i = 0; i < len; i++) out += choose.pick(letters) ?? 'a';
  if (salt > 0 && !choose.random) out = (out + String(salt)).slice(-Math.max(len, String(salt).length));
  return [...out].length > max ? undefined : out;
}

function generateArray(s: JsonObject, env: GenEnv, salt: number, depth: number): Json[] | undefined {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  const len = env.choose.random ? env.choose.int(min, Math.min(max, min + 3)) : min;
  const out: Json[] = [];
  for (let i = 0; i < len; i++) {
    const item = (prefix[i] ?? rest ?? true) as Schema;
    const v = generate(item, env, s.uniqueItems === true ? i + salt : salt, depth + 1);
    if (v === undefined) return undefined;
    out.push(v);
  }
  return out;
}

function generateObject(s: JsonObject, env: GenEnv, salt: number, depth: number): JsonObject | undefined {
  const props = isObject(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required)
    ? s.required.filter((r): r is string => typeof r === 'string')
    : [];
  const additional = s.additionalProperties;
  const minProps = typeof s.minProperties === 'number' ? s.minProperties : 0;
  const out: JsonObject = {};
  // Names in sorted order, so the order a schema lists its properties in never changes a value.
  const keys = [...new Set(required)].sort();
  const taken = new Set(keys);
  for (const k of Object.keys(props).sort()) {
    if (!taken.has(k) && (env.choose.chance(0.5) || keys.length < minProps)) keys.push(k);
  }
  for (const k of keys) {
    const sub = (member(props, k) ?? (additional === undefined ? true : additional)) as Schema;
    const v = generate(sub, env, salt, depth + 1);
    if (v === undefined) return undefined;
    setMember(out, k, v);
  }
  const open = additional === undefined || additional === true || isObject(additional);
  const patterned = isObject(s.patternProperties) && Object.keys(s.patternProperties).length > 0;
  const wantExtra = isObject(additional) || env.extras;
  if (open && !patterned && wantExtra && env.choose.chance(0.3)) {
    const v = generate((additional ?? true) as Schema, env, salt + 1, depth + 1);
    if (v !== undefined) out[`x${env.choose.int(0, 9)}`] = v;
  }
  // More names than the schema declares: undeclared ones, which no regex of the node takes (a
  // count past what a real schema asks is not built: its value is not worth the work).
  if (open && Object.keys(out).length < minProps && minProps <= MAX_GENERATED_PROPERTIES) {
    const regexes = patterned ? Object.keys(s.patternProperties as JsonObject).map(compiled) : [];
    for (let n = 0; Object.keys(out).length < minProps && n < minProps + MAX_EXTRA_TRIES; n++) {
      const key = `x${n}`;
      if (
        Object.hasOwn(out, key) ||
        Object.hasOwn(props, key) ||
        regexes.some((r) => r === undefined || r.test(key))
      )
        continue;
      const v = generate((additional ?? true) as Schema, env, salt + n, depth + 1);
      if (v === undefined) return undefined;
      setMember(out, key, v);
    }
  }
  return out;
}

const MAX_GENERATED_PROPERTIES = 1_000;
/** Names tried past the count minProperties asks for, when some are declared or a regex takes them. */
const MAX_EXTRA_TRIES = 64;

function compiled(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}
