import { measure } from '../bounds.ts';
import { isObject } from '../generate/merge.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import { compileSchema } from '../validator.ts';
import type { Ctx } from './context.ts';
import { toDependencies } from './dependencies.ts';
import { ANNOTATIONS } from '../keywords.ts';
import { DIRECT } from './direct.ts';
import { finiteTest, withoutFinite } from './value-sets.ts';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
/** Validating one value against a schema of this many values costs one step of the budget. */
const VALUES_PER_STEP = 10_000;

/**
 * A validator for one subschema of a side, standing alone: the document's definitions come
 * along so its local `$ref`s still resolve. Undefined when it cannot be compiled. The node's
 * own enum and const are decided by set lookup and only the rest by the validator, since
 * callers validate many values (every member of an old enum) against one node.
 */
export function nodeValidator(
  node: Schema,
  side: 'sub' | 'sup',
  ctx: Ctx,
): ((v: Json) => boolean) | undefined {
  const { root, dialect } = ctx.shared[side];
  const finite = isObject(node) ? finiteTest(node) : undefined;
  const rest = finite && isObject(node) ? withoutFinite(node) : node;
  const wrapper: JsonObject = { allOf: [toDependencies(rest as Json, dialect)] };
  if (isObject(root)) {
    if (root.$defs !== undefined) wrapper.$defs = root.$defs;
    if (root.definitions !== undefined) wrapper.definitions = root.definitions;
  }
  if (dialect === 'draft-07') wrapper.$schema = DRAFT_07;
  try {
    const fn = compileSchema(wrapper);
    return finite ? (v) => finite(v) && fn(v) === true : (v) => fn(v) === true;
  } catch {
    return undefined;
  }
}

/**
 * The members of a node's own enum (or its const) that the node accepts whole: a member its
 * `type` or any other keyword beside it rejects was never accepted, so it can neither be lost
 * nor witness a break. All of them when the node says nothing else, or when the validator
 * cannot be built or the work budget is spent (which leaves the comparison as strict as before).
 */
export function acceptedMembers(values: Json[], node: JsonObject, side: 'sub' | 'sup', ctx: Ctx): Json[] {
  const rest = withoutFinite(node);
  if (Object.keys(rest).every((k) => !isConstraining(k))) return values;
  if (!ctx.spend(Math.ceil((values.length * measure(rest).values) / VALUES_PER_STEP))) return values;
  const ok = nodeValidator(node, side, ctx);
  return ok ? values.filter(ok) : values;
}

function valuesOf(s: JsonObject): Json[] | undefined {
  if ('const' in s) return [s.const as Json];
  return Array.isArray(s.enum) ? s.enum : undefined;
}

/** Keywords a plain enum/const comparison understands; anything else on the new side needs the whole validator. */
const PLAIN: ReadonlySet<string> = new Set(DIRECT);

/**
 * A finite old side (enum or const) against a new side with combinators, `not`, conditionals
 * or other keywords: decided exactly by validating each value the old side accepts with the
 * new side whole. `enum` ≡ `anyOf` of `const`s is the common case. Returns true when decided.
 */
export function compareFiniteWhole(sub: JsonObject, sup: JsonObject, supNode: Schema, ctx: Ctx): boolean {
  const values = valuesOf(sub);
  if (!values) return false;
  if (Object.keys(sup).every((k) => PLAIN.has(k) || !isConstraining(k))) return false;
  // Each value costs the validator about the size of the new side: charged to the budget first,
  // so many values against a large schema (an enum against an anyOf of as many consts) end in
  // budget-exhausted rather than in a quadratic wait.
  const rest = isObject(supNode) ? withoutFinite(supNode) : supNode;
  if (!ctx.spend(Math.ceil((values.length * measure(rest).values) / VALUES_PER_STEP))) return true;
  const subOk = nodeValidator(sub, 'sub', ctx);
  const supOk = nodeValidator(supNode, 'sup', ctx);
  if (!subOk || !supOk) return false;
  for (const v of values) {
    if (!subOk(v) || supOk(v)) continue;
    ctx.emit(ctx.id('enum-value-removed', 'enum-value-added'), [], { value: v }, () => v);
  }
  return true;
}

function isConstraining(k: string): boolean {
  return !ANNOTATIONS.has(k);
}
