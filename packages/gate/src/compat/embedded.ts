import { compactText } from './json-text.ts';
import { SCHEMA_BOUNDS } from './bounds.ts';
import { STOP, walkJson } from './json-walk.ts';
import { appendPointer } from './pointer.ts';
import type { Json, Schema } from './types.ts';

/** A reference the gate cannot place: by fragment, inside a subschema that declares its own `$id`. */
export interface EmbeddedRef {
  ref: string;
  id: string;
  /** Where the reference is written, as a JSON Pointer. */
  at: string;
}

/**
 * The first `$ref` by fragment (`#/$defs/A`, `#`) written inside a subschema that declares its
 * own `$id`, or undefined. Such a subschema is a resource of its own: the validator resolves the
 * fragment against it, while the walk, the value generator and the witnesses resolve every
 * fragment against the document's root, and would compare another schema than the validator
 * applies (a `$defs/A` of the root where the subschema holds its own). A document with its
 * `$id` only at the root is one resource and is read as usual.
 */
export function refInEmbeddedResource(schema: Schema): EmbeddedRef | undefined {
  if (typeof schema !== 'object' || !compactText(schema).includes('"$id"')) return undefined;
  // One pass, each node carrying its pointer and the `$id` of the innermost subschema around it
  // that declares one (none for the root's own): linear however the ids nest.
  let found: EmbeddedRef | undefined;
  walkJson<{ at: string; id: string | undefined }>(
    schema,
    { at: '', id: undefined },
    (value, key, _, outer) => {
      if (value === null || typeof value !== 'object') return outer;
      const at = key === undefined ? '' : appendPointer(outer.at, String(key));
      if (Array.isArray(value)) return { at, id: outer.id };
      const node = value as Record<string, Json>;
      const id = at !== '' && typeof node.$id === 'string' ? node.$id : outer.id;
      if (id !== undefined && typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
        found = { ref: node.$ref, id, at };
        return STOP;
      }
      return { at, id };
    },
    SCHEMA_BOUNDS,
  );
  return found;
}
