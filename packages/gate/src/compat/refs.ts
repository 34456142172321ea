import { MAX_SCHEMA_REFS } from './bounds.ts';
import { refPointer, resolvePointer } from './pointer.ts';
import type { JsonObject, Schema } from './types.ts';

type Resolved = Readonly<{ schema: Schema; pointer: string }>;

/**
 * Each document's references, resolved once: the walk, the sampler and the witnesses ask the
 * same ones again and again. A document is never changed once read, so an answer holds for as
 * long as the document lives (and goes with it).
 */
const resolvedIn = new WeakMap<object, Map<string, Resolved | undefined>>();

/** Resolves a local `$ref` ("#" or "#/json/pointer") against the document root; undefined if it cannot. */
/**
 * References followed one after another from one place (a chain of definitions that are each only
 * a reference) before the chain is taken as unresolvable: the walk, the allOf fold and the value
 * generator all stop at the same length. A schema within the gate's bounds has at most
 * MAX_SCHEMA_REFS distinct targets, so a longer chain meets one of them twice: it leads back to
 * itself and resolves to nothing, for the validator too. Any shorter chain is followed to its end
 * (a loop, one step per reference).
 */
export const MAX_REF_HOPS = MAX_SCHEMA_REFS + 1;

export function resolveRef(root: Schema, ref: string): Resolved | undefined {
  if (typeof root !== 'object') return resolveOnce(root, ref);
  let known = resolvedIn.get(root);
  if (!known) {
    known = new Map();
    resolvedIn.set(root, known);
  }
  if (known.has(ref)) return known.get(ref);
  const found = resolveOnce(root, ref);
  known.set(ref, found);
  return found;
}

function resolveOnce(root: Schema, ref: string): Resolved | undefined {
  // Token by token, as the validator reads it (see refPointer).
  const pointer = refPointer(ref);
  if (pointer === undefined) return undefined;
  const { found, value: node } = resolvePointer(root, pointer);
  if (!found) return undefined;
  if (typeof node === 'boolean') return Object.freeze({ schema: node, pointer });
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  return Object.freeze({ schema: node as JsonObject, pointer });
}

/**
 * Whether keywords beside `$ref` take part in validation. Draft-07 says they are ignored, but the
 * validator every signal of the gate uses (Ajv 8) applies them in every dialect, and the gate
 * follows its validator: a verdict must hold for the values that validator accepts.
 */
export function siblingsApply(_dialect: string): boolean {
  return true;
}
