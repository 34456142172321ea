import * as crypto from 'node:crypto';
import { canonicalJson } from './json-text.ts';
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
 * Deep equality of JSON values; object key order does not matter (as in canonical form). Walked
 * with an explicit stack, so any depth of input compares.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop() as [unknown, unknown];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      for (let i = 0; i < x.length; i++) pending.push([x[i], ys[i]]);
      continue;
    }
    const xo = x as Record<string, unknown>,
      yo = y as Record<string, unknown>;
    const kx = Object.keys(xo).filter((k) => xo[k] !== undefined);
    const ky = Object.keys(yo).filter((k) => yo[k] !== undefined);
    if (kx.length !== ky.length) return false;
    for (const k of kx) {
      if (!Object.hasOwn(yo, k)) return false;
      pending.push([xo[k], yo[k]]);
    }
  }
  return true;
}

/** Whether a JSON value holds a `$ref` keyword anywhere (walked with an explicit stack). */
export function hasRef(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (!Array.isArray(v) && Object.hasOwn(v, '$ref')) return true;
    // One push per member: spreading a long array into push() would overflow the stack itself.
    for (const member of Object.values(v)) pending.push(member);
  }
  return false;
}
