import { requiredNames } from './families/support.ts';
import { matches } from './generate.ts';
import { isObject, type Json, type JsonObject } from './json.ts';
import { resolveRef } from './walk.ts';

/**
 * Whether the subschema at a JSON Pointer of the document accepts a value (undefined when that
 * cannot be told): it picks the anyOf / oneOf branches and the if/then/else arm a value takes.
 */
export type Accepts = (pointer: string, value: Json) => boolean | undefined;

/** A subschema and its JSON Pointer in the document. */
interface Located {
  schema: Json;
  at: string;
}

const seg = (key: string | number): string => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * The object schemas that apply to a value at one place: the given ones and those they reach in
 * place, by `$ref`, `allOf`, the anyOf / oneOf branches the value matches, the if/then/else arm
 * it takes, and the dependent schemas of the keys it holds.
 */
function expand(
  root: Json,
  start: Located[],
  value: Json,
  accepts: Accepts | undefined,
  ignored: ReadonlySet<string>,
): { n: JsonObject; at: string }[] {
  const out: { n: JsonObject; at: string }[] = [];
  const seen = new Set<JsonObject>();
  const stack = [...start];
  while (stack.length > 0 && out.length < 500) {
    const { schema: s, at } = stack.pop() as Located;
    if (!isObject(s) || seen.has(s)) continue;
    seen.add(s);
    out.push({ n: s, at });
    if (typeof s.$ref === 'string' && (s.$ref === '#' || s.$ref.startsWith('#/'))) {
      const t = resolveRef(root, s.$ref);
      if (t !== undefined) stack.push({ schema: t, at: decodeURIComponent(s.$ref.slice(1)) });
    }
    if (Array.isArray(s.allOf)) s.allOf.forEach((b, i) => stack.push({ schema: b, at: `${at}/allOf/${i}` }));
    for (const k of ['anyOf', 'oneOf']) {
      const list = s[k];
      if (Array.isArray(list))
        list.forEach((b, i) => {
          const p = `${at}/${k}/${i}`;
          if (accepts?.(p, value) !== false) stack.push({ schema: b, at: p });
        });
    }
    if (s.if !== undefined) {
      const taken = accepts?.(`${at}/if`, value);
      if (taken !== false) stack.push({ schema: s.if, at: `${at}/if` });
      if (taken !== false && s.then !== undefined) stack.push({ schema: s.then, at: `${at}/then` });
      if (taken !== true && s.else !== undefined) stack.push({ schema: s.else, at: `${at}/else` });
    }
    for (const k of ['dependentSchemas', 'dependencies']) {
      if (ignored.has(k)) continue;
      const deps = s[k];
      if (isObject(deps) && isObject(value))
        for (const [name, d] of Object.entries(deps))
          if (!Array.isArray(d) && Object.hasOwn(value, name))
            stack.push({ schema: d, at: `${at}/${k}${seg(name)}` });
    }
  }
  return out;
}

/** Names a schema makes callers send: required ones, and those a present key requires. */
function sentNames(n: JsonObject, ignored: ReadonlySet<string>): string[] {
  const out = requiredNames(n);
  for (const k of ['dependentRequired', 'dependencies']) {
    if (ignored.has(k)) continue;
    const d = n[k];
    if (isObject(d))
      for (const list of Object.values(d))
        if (Array.isArray(list)) out.push(...list.filter((x): x is string => typeof x === 'string'));
  }
  return out;
}

function visit(
  root: Json,
  start: Located[],
  value: Json,
  path: string,
  accepts: Accepts | undefined,
  depth: number,
  ignored: ReadonlySet<string>,
): string | undefined {
  if (depth > 60) return undefined;
  const nodes = expand(root, start, value, accepts, ignored);
  if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      let declared = false;
      const children: Located[] = [];
      for (const { n, at } of nodes) {
        let known = false;
        if (isObject(n.properties) && Object.hasOwn(n.properties, key)) {
          known = true;
          children.push({ schema: n.properties[key] as Json, at: `${at}/properties${seg(key)}` });
        }
        if (isObject(n.patternProperties))
          for (const [p, s] of Object.entries(n.patternProperties))
            if (matches(p, key)) {
              known = true;
              children.push({ schema: s, at: `${at}/patternProperties${seg(p)}` });
            }
        if (!known) {
          const mapKey =
            n.additionalProperties !== undefined ? 'additionalProperties' : 'unevaluatedProperties';
          const map = ignored.has(mapKey) ? undefined : n[mapKey];
          if (isObject(map)) {
            known = true;
            children.push({ schema: map, at: `${at}/${mapKey}` });
          }
        }
        if (known || sentNames(n, ignored).includes(key)) declared = true;
      }
      if (!declared) return `${path}${seg(key)}`;
      const deeper = visit(root, children, v, `${path}${seg(key)}`, accepts, depth + 1, ignored);
      if (deeper !== undefined) return deeper;
    }
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const children: Located[] = [];
      for (const { n, at } of nodes) {
        const tupleKey = Array.isArray(n.prefixItems)
          ? 'prefixItems'
          : Array.isArray(n.items)
            ? 'items'
            : undefined;
        const tuple = tupleKey ? (n[tupleKey] as Json[]) : [];
        if (i < tuple.length) children.push({ schema: tuple[i] as Json, at: `${at}/${tupleKey}/${i}` });
        else {
          const restKey = Array.isArray(n.items)
            ? 'additionalItems'
            : n.items !== undefined
              ? 'items'
              : 'unevaluatedItems';
          if (n[restKey] !== undefined) children.push({ schema: n[restKey] as Json, at: `${at}/${restKey}` });
        }
        if (n.contains !== undefined) children.push({ schema: n.contains, at: `${at}/contains` });
      }
      const deeper = visit(root, children, value[i] as Json, `${path}/${i}`, accepts, depth + 1, ignored);
      if (deeper !== undefined) return deeper;
    }
  }
  return undefined;
}

/**
 * The open-objects policy: callers send only declared keys. A key is declared where the value
 * sits if a schema applying there lists it in `properties`, matches it by a `patternProperties`
 * regex, has an `additionalProperties` (or `unevaluatedProperties`) schema (a map), or makes
 * callers send it (`required`, a dependency's required names), among the keywords the
 * reading's dialect applies. Merely open objects declare nothing; of an anyOf / oneOf only the branches the value matches count (when `accepts` can
 * tell). Returns the JSON Pointer of the first undeclared key, or undefined.
 */
export function undeclaredKey(
  root: Json,
  value: Json,
  accepts?: Accepts,
  dialect?: string,
): string | undefined {
  return visit(root, [{ schema: root, at: '' }], value, '', accepts, 0, ignoredIn(dialect));
}

/**
 * Keywords a dialect's validator does not apply, so they declare nothing there: Ajv's draft-07
 * ignores the dependency keywords 2019-09 split out, and unevaluatedProperties.
 */
function ignoredIn(dialect: string | undefined): ReadonlySet<string> {
  return dialect === 'draft-07'
    ? new Set(['dependentSchemas', 'dependentRequired', 'unevaluatedProperties'])
    : new Set();
}
