import { isObject } from '../generate/merge.ts';
import type { Json, JsonObject } from '../types.ts';
import type { Dialect } from '../validator.ts';
import type { Aliases } from './context.ts';
import { setMember } from '../own.ts';

const SPLIT = ['dependentRequired', 'dependentSchemas'] as const;

/** The name under which a draft-07 node's own `dependentRequired` / `dependentSchemas` (no keywords there) are kept. */
const IGNORED_PREFIX = 'draft-07 ';

/**
 * Marks a draft-07 node whose `dependentRequired` / `dependentSchemas` are the decided reading of
 * its `dependencies`. The mark is a symbol: copies the walk makes of the node (`{ ...node }`)
 * keep it, JSON text never shows it.
 */
const READ: unique symbol = Symbol('draft-07 dependencies read');

type Marked = JsonObject & { [READ]?: true };

/** Whether a node holds the decided reading of draft-07 `dependencies` (see `fromDependencies`). */
export function readFromDependencies(node: JsonObject): boolean {
  return (node as Marked)[READ] === true;
}

/** `dependencies` split as the validator splits it; undefined when an entry is neither form. */
function split(deps: JsonObject): { required: JsonObject; schemas: JsonObject } | undefined {
  const required: JsonObject = {};
  const schemas: JsonObject = {};
  for (const [k, v] of Object.entries(deps)) {
    if (Array.isArray(v)) setMember(required, k, v);
    else if (isObject(v) || typeof v === 'boolean') setMember(schemas, k, v);
    else return undefined;
  }
  return { required, schemas };
}

/**
 * Draft-07 (and draft-06) `dependencies`, read as the two keywords 2019-09 split it into: a
 * property whose value is an array of names is a `dependentRequired` entry, any other (a
 * schema, `true` and `false` included) a `dependentSchemas` entry, exactly as the validator
 * splits it. Both forms may be mixed in one object. The aliases send findings about either
 * keyword back to `dependencies`.
 *
 * Only draft-07 is read so: from 2019-09 on `dependencies` is no keyword of the dialect, so it
 * is left alone there and a change to it stays unknown. In draft-07 the names
 * `dependentRequired` and `dependentSchemas` are no keywords (its validator ignores them), so a
 * node's own are moved out of the way, under a name the gate does not analyse: changed, they
 * are an unknown keyword, never a constraint.
 */
export function fromDependencies(node: JsonObject, dialect: Dialect): { node: JsonObject; aliases: Aliases } {
  const marked = readFromDependencies(node);
  if (
    dialect !== 'draft-07' ||
    !['dependencies', ...(marked ? [] : SPLIT)].some((k) => Object.hasOwn(node, k))
  )
    return { node, aliases: {} };
  const out: Marked = { ...node };
  const aliases: Record<string, string> = {};
  if (!marked)
    for (const k of SPLIT) {
      if (!Object.hasOwn(out, k)) continue;
      out[IGNORED_PREFIX + k] = out[k] as Json;
      delete out[k];
      aliases[IGNORED_PREFIX + k] = k;
    }
  const parts = isObject(out.dependencies) ? split(out.dependencies) : undefined;
  const had = (k: string, m: JsonObject): boolean =>
    Object.keys(m).some((x) => isObject(out[k]) && Object.hasOwn(out[k], x));
  if (!parts || had('dependentRequired', parts.required) || had('dependentSchemas', parts.schemas))
    return { node: out, aliases }; // not a draft-07 dependency (or one met twice): an unknown keyword
  delete out.dependencies;
  for (const [k, m] of [
    ['dependentRequired', parts.required],
    ['dependentSchemas', parts.schemas],
  ] as const) {
    // Either keyword's findings lead to `dependencies`, even for an entry the other form holds now.
    aliases[k] = 'dependencies';
    if (Object.keys(m).length > 0) out[k] = { ...(isObject(out[k]) ? out[k] : {}), ...m };
  }
  out[READ] = true;
  return { node: out, aliases };
}

/**
 * The reverse, for a node handed to the validator: in draft-07 the decided keywords go back into
 * `dependencies`, the only spelling its validator knows.
 */
export function toDependencies(node: Json, dialect: Dialect): Json {
  if (dialect !== 'draft-07' || !isObject(node) || 'dependencies' in node) return node;
  const { dependentRequired: r, dependentSchemas: s, ...rest } = node;
  if (r === undefined && s === undefined) return node;
  return { ...rest, dependencies: { ...(isObject(r) ? r : {}), ...(isObject(s) ? s : {}) } };
}
