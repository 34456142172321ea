import { definitionRef, SCOPED } from './definitions.ts';
import { SCHEMA_BOUNDS } from './bounds.ts';
import { SKIP, STOP, walkJson } from './json-walk.ts';
import type { Json, JsonObject, Schema } from './types.ts';

// Keywords that reach a schema other than by a plain local $ref make pruning unsafe.
const OPAQUE = SCOPED;

const pruned = new WeakMap<object, Schema>();

/**
 * The schema without the `$defs` / `definitions` entries no `$ref` reaches from its root. A
 * definition document (a whole specification's `$defs` behind one `$ref`) compiles and
 * meta-validates in a fraction of the time. Anything but plain local refs leaves it whole.
 */
export function pruneDefinitions(schema: Schema): Schema {
  if (typeof schema !== 'object') return schema;
  const hit = pruned.get(schema);
  if (hit !== undefined) return hit;
  const result = prune(schema) ?? schema;
  pruned.set(schema, result);
  return result;
}

function prune(root: JsonObject): JsonObject | undefined {
  const containers = (['$defs', 'definitions'] as const).filter(
    (k) => typeof root[k] === 'object' && root[k] !== null && !Array.isArray(root[k]),
  );
  if (containers.length === 0) return undefined;
  const reached = new Map<string, Set<string>>(containers.map((c) => [c, new Set()]));
  const queue: Json[] = [];
  let unsafe = false;
  // `top` only for the root: its containers are what is being pruned, so they are not entered.
  const walk = (from: Json, top: boolean): void => {
    const end = walkJson(
      from,
      null,
      (node, key, depth) => {
        if (unsafe) return STOP;
        if (top && depth === 1 && typeof key === 'string' && reached.has(key)) return SKIP;
        if (node === null || typeof node !== 'object' || Array.isArray(node)) return null;
        for (const [k, v] of Object.entries(node)) check(k, v as Json, top && depth === 0);
        return null;
      },
      SCHEMA_BOUNDS,
    );
    // Past the bounds, nothing is known of what the rest reaches: the document stays whole.
    if (end === 'too-deep' || end === 'too-large') unsafe = true;
  };
  /** One member of an object: a reference it makes, or a keyword that makes pruning unsafe. */
  const check = (k: string, v: Json, top: boolean): void => {
    if (top && reached.has(k)) return;
    if (OPAQUE.has(k) && !(top && k === '$id')) unsafe = true;
    if (k === '$ref' && typeof v === 'string') {
      const m = definitionRef(v);
      if (m) {
        const names = reached.get(m.container);
        const name = m.name;
        if (!names) unsafe = true;
        else if (!names.has(name)) {
          names.add(name);
          queue.push(((root[m.container] as JsonObject)[name] ?? null) as Json);
        }
      } else if (v.startsWith('#') && v !== '#') unsafe = true;
    }
  };
  walk(root, true);
  while (queue.length > 0 && !unsafe) walk(queue.pop() as Json, false);
  if (unsafe) return undefined;
  const out: JsonObject = { ...root };
  for (const c of containers) {
    const all = root[c] as JsonObject;
    const keep = reached.get(c) as Set<string>;
    if (keep.size === Object.keys(all).length) continue;
    out[c] = Object.fromEntries(Object.entries(all).filter(([k]) => keep.has(k)));
  }
  return out;
}
