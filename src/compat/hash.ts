import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Json } from './types.ts';

/** RFC 8785 canonical JSON: sorted keys, no insignificant whitespace, canonical numbers. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('value has no JSON representation');
  return text;
}

const keysOf = new WeakMap<readonly unknown[], readonly string[]>();

/** The canonical JSON of each member of an array, computed once per array. */
export function canonicalKeys(items: readonly unknown[]): readonly string[] {
  let keys = keysOf.get(items);
  if (!keys) {
    keys = items.map((item) => canonicalJson(item));
    keysOf.set(items, keys);
  }
  return keys;
}

/** Indexes of an array's members in the order of their canonical JSON (ties by position). */
export function canonicalOrder(items: readonly unknown[]): number[] {
  const keys = canonicalKeys(items);
  return [...items.keys()].sort((a, b) => compareText(keys[a] as string, keys[b] as string) || a - b);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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

/** Deep equality of JSON values; object key order does not matter (as in canonical form). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' ? a === b : false;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** Whether a JSON value holds a `$ref` keyword anywhere. */
export function hasRef(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasRef);
  return Object.entries(value).some(([k, v]) => k === '$ref' || hasRef(v));
}
