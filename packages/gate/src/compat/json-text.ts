/**
 * JSON text written without recursion. `JSON.stringify` and a recursive canonicaliser both run
 * out of stack a few thousand levels down, and a manifest is input the gate does not control:
 * hashing, pinning and printing must work on a schema nested 10,000 deep as on any other.
 */

interface WriteOptions {
  /** Object keys in code-unit order (RFC 8785), or in their own order (as JSON.stringify). */
  sortKeys?: boolean;
  /** Spaces per level, as JSON.stringify's third argument; 0 writes compact text. */
  indent?: number;
  /** Containers nested deeper than this are written compact, so a deep value stays linear in size. */
  flatBelow?: number;
  /** Stop once this many characters are written (a preview); the text is then cut to it. */
  limit?: number;
  /** How a number JSON cannot spell (±Infinity, NaN) is written. */
  nonFinite?: 'null' | 'literal';
}

interface Frame {
  node: unknown[] | Record<string, unknown>;
  /** Keys to write, for an object; undefined for an array. */
  keys: string[] | undefined;
  next: number;
}

/** Whether a member is left out of an object (as JSON.stringify leaves undefined out). */
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function numberText(n: number, nonFinite: 'null' | 'literal'): string {
  if (Number.isFinite(n)) return JSON.stringify(n);
  if (nonFinite === 'null') return 'null';
  // JSON text such as 1e400 parses to Infinity; writing it back that way keeps values apart.
  return Number.isNaN(n) ? 'NaN' : n > 0 ? '1e400' : '-1e400';
}

/**
 * JSON.stringify's text of an array whose members are all strings, booleans, null or finite
 * numbers, which is the text the writer gives it in any of its settings; undefined otherwise.
 */
function plainScalars(items: readonly unknown[]): string | undefined {
  for (const v of items) {
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) continue;
    if (typeof v === 'number' && Number.isFinite(v)) continue;
    return undefined;
  }
  return JSON.stringify(items);
}

/** JSON text of a value, written with an explicit stack instead of recursion. */
function writeJson(value: unknown, options: WriteOptions = {}): string {
  const { sortKeys = false, indent = 0, flatBelow = Infinity, limit = Infinity } = options;
  const nonFinite = options.nonFinite ?? 'null';
  const out: string[] = [];
  let length = 0;
  const push = (text: string): void => {
    out.push(text);
    length += text.length;
  };
  const stack: Frame[] = [];
  const onPath = new Set<object>();
  /** Whether the members of a container nested `level` deep (1 for the outermost) go on lines of their own. */
  const pretty = (level: number): boolean => indent > 0 && level <= flatBelow;
  const newline = (spaces: number): string => `\n${' '.repeat(spaces)}`;

  /** Writes a scalar whole, or opens a container and leaves its members to the loop. */
  const open = (v: unknown): void => {
    if (v === null || skipped(v)) return push('null');
    if (typeof v === 'number') return push(numberText(v, nonFinite));
    if (typeof v !== 'object') return push(JSON.stringify(v) ?? 'null');
    if (onPath.has(v)) throw new TypeError('a value that contains itself has no JSON text');
    onPath.add(v);
    if (Array.isArray(v)) {
      push('[');
      stack.push({ node: v, keys: undefined, next: 0 });
      return;
    }
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => !skipped(obj[k]));
    if (sortKeys) keys.sort();
    push('{');
    stack.push({ node: obj, keys, next: 0 });
  };

  open(value);
  while (stack.length > 0 && length <= limit) {
    const f = stack[stack.length - 1] as Frame;
    const size = f.keys ? f.keys.length : (f.node as unknown[]).length;
    // An array of plain scalars written compact (an enum, a required list) is JSON.stringify's
    // own text of it: written in one native call rather than member by member.
    if (f.next === 0 && !f.keys && size > 1 && limit === Infinity && !pretty(stack.length)) {
      const text = plainScalars(f.node as unknown[]);
      if (text !== undefined) {
        out.pop(); // the '[' just written: the text has its own
        push(text);
        length -= 1;
        stack.pop();
        onPath.delete(f.node);
        continue;
      }
    }
    if (f.next === size) {
      stack.pop();
      onPath.delete(f.node);
      if (size > 0 && pretty(stack.length + 1)) push(newline(indent * stack.length));
      push(f.keys ? '}' : ']');
      continue;
    }
    if (f.next > 0) push(',');
    if (pretty(stack.length)) push(newline(indent * stack.length));
    let member: unknown;
    if (f.keys) {
      const key = f.keys[f.next] as string;
      push(`${JSON.stringify(key)}:${pretty(stack.length) ? ' ' : ''}`);
      member = (f.node as Record<string, unknown>)[key];
    } else {
      member = (f.node as unknown[])[f.next];
    }
    f.next++;
    open(member);
  }
  const text = out.join('');
  return length > limit ? text.slice(0, limit) : text;
}

/**
 * RFC 8785 canonical JSON: sorted keys, no insignificant whitespace, numbers as ECMAScript
 * writes them. Two values JSON text can hold but RFC 8785 cannot write are still written, so a
 * hash never fails on a served schema: a number beyond double range (1e400) as ±1e400, and a
 * lone surrogate escaped as \uXXXX. Every value RFC 8785 accepts gets exactly its text.
 */
export function canonicalJson(value: unknown): string {
  if (skipped(value)) throw new TypeError('value has no JSON representation');
  // Scalars are most of what enum sets hold: written directly, without the writer's machinery.
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean' || value === null) return String(value);
  // Most values nest a few levels and many are small (a branch, a finding's arguments): written
  // by plain recursion, without the writer's set-up; deeper ones (or a cycle) by the writer.
  return canonicalShallow(value, 0) ?? writeJson(value, { sortKeys: true, nonFinite: 'literal' });
}

/** Containers nested deeper than this are left to the writer's explicit stack. */
const MAX_RECURSION = 64;

/** The compact text of each object asked about, written once: the gate never changes a schema it has read. */
const compactTexts = new WeakMap<object, string>();

/**
 * `JSON.stringify`'s compact text of a schema, written once per object (a schema is asked by
 * several checks). For schemas already measured within bounds (see bounds.ts), which
 * `JSON.stringify` writes without running out of stack.
 */
export function compactText(schema: unknown): string {
  if (schema === null || typeof schema !== 'object') return JSON.stringify(schema);
  let text = compactTexts.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    compactTexts.set(schema, text);
  }
  return text;
}

/**
 * compactText of a schema that may not have been measured yet (see bounds.ts): undefined when it
 * nests too deep for `JSON.stringify` to write, and the caller then walks it as it would have.
 */
export function compactTextIfWritable(schema: unknown): string | undefined {
  try {
    return compactText(schema);
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** Keys as canonical JSON writes them (quoted, then a colon): schemas repeat a few names everywhere. */
const keyTexts = new Map<string, string>();
/** Beyond this many distinct keys the table starts again: a hostile document cannot grow it without end. */
const MAX_KEY_TEXTS = 10_000;

function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (keyTexts.size >= MAX_KEY_TEXTS) keyTexts.clear();
    keyTexts.set(key, text);
  }
  return text;
}

/** canonicalJson's text of a value by recursion; undefined when it nests deeper than MAX_RECURSION. */
function canonicalShallow(v: unknown, level: number): string | undefined {
  if (v === null || skipped(v)) return 'null';
  if (typeof v === 'number') return numberText(v, 'literal');
  if (typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (level >= MAX_RECURSION) return undefined;
  if (Array.isArray(v)) {
    const plain = v.length > 1 ? plainScalars(v) : undefined;
    if (plain !== undefined) return plain;
    let text = '[';
    for (let i = 0; i < v.length; i++) {
      const member = canonicalShallow(v[i], level + 1);
      if (member === undefined) return undefined;
      text += i > 0 ? `,${member}` : member;
    }
    return `${text}]`;
  }
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  // Code-unit order, as sort() gives; many small objects are written in it already.
  for (let i = 1; i < keys.length; i++)
    if ((keys[i - 1] as string) > (keys[i] as string)) {
      keys.sort();
      break;
    }
  let text = '{';
  let first = true;
  for (const key of keys) {
    const value = obj[key];
    if (skipped(value)) continue;
    const member = canonicalShallow(value, level + 1);
    if (member === undefined) return undefined;
    text += first ? keyText(key) : `,${keyText(key)}`;
    text += member;
    first = false;
  }
  return `${text}}`;
}

/**
 * `JSON.stringify(value, null, indent)` for JSON values, without its stack limit. Containers
 * below `flatBelow` levels are written compact: the same value, in text that grows linearly
 * with depth rather than with its square.
 */
export function jsonText(value: unknown, indent = 0, flatBelow = 64): string {
  // Nested no deeper than that (almost every value), it is JSON.stringify's text: the engine's
  // own writer, without recursion to fear at that depth, writes it several times faster.
  if (plainWithin(value, Math.min(flatBelow, STRINGIFY_DEPTH)))
    return JSON.stringify(value, null, indent) as string;
  return writeJson(value, { indent, flatBelow });
}

/** Levels of containers JSON.stringify is trusted with, far below where it runs out of stack. */
const STRINGIFY_DEPTH = 64;

/**
 * Whether a value is a container (or a scalar JSON can write) whose containers nest at most
 * `max` levels and none of which has a toJSON method: JSON.stringify then writes what the writer
 * would. A value that contains itself nests without end, so it is not.
 */
function plainWithin(value: unknown, max: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return true;
  if (typeof value !== 'object') return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, level] = stack.pop() as [object, number];
    if (level > max) return false;
    if (typeof (node as { toJSON?: unknown }).toJSON === 'function') return false;
    for (const member of Array.isArray(node) ? node : Object.values(node))
      if (member !== null && typeof member === 'object') stack.push([member as object, level + 1]);
  }
  return true;
}

/** At most `max` characters of a value's compact JSON text, however large the value is. */
export function jsonPreview(value: unknown, max: number): string {
  return writeJson(value, { limit: max + 1 });
}
