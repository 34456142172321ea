import type { JsonObject, Schema } from '../types.ts';

/** Decodes one JSON Pointer segment. */
function unescape(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

export function escapePointer(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Resolves a local `$ref` ("#" or "#/json/pointer") against the document root; undefined if it cannot. */
export function resolveRef(root: Schema, ref: string): { schema: Schema; pointer: string } | undefined {
  if (!ref.startsWith('#')) return undefined;
  const pointer = ref.slice(1);
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[unescape(raw)];
  }
  if (typeof node === 'boolean') return { schema: node, pointer };
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  return { schema: node as JsonObject, pointer };
}

/**
 * Whether keywords beside `$ref` take part in validation. Draft-07 says they are ignored, but the
 * validator every signal of the gate uses (Ajv 8) applies them in every dialect, and the gate
 * follows its validator: a verdict must hold for the values that validator accepts.
 */
export function siblingsApply(_dialect: string): boolean {
  return true;
}
