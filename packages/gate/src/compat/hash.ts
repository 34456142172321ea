import * as crypto from 'node:crypto';
import { canonicalJson } from './json-text.ts';
import { SKIP, STOP, walkJson, WHOLE } from './json-walk.ts';
import type { Json } from './types.ts';

export { canonicalJson };

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

/** Node's one-call digest (20.12 and later): no hash object to build for each short text. */
const oneCall = (crypto as { hash?: (algorithm: string, data: string, encoding: string) => string }).hash;

/** The digest of a text's UTF-8 bytes: the one place the compat engine hashes. */
export function digestOf(algorithm: 'sha1' | 'sha256', text: string, encoding: 'hex' | 'base64url'): string {
  return oneCall
    ? oneCall(algorithm, text, encoding)
    : crypto.createHash(algorithm).update(text, 'utf8').digest(encoding);
}

function sha256(text: string): string {
  return `sha256:${digestOf('sha256', text, 'hex')}`;
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

/** The pin of any served item (a prompt, a resource, a skill entry): its canonical JSON, hashed. */
export function jsonHash(value: unknown): string {
  return sha256(canonicalJson(value));
}

/** A hash over the whole tool definition, so drift in title, annotations or outputSchema is seen too. */
export function definitionHash(tool: ToolLike): string {
  return sha256(canonicalJson(tool));
}

/**
 * Deep equality of JSON values; object key order does not matter (as in canonical form), and a
 * member whose value is undefined is as absent. Walked by walkJson over `a`, each value's
 * context the value at the same place in `b`, so any depth of input compares.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  // Most questions are settled before any walk: the same value, or a scalar beside anything else.
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return walkJson(a, b, sameAt, WHOLE) === 'complete';
}

/** One value of `a` beside its counterpart in `b`: the counterpart for its members, or why not. */
function sameAt(x: unknown, key: string | number | undefined, _: number, outer: unknown): unknown {
  const y = key === undefined ? outer : (outer as Record<string | number, unknown>)[key];
  if (x === y) return SKIP;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return STOP;
  if (Array.isArray(x)) return Array.isArray(y) && x.length === y.length ? y : STOP;
  if (Array.isArray(y)) return STOP;
  const xo = x as Record<string, unknown>,
    yo = y as Record<string, unknown>;
  let defined = 0;
  for (const k of Object.keys(xo)) {
    if (xo[k] === undefined) continue;
    if (!Object.hasOwn(yo, k)) return STOP;
    defined++;
  }
  for (const k of Object.keys(yo)) if (yo[k] !== undefined) defined--;
  return defined === 0 ? y : STOP;
}

/** Whether a JSON value holds a `$ref` keyword anywhere. */
export function hasRef(value: unknown): boolean {
  return (
    walkJson(
      value,
      null,
      (v) =>
        typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, '$ref') ? STOP : null,
      WHOLE,
    ) === 'stopped'
  );
}

/**
 * FNV-1a (32 bits) over a text: a fast, stable spread where content is cut into runs (parts.ts,
 * wide.ts), so the two sides of a diff are cut at the same places. Not for identity: see canonicalHash.
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
