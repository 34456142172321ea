import { compactText } from './json-text.ts';
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
  // One pass with an explicit stack, each node carrying the `$id` of the innermost subschema
  // around it that declares one (none for the root's own): linear however the ids nest.
  const stack: [Json, string, string | undefined][] = [[schema, '', undefined]];
  while (stack.length > 0) {
    const [node, at, outer] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((v, i) => stack.push([v, appendPointer(at, String(i)), outer]));
      continue;
    }
    const id = at !== '' && typeof node.$id === 'string' ? node.$id : outer;
    if (id !== undefined && typeof node.$ref === 'string' && node.$ref.startsWith('#'))
      return { ref: node.$ref, id, at };
    for (const k in node) {
      const v = node[k];
      if (v !== null && typeof v === 'object') stack.push([v, appendPointer(at, k), id]);
    }
  }
  return undefined;
}
