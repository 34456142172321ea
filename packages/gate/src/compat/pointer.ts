/**
 * JSON Pointer (RFC 6901), the one place the gate builds, reads and checks the pointers its
 * findings carry, so that every rule escapes `~` and `/` alike and a pointer always leads to
 * something in the schema it names.
 */
import { SKIP, STOP, walkJson, WHOLE } from './json-walk.ts';
import type { Json, JsonObject } from './types.ts';

export type Segment = string | number;

/** One reference token: `~` → `~0`, `/` → `~1` (in that order, as RFC 6901 section 3 says). */
export function escapeSegment(segment: Segment): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Tokens back from their escaped form: `~1` → `/`, then `~0` → `~` (section 4). */
function unescapeSegment(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A pointer from its segments; no segments is the whole document (""). */
export function toPointer(segments: readonly Segment[]): string {
  let out = '';
  for (const s of segments) out += `/${escapeSegment(s)}`;
  return out;
}

/** `base` extended by segments. */
export function appendPointer(base: string, ...segments: Segment[]): string {
  return base + toPointer(segments);
}

/** The unescaped tokens of a pointer; undefined when it is not a pointer ("" or "/..."). */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer.slice(1).split('/').map(unescapeSegment);
}

/**
 * The JSON Pointer a local reference's fragment names, as Ajv 8 reads it: the fragment is split
 * at `/` first, then each token is percent-decoded and unescaped (`~1`, `~0`), so `#/$defs/a%2Fb`
 * names the definition `a/b`, never `$defs/a/b`. Returned escaped, as the gate's pointers are;
 * undefined for a reference that is not `#` or `#/…`, or whose encoding is broken.
 */
export function refPointer(ref: string): string | undefined {
  if (ref === '#') return '';
  if (!ref.startsWith('#/')) return undefined;
  try {
    return toPointer(
      ref
        .slice(2)
        .split('/')
        .map((t) => unescapeSegment(decodeURIComponent(t))),
    );
  } catch {
    return undefined;
  }
}

function step(node: unknown, token: string): { found: boolean; value: unknown } {
  if (Array.isArray(node)) {
    if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= node.length)
      return { found: false, value: undefined };
    return { found: true, value: node[Number(token)] };
  }
  if (node !== null && typeof node === 'object' && Object.prototype.hasOwnProperty.call(node, token))
    return { found: true, value: (node as Record<string, unknown>)[token] };
  return { found: false, value: undefined };
}

/** What the pointer leads to in `doc`, if anything. */
export function resolvePointer(doc: unknown, pointer: string): { found: boolean; value: unknown } {
  const tokens = parsePointer(pointer);
  if (!tokens) return { found: false, value: undefined };
  let at: { found: boolean; value: unknown } = { found: true, value: doc };
  for (const t of tokens) {
    at = step(at.value, t);
    if (!at.found) return at;
  }
  return at;
}

/**
 * The longest prefix of `pointer` that leads somewhere in `doc`. A finding about a keyword
 * that the new schema no longer has (an enum removed, a bound dropped) then points at the
 * schema that lost it, rather than at nothing.
 */
export function nearestPointer(doc: unknown, pointer: string): string {
  const tokens = parsePointer(pointer);
  if (!tokens) return '';
  const kept: string[] = [];
  let node: unknown = doc;
  for (const t of tokens) {
    const next = step(node, t);
    if (!next.found) break;
    kept.push(t);
    node = next.value;
  }
  return toPointer(kept);
}

/**
 * The first place in a document where `found` answers, as `found` answers it (a pointer), or
 * undefined: every object is asked, with its pointer, by walkJson (any depth is walked, and no
 * pointer is made for a scalar member).
 */
export function findPlace(
  doc: Json,
  found: (node: JsonObject, at: string) => string | undefined,
): string | undefined {
  let answer: string | undefined;
  walkJson(
    doc,
    '',
    (node, key, _, parent) => {
      if (node === null || typeof node !== 'object') return SKIP;
      const at = key === undefined ? '' : appendPointer(parent, String(key));
      if (Array.isArray(node)) return at;
      answer = found(node as JsonObject, at);
      return answer === undefined ? at : STOP;
    },
    WHOLE,
  );
  return answer;
}

/** The fragment of a reference to a pointer, each token escaped and percent-encoded. */
export function pointerRef(pointer: string): string {
  if (pointer === '') return '#';
  return `#/${pointer
    .slice(1)
    .split('/')
    .map((t) => encodeURIComponent(t))
    .join('/')}`;
}
