import { isObject, withoutKeys } from '../generate/merge.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import { ruleVerdict } from '../rules.ts';
import { member } from '../own.ts';

/**
 * Whether `sub` is shown included in `sup` on a scratch context: nothing breaking or unknown, and
 * no step that leans on the open-objects assumption. A key that `sub` alone leaves undeclared may
 * be declared elsewhere in the schema (by a conditional's branch, say), so callers do send it:
 * assuming otherwise here would call a narrowing compatible.
 */
export function fits(sub: Schema, sup: Schema, ctx: Ctx): boolean {
  const t = ctx.trial();
  t.include(sub, sup);
  return t.findings.every((f) => ruleVerdict(f.rule, ctx.direction, true) === 'compatible');
}

function names(v: Json | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * What the kept side says about its objects that hold key k: its own schema with k required,
 * every property that a required one requires in turn (dependentRequired, transitively), and
 * the dependentSchemas of those keys folded in. It accepts every such object (and perhaps
 * more), so an inclusion shown for it holds for them: a dependency spelled another way (an
 * array of names as a schema with `required`, or back) is then seen to change nothing.
 */
export function holdingKey(sub: JsonObject, k: string): JsonObject {
  const deps = isObject(sub.dependentRequired) ? sub.dependentRequired : {};
  const schemas = isObject(sub.dependentSchemas) ? sub.dependentSchemas : {};
  const required = new Set([...names(sub.required), k]);
  for (const x of required) for (const d of names(member(deps, x))) required.add(d); // grows while iterated
  const folded = [...required].filter((x) => Object.hasOwn(schemas, x)).map((x) => schemas[x] as Json);
  const out: JsonObject = { ...withoutKeys(sub, ['dependentSchemas']), required: [...required] };
  const allOf = [...(Array.isArray(sub.allOf) ? sub.allOf : []), ...folded];
  if (allOf.length > 0) out.allOf = allOf;
  return out;
}
