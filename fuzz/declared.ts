import { requiredNames } from './families/support.ts';
import { matches } from './generate.ts';
import { isObject, type Json, type JsonObject } from './json.ts';
import { resolveRef } from './walk.ts';

const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_ONE = ['if', 'then', 'else'];

/** The object schemas that apply at one place: the given ones and all they reach in place. */
function expand(root: Json, schemas: Json[]): JsonObject[] {
  const out: JsonObject[] = [];
  const seen = new Set<JsonObject>();
  const stack = [...schemas];
  while (stack.length > 0 && out.length < 500) {
    const s = stack.pop();
    if (!isObject(s) || seen.has(s)) continue;
    seen.add(s);
    out.push(s);
    if (typeof s.$ref === 'string') {
      const t = resolveRef(root, s.$ref);
      if (t !== undefined) stack.push(t);
    }
    for (const k of IN_PLACE_LISTS) if (Array.isArray(s[k])) stack.push(...(s[k] as Json[]));
    for (const k of IN_PLACE_ONE) if (s[k] !== undefined) stack.push(s[k] as Json);
    for (const k of ['dependentSchemas', 'dependencies'])
      if (isObject(s[k]))
        for (const d of Object.values(s[k] as JsonObject)) if (!Array.isArray(d)) stack.push(d);
  }
  return out;
}

/** Names a schema makes callers send: required ones, and those a present key requires. */
function sentNames(n: JsonObject): string[] {
  const out = requiredNames(n);
  for (const k of ['dependentRequired', 'dependencies']) {
    const d = n[k];
    if (isObject(d))
      for (const list of Object.values(d))
        if (Array.isArray(list)) out.push(...list.filter((x): x is string => typeof x === 'string'));
  }
  return out;
}

const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

function visit(root: Json, schemas: Json[], value: Json, path: string, depth: number): string | undefined {
  if (depth > 60) return undefined;
  const nodes = expand(root, schemas);
  if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      let declared = false;
      const children: Json[] = [];
      for (const n of nodes) {
        let known = false;
        if (isObject(n.properties) && n.properties[key] !== undefined) {
          known = true;
          children.push(n.properties[key] as Json);
        }
        if (isObject(n.patternProperties))
          for (const [p, s] of Object.entries(n.patternProperties))
            if (matches(p, key)) {
              known = true;
              children.push(s);
            }
        if (!known) {
          const map = n.additionalProperties ?? n.unevaluatedProperties;
          if (isObject(map)) {
            known = true;
            children.push(map);
          }
        }
        if (known || sentNames(n).includes(key)) declared = true;
      }
      if (!declared) return `${path}/${escape(key)}`;
      const deeper = visit(root, children, v, `${path}/${escape(key)}`, depth + 1);
      if (deeper !== undefined) return deeper;
    }
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const children: Json[] = [];
      for (const n of nodes) {
        const tuple = Array.isArray(n.prefixItems) ? n.prefixItems : Array.isArray(n.items) ? n.items : [];
        if (i < tuple.length) children.push(tuple[i] as Json);
        else {
          const rest = Array.isArray(n.items) ? n.additionalItems : n.items;
          if (rest !== undefined) children.push(rest);
          else if (n.unevaluatedItems !== undefined) children.push(n.unevaluatedItems);
        }
        if (n.contains !== undefined) children.push(n.contains);
      }
      const deeper = visit(root, children, value[i] as Json, `${path}/${i}`, depth + 1);
      if (deeper !== undefined) return deeper;
    }
  }
  return undefined;
}

/**
 * The open-objects policy: callers send only declared keys. A key is declared where the value
 * sits if a schema applying there lists it in `properties`, matches it by a `patternProperties`
 * regex, has an `additionalProperties` (or `unevaluatedProperties`) schema (a map), or makes
 * callers send it (`required`, a dependency's required names). Merely open objects declare
 * nothing. Returns the JSON Pointer of the first undeclared key, or undefined.
 */
export function undeclaredKey(root: Json, value: Json): string | undefined {
  return visit(root, [root], value, '', 0);
}
