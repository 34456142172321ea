import { digestOf } from './hash.ts';
import { mapJson, STOP, walkJson, WHOLE } from './json-walk.ts';
import { keywordsWhere } from './keywords.ts';
import type { Json, JsonObject } from './types.ts';
import { setMember } from './own.ts';
import { escapeSegment, parsePointer, refPointer } from './pointer.ts';

/**
 * Definitions addressed by content. Each definition of a `$defs` (or `definitions`) object gets
 * an id made from its name, its text and the names and texts of every definition it reaches, so
 * two documents that share a definition unchanged (consecutive releases of a server, the tools
 * of one manifest, the revisions of a specification) give it the same id. The validator then
 * compiles and meta-validates it once, whichever document it came from.
 */
export interface DefinitionIndex {
  container: string;
  /** The content-addressed id of a definition, by name; undefined for a name not defined. */
  idOf(name: string): string | undefined;
  /** A definition with its references rewritten to ids, as the validator registers it. */
  body(name: string): Json;
  /** A short digest of a definition's own text (its meaning apart from what it references). */
  digest(name: string): string;
  /** The names a schema reaches through the definitions, itself excluded. */
  reachedFrom(node: Json): string[];
  /** A schema with every reference into the definitions rewritten to ids. */
  rewrite(node: Json): Json;
  /**
   * Names in an order where each comes after every name it refers to (on a cycle, after those
   * reached before it), found with an explicit stack: the order to build them one by one.
   */
  dependenciesFirst(names: readonly string[]): string[];
}

const BASE = 'https://warden.invalid/def/';
const CONTAINERS = ['$defs', 'definitions'] as const;
/** Keywords that reach a schema by something other than a local JSON Pointer: moving one changes it. */
export const SCOPED: ReadonlySet<string> = new Set(
  keywordsWhere((k, name) => k.role === 'identifier' || (k.role === 'reference' && name !== '$ref')),
);

/**
 * Keywords beside which a schema may not be rewritten for the validator (cut into parts,
 * branches merged): `unevaluated*` read what the other keywords evaluated, `contains` is
 * decided by Ajv with the shape of the code around it, and the scoped keywords resolve by
 * something other than position. A `$ref` is the caller's to judge (which pointers stay).
 */
export function blocksRewrite(keyword: string): boolean {
  return (
    keyword === 'unevaluatedProperties' ||
    keyword === 'unevaluatedItems' ||
    keyword === 'contains' ||
    SCOPED.has(keyword)
  );
}

/**
 * A reference into a definitions container, split into container, name and the pointer after it
 * (a URI fragment, its tokens percent-encoded). Read token by token as the validator reads it
 * (see refPointer): `#/%24defs/a%2Fb` is the definition `a/b` of `$defs`.
 */
export function definitionRef(ref: string): { container: string; name: string; rest: string } | undefined {
  const pointer = refPointer(ref);
  const tokens = pointer === undefined ? undefined : parsePointer(pointer);
  if (!tokens || tokens.length < 2) return undefined;
  const [container, name] = tokens as [string, string];
  if (container !== '$defs' && container !== 'definitions') return undefined;
  const rest = tokens
    .slice(2)
    .map((t) => `/${encodeURIComponent(escapeSegment(t))}`)
    .join('');
  return { container, name, rest };
}

/** Whether a schema holds a keyword that scopes references (so it cannot be moved or split). */
export function scopesReferences(node: Json): boolean {
  return !scan(node, () => undefined);
}

/** Every reference a node makes, and whether it holds anything that would scope a reference. */
function scan(node: Json, visit: (ref: string) => void): boolean {
  const end = walkJson(
    node,
    null,
    (n) => {
      if (n === null || typeof n !== 'object' || Array.isArray(n)) return null;
      for (const k of Object.keys(n)) {
        if (SCOPED.has(k)) return STOP;
        if (k === '$ref') {
          const v = (n as JsonObject)[k];
          if (typeof v !== 'string') return STOP;
          visit(v);
        }
      }
      return null;
    },
    WHOLE,
  );
  return end === 'complete';
}

function hash(text: string): string {
  return digestOf('sha1', text, 'base64url');
}

/**
 * Digests of definition texts, by text: the same definition is met in many documents (each
 * tool of a manifest carries its own copy). Bounded by entries and by the characters held.
 */
const textDigests = new Map<string, string>();
let heldChars = 0;
const MAX_DIGESTS = 20_000;
const MAX_HELD_CHARS = 16_000_000;

function textDigest(text: string): string {
  let d = textDigests.get(text);
  if (d === undefined) {
    d = hash(text);
    if (textDigests.size >= MAX_DIGESTS || heldChars + text.length > MAX_HELD_CHARS) {
      textDigests.clear();
      heldChars = 0;
    }
    textDigests.set(text, d);
    heldChars += text.length;
  }
  return d;
}

/**
 * The index of a definitions object, or null when sharing would change a meaning: a reference
 * that leaves the container, or a keyword that scopes references.
 */
function buildIndex(defs: JsonObject, container: string, texts: Map<string, string>): DefinitionIndex | null {
  const names = Object.keys(defs);
  const direct = new Map<string, string[]>();
  for (const name of names) {
    const out: string[] = [];
    let foreign = false;
    // A reference to a name the container does not hold leaves it too: in the document it
    // leads nowhere, while a definition registered on its own would read it as its own.
    const ok = scan(defs[name] as Json, (ref) => {
      const r = definitionRef(ref);
      if (!r || r.container !== container || !Object.hasOwn(defs, r.name)) foreign = true;
      else out.push(r.name);
    });
    if (!ok || foreign) return null;
    direct.set(name, out);
  }
  const closure = (from: Iterable<string>): Set<string> => {
    const seen = new Set<string>();
    const stack = [...from];
    while (stack.length > 0) {
      const n = stack.pop() as string;
      if (seen.has(n)) continue;
      seen.add(n);
      for (const m of direct.get(n) ?? []) stack.push(m);
    }
    return seen;
  };
  const ids = new Map<string, string>();
  // Each definition's text is hashed once; an id hashes the digests of what it reaches, not
  // their texts again (a definition reached from a hundred others was hashed a hundred times).
  const digests = new Map<string, string>();
  const digest = (name: string): string => {
    let d = digests.get(name);
    if (d === undefined) {
      d = textDigest(texts.get(name) as string);
      digests.set(name, d);
    }
    return d;
  };
  const idOf = (name: string): string | undefined => {
    if (!texts.has(name)) return undefined;
    let id = ids.get(name);
    if (id === undefined) {
      const reach = [...closure([name])].filter((n) => texts.has(n)).sort();
      // The same definition in another document has the same text to digest (see textDigest).
      id =
        BASE +
        textDigest(
          `${container}\u0000${JSON.stringify(name)}\u0000${reach.map((n) => `${JSON.stringify(n)}\u0000${digest(n)}`).join('\u0000')}`,
        );
      ids.set(name, id);
    }
    return id;
  };
  // Every object and array copied (the validator is given a body of its own, never a value it
  // may hold already), each reference into the container written as the definition's id.
  const rewrite = (node: Json): Json =>
    mapJson(
      node,
      null,
      () => null,
      (v) => {
        if (v === null || typeof v !== 'object') return v;
        if (Array.isArray(v)) return v.slice();
        const out: JsonObject = {};
        for (const [k, m] of Object.entries(v as JsonObject)) {
          const found = k === '$ref' && typeof m === 'string' ? definitionRef(m) : undefined;
          const r = found?.container === container ? found : undefined;
          const id = r ? idOf(r.name) : undefined;
          setMember(out, k, r && id ? (r.rest ? `${id}#${r.rest}` : id) : m);
        }
        return out;
      },
      WHOLE,
    ).value as Json;
  const bodies = new Map<string, Json>();
  return {
    container,
    idOf,
    digest: (name) => (texts.has(name) ? digest(name) : hash('null')),
    body(name) {
      let b = bodies.get(name);
      if (b === undefined) {
        b = rewrite(defs[name] as Json);
        bodies.set(name, b);
      }
      return b;
    },
    reachedFrom(node) {
      const first: string[] = [];
      scan(node, (ref) => {
        const r = definitionRef(ref);
        if (r && r.container === container) first.push(r.name);
      });
      return [...closure(first)].filter((n) => texts.has(n));
    },
    rewrite,
    dependenciesFirst(from) {
      const out: string[] = [];
      const seen = new Set<string>();
      // Each name is pushed twice: to visit what it refers to, then (marked) to be written out.
      const stack: [string, boolean][] = from.map((n): [string, boolean] => [n, false]).reverse();
      while (stack.length > 0) {
        const [n, done] = stack.pop() as [string, boolean];
        if (done) {
          out.push(n);
          continue;
        }
        if (seen.has(n)) continue;
        seen.add(n);
        stack.push([n, true]);
        for (const m of direct.get(n) ?? []) if (!seen.has(m)) stack.push([m, false]);
      }
      return out;
    },
  };
}

let byIdentity = new WeakMap<object, DefinitionIndex | null>();
const byText = new Map<string, DefinitionIndex | null>();
const MAX_TEXTS = 2000;

/** The index of a schema's one definitions container, found by identity or by content. */
export function definitionIndex(schema: JsonObject): DefinitionIndex | null {
  const present = CONTAINERS.filter((c) => schema[c] !== undefined);
  if (present.length !== 1) return null;
  const container = present[0] as string;
  const defs = schema[container];
  if (defs === null || typeof defs !== 'object' || Array.isArray(defs)) return null;
  let index = byIdentity.get(defs);
  if (index === undefined) {
    // Each definition's text is needed for its id anyway; together they key the index by content.
    const texts = new Map(Object.entries(defs).map(([name, def]) => [name, JSON.stringify(def)]));
    const key = `${container}\u0000${[...texts].map(([n, t]) => `${JSON.stringify(n)}:${t}`).join(',')}`;
    index = byText.get(key);
    if (index === undefined) {
      index = buildIndex(defs, container, texts);
      if (byText.size >= MAX_TEXTS) byText.clear();
      byText.set(key, index);
    }
    byIdentity.set(defs, index);
  }
  return index;
}

/** Forgets every index (benchmarks measure cold runs). */
export function clearDefinitionIndexes(): void {
  byIdentity = new WeakMap();
  byText.clear();
  textDigests.clear();
  heldChars = 0;
}
