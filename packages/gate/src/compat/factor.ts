import { blocksRewrite } from './definitions.ts';
import { canonicalJson } from './json-text.ts';
import { SKIP, STOP, walkJson, WHOLE } from './json-walk.ts';
import type { Json, JsonObject, Schema } from './types.ts';
import { mapApplied } from './keywords.ts';

/**
 * Wide `anyOf`s whose branches differ only in the value allowed at one property, handed to the
 * validator as one branch per shape. A union told apart by a tag (`kind: {const: 'circle'}`,
 * `kind: {const: 'square'}`, …) whose branches otherwise say the same is, value for value,
 * that shape with the tag's values in one `enum`:
 *
 * - `properties: {k: {…rest, const: c}}` asserts "if the value is an object with a key k, its
 *   value there satisfies rest and equals c": a conjunct of the branch, R ∧ P(c), where R is the
 *   branch with that one `const` (or `enum`) left out;
 * - `anyOf` is a disjunction, and R ∧ P(c1) ∨ … ∨ R ∧ P(cn) = R ∧ (P(c1) ∨ … ∨ P(cn)), where
 *   the disjunction of P is the same "absent, or rest and one of c1 … cn": `enum: [c1 … cn]`;
 * - `const` and `enum` are assertions only: nothing else reads whether they held (no
 *   annotation), so R keeps every other keyword's meaning, `additionalProperties` included
 *   (k stays named in `properties`).
 *
 * Ajv builds code per branch: 1,000 such branches cost a third of a second to build, their one
 * shape with a 1,000-value enum a few milliseconds. Nothing changes in a document where the
 * shape of the code could change an answer or a position could be pointed at: beside
 * `unevaluated*`, `contains` (see parts.ts), a keyword that scopes references, or a `$ref` into
 * anything but the document's root or one of its definitions (which this leaves as they are).
 */

/** Fewer branches than this are handed over as written. */
const MIN_BRANCHES = 16;
/** Properties of the first branch (with a `const` or `enum`) tried as the one the branches differ at. */
const MAX_KEYS = 8;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A local reference that leads to the same place however a wide `anyOf` below the root is rewritten. */
function steadyRef(ref: Json | undefined): boolean {
  if (typeof ref !== 'string') return false;
  if (!ref.startsWith('#')) return true; // another document's: this one is not it
  return ref === '#' || /^#\/(\$defs|definitions)\/[^/]+$/.test(ref);
}

/** Whether anything in the document could see the rewrite (see the top of this file), given its JSON text. */
function rewritable(schema: Json, text: string): boolean {
  // Every key is written as itself in the JSON text: a text without these has none of them.
  if (!text.includes('"$') && !text.includes('"unevaluated') && !text.includes('"contains"')) return true;
  const end = walkJson(
    schema,
    null,
    (v) => {
      if (v === null || typeof v !== 'object') return SKIP;
      if (!Array.isArray(v))
        for (const [k, x] of Object.entries(v))
          if (blocksRewrite(k) || (k === '$ref' && !steadyRef(x))) return STOP;
      return null;
    },
    WHOLE,
  );
  return end !== 'stopped';
}

/** The values a property's schema allows by `const` or `enum` (not both), and the schema without them. */
function tagged(at: Json | undefined): { values: Json[]; rest: JsonObject } | undefined {
  if (!isObject(at) || '$ref' in at) return undefined;
  const hasConst = 'const' in at,
    hasEnum = 'enum' in at;
  if (hasConst === hasEnum) return undefined;
  if (hasEnum && !Array.isArray(at.enum)) return undefined;
  const { const: c, enum: e, ...rest } = at;
  return { values: hasConst ? [c as Json] : (e as Json[]), rest };
}

interface Group {
  /** The first branch of the group, whose shape the merged branch takes. */
  first: JsonObject;
  values: Json[];
  seen: Set<string>;
  size: number;
}

/** The branches with those that differ only at key k merged, or undefined when none merge. */
function mergedAt(branches: Json[], k: string): Json[] | undefined {
  const groups = new Map<string, Group>();
  const slots: ({ group: Group } | { branch: Json })[] = [];
  let merged = false;
  for (const b of branches) {
    const t = isObject(b) && isObject(b.properties) ? tagged(b.properties[k]) : undefined;
    if (!t) {
      slots.push({ branch: b });
      continue;
    }
    const branch = b as JsonObject;
    // By JSON text as written: two branches that say the same with keys in another order are
    // only left apart, which changes how fast the validator is built, never what it answers.
    const shape = JSON.stringify({
      ...branch,
      properties: { ...(branch.properties as JsonObject), [k]: t.rest },
    });
    let g = groups.get(shape);
    if (!g) {
      g = { first: branch, values: [], seen: new Set(), size: 0 };
      groups.set(shape, g);
      slots.push({ group: g });
    } else merged = true;
    g.size++;
    for (const v of t.values) {
      const key = canonicalJson(v);
      if (g.seen.has(key)) continue;
      g.seen.add(key);
      g.values.push(v);
    }
  }
  if (!merged) return undefined;
  return slots.map((s) => {
    if ('branch' in s) return s.branch;
    const g = s.group;
    if (g.size === 1) return g.first;
    const props = g.first.properties as JsonObject;
    const { rest } = tagged(props[k]) as { rest: JsonObject };
    return { ...g.first, properties: { ...props, [k]: { ...rest, enum: g.values } } };
  });
}

/** The branches of one wide anyOf, merged at the key that leaves fewest; the list itself when none merge. */
function factorList(branches: Json[]): Json[] {
  if (branches.length < MIN_BRANCHES) return branches;
  const first = branches.find((b) => isObject(b) && isObject(b.properties)) as JsonObject | undefined;
  if (!first) return branches;
  const props = first.properties as JsonObject;
  let best: Json[] | undefined;
  for (const k of Object.keys(props)
    .filter((name) => tagged(props[name]))
    .slice(0, MAX_KEYS)) {
    const m = mergedAt(branches, k);
    if (m && (!best || m.length < best.length)) best = m;
  }
  return best ?? branches;
}

/** A node's wide anyOf merged (its subschemas are rewritten first: see factorBranches). */
function rewrite(node: JsonObject): JsonObject {
  if (!Array.isArray(node.anyOf)) return node;
  const merged = factorList(node.anyOf);
  return merged === node.anyOf ? node : { ...node, anyOf: merged };
}

/**
 * The schema with each wide `anyOf`'s branches merged where they differ only in the values
 * allowed at one property (see the top of this file); the schema itself when none do, or when
 * anything in it could see the difference. Definitions are left as they are. `text` is the
 * schema's JSON text, when the caller has it already: a text without `"anyOf"` has nothing to merge.
 */
export function factorBranches(schema: Schema, text = JSON.stringify(schema)): Schema {
  if (!isObject(schema) || !text.includes('"anyOf"') || !rewritable(schema, text)) return schema;
  return mapApplied(schema, rewrite) as Schema;
}
