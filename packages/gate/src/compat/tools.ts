import type { Json } from './types.ts';

/** A tool as `tools/list` returns it; fields beyond these are kept and compared as drift. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Json;
  outputSchema?: Json;
  annotations?: Json;
  [key: string]: Json | undefined;
}

/**
 * Accepts a tools array or a `tools/list` result. Whatever else it is given reads as no tools,
 * and an entry without a string name as no tool: nothing can be said of a tool without a name
 * (parseManifest refuses such a document outright; the library only never throws on one).
 */
export function asTools(manifest: unknown): readonly Tool[] {
  const list: unknown = Array.isArray(manifest)
    ? manifest
    : typeof manifest === 'object' && manifest !== null
      ? (manifest as { tools?: unknown }).tools
      : undefined;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (t): t is Tool =>
      typeof t === 'object' && t !== null && !Array.isArray(t) && typeof (t as Tool).name === 'string',
  );
}

/**
 * Checks that a parsed document is a `tools/list` result (or JSON-RPC response holding one):
 * every tool has a unique string name. Throws a plain message otherwise.
 */
export function parseManifest(doc: unknown): Tool[] {
  const root = doc as { tools?: unknown; result?: { tools?: unknown } } | null;
  const tools = root && typeof root === 'object' ? (root.tools ?? root.result?.tools) : undefined;
  if (!Array.isArray(tools)) throw new Error('expected a tools/list result: an object with a "tools" array');
  const names = new Set<string>();
  tools.forEach((t: unknown, i) => {
    if (!t || typeof t !== 'object' || typeof (t as Tool).name !== 'string')
      throw new Error(`tools[${i}] has no string "name"`);
    const name = (t as Tool).name;
    if (names.has(name)) throw new Error(`tool "${name}" appears twice`);
    names.add(name);
  });
  return tools as Tool[];
}
