import { isObject, type Json } from './json.ts';

/** A place in a document: object keys and array indexes from its root. */
export type Path = (string | number)[];

/** Keywords whose value is one subschema. */
export const ONE = [
  'additionalProperties',
  'items',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
] as const;
/** Keywords whose value is a list of subschemas. */
export const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'] as const;
/** Keywords whose value maps names to subschemas. */
export const MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'] as const;

/** One subschema of a document and where it sits. */
export interface Slot {
  path: Path;
  schema: Json;
}

/**
 * Every subschema of a document (booleans included), each once, in document order: the places an
 * edit can land. Draft-07 `dependencies` contributes its schema entries.
 */
export function slots(root: Json): Slot[] {
  const out: Slot[] = [];
  const visit = (schema: Json, path: Path, depth: number): void => {
    out.push({ path, schema });
    if (!isObject(schema) || depth > 60) return;
    for (const k of ONE) {
      const v = schema[k];
      if (v !== undefined && (typeof v === 'boolean' || isObject(v))) visit(v, [...path, k], depth + 1);
    }
    for (const k of LISTS) {
      const v = schema[k];
      if (Array.isArray(v)) v.forEach((x, i) => visit(x, [...path, k, i], depth + 1));
    }
    for (const k of [...MAPS, 'dependencies']) {
      const v = schema[k];
      if (!isObject(v)) continue;
      for (const [name, x] of Object.entries(v)) {
        if (k === 'dependencies' && Array.isArray(x)) continue;
        visit(x, [...path, k, name], depth + 1);
      }
    }
  };
  visit(root, [], 0);
  return out;
}

/** The value at a path, or undefined when the path leads nowhere. */
export function at(root: Json, path: Path): Json | undefined {
  let node: Json | undefined = root;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === 'number') node = node[step];
    else if (isObject(node) && typeof step === 'string') node = node[step];
    else return undefined;
  }
  return node;
}

/** Replaces the value at a path (the root itself cannot be replaced: callers hold it). */
export function setAt(root: Json, path: Path, value: Json): void {
  const parent = at(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent) && typeof last === 'number') parent[last] = value;
  else if (isObject(parent) && typeof last === 'string') parent[last] = value;
}

/** The subschema a local `$ref` (`#`, `#/…` JSON Pointer) names, or undefined. */
export function resolveRef(root: Json, ref: string): Json | undefined {
  if (ref === '#') return root;
  // A plain name (`#Name`): the first schema carrying it as `$anchor` or `$dynamicAnchor`
  // (the generator's guess; the oracle decides by Ajv alone).
  if (/^#[A-Za-z_]/.test(ref))
    return slots(root).find(
      (s) =>
        isObject(s.schema) && (s.schema.$anchor === ref.slice(1) || s.schema.$dynamicAnchor === ref.slice(1)),
    )?.schema;
  if (!ref.startsWith('#/')) return undefined;
  const steps = ref
    .slice(2)
    .split('/')
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: Json | undefined = root;
  for (const s of steps) {
    if (Array.isArray(node) && /^\d+$/.test(s)) node = node[Number(s)];
    else if (isObject(node)) node = node[s];
    else return undefined;
  }
  return node;
}
