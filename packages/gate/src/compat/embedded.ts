import { compactText } from './json-text.ts';
import { findPlace } from './pointer.ts';
import type { Schema } from './types.ts';

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
  let found: EmbeddedRef | undefined;
  findPlace(schema, (node, at) => {
    if (at === '' || typeof node.$id !== 'string') return undefined;
    const id = node.$id;
    let ref = '';
    const inner = findPlace(node, (n, p) => {
      if (typeof n.$ref !== 'string' || !n.$ref.startsWith('#')) return undefined;
      ref = n.$ref;
      return `${at}${p}`;
    });
    if (inner === undefined) return undefined;
    found = { ref, id, at: inner };
    return inner;
  });
  return found;
}
