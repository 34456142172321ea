import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Json } from './types.ts';

/** RFC 8785 canonical JSON: sorted keys, no insignificant whitespace, canonical numbers. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('value has no JSON representation');
  return text;
}

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

export interface ToolLike {
  name: string;
  description?: string;
  inputSchema?: Json;
  [key: string]: unknown;
}

/**
 * The pin over what a model reads and sends: name, description and inputSchema. Canonical JSON
 * means re-serialising an identical manifest (key order, whitespace) never changes it.
 */
export function canonicalHash(tool: ToolLike): string {
  return sha256(
    canonicalJson({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
  );
}

/** A hash over the whole tool definition, so drift in title, annotations or outputSchema is seen too. */
export function definitionHash(tool: ToolLike): string {
  return sha256(canonicalJson(tool));
}

/** Deep equality by canonical form (object key order does not matter). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return canonicalJson(a) === canonicalJson(b);
}
