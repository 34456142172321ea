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
 * Whether keywords beside `$ref` take part in validation: in draft-07 they are ignored,
 * from 2019-09 on they apply together with the referenced schema.
 */
export function siblingsApply(dialect: string): boolean {
  return dialect !== 'draft-07';
}
