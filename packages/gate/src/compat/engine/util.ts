import { FIRST } from '../generate/chooser.ts';
import { embed } from '../generate/embed.ts';
import { generate } from '../generate/value.ts';
import { hasRef, sameJson } from '../hash.ts';
import { ANNOTATIONS } from '../keywords.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import type { Step } from '../generate/embed.ts';
import { isObject } from '../generate/merge.ts';
import { resolveRef } from '../refs.ts';
import { nodeValidator } from './whole.ts';

/** True when a schema accepts every value (true, or only annotations). */
export function acceptsAll(s: Schema): boolean {
  if (s === true) return true;
  if (s === false) return false;
  return Object.keys(s).every((k) => ANNOTATIONS.has(k));
}

export const ALL_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string'] as const;

/** The `type` keyword as a set; undefined means every type. */
export function typeSet(s: JsonObject): Set<string> | undefined {
  const t = s.type;
  if (typeof t === 'string') return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === 'string'));
  return undefined;
}

/** Whether a type set admits values of instance type t ('integer' is admitted by 'number'). */
export function admits(types: Set<string> | undefined, t: string): boolean {
  if (!types) return true;
  if (types.has(t)) return true;
  return t === 'integer' && types.has('number');
}

/** Whether both sides admit some value of type t, so t's keywords matter. */
export function shared(sub: JsonObject, sup: JsonObject, t: string): boolean {
  const a = typeSet(sub),
    b = typeSet(sup);
  if (t === 'number')
    return (admits(a, 'number') || admits(a, 'integer')) && (admits(b, 'number') || admits(b, 'integer'));
  return admits(a, t) && admits(b, t);
}

/** Structural equality that is safe to trust: no $ref inside, or both documents equal everywhere. */
export function sameSubtree(a: Json | undefined, b: Json | undefined, ctx: Ctx): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (!sameJson(a, b)) return false;
  if (!hasRef(a)) return true;
  const same = (ctx.shared.sameRoots ??= sameJson(ctx.shared.sub.root, ctx.shared.sup.root));
  // Equal because the two documents are, which says nothing of these two subtrees elsewhere.
  if (same) ctx.situate();
  return same;
}

/** A value the kept (sub) side probably accepts at this node: the minimal one, or a variant. */
export function subValue(ctx: Ctx, node: Schema, salt = 0, type?: string): Json | undefined {
  const env = { root: ctx.shared.sub.root, dialect: ctx.shared.sub.dialect, choose: FIRST, extras: false };
  return generate(node, env, salt, 0, type);
}

/**
 * A value placed at the end of a trail of containers (relative to this node) in the node's value
 * on the kept side, each container on the way its minimal value with the one member set.
 */
export function subEmbedded(ctx: Ctx, trail: readonly Step[], value: Json): Json | undefined {
  const env = { root: ctx.shared.sub.root, dialect: ctx.shared.sub.dialect, choose: FIRST, extras: false };
  return embed(trail, value, env);
}

/** First of the candidates that passes the test, or undefined. */
export function firstThat<T>(candidates: readonly (T | undefined)[], test: (v: T) => boolean): T | undefined {
  for (const c of candidates) if (c !== undefined && test(c)) return c;
  return undefined;
}

/** A value that a declared property schema rejects, chosen by type, for the strict open-object reading. */
export function valueOutside(schemaIn: Schema, ctx: Ctx): Json | undefined {
  let schema = schemaIn;
  for (let hops = 0; isObject(schema) && typeof schema.$ref === 'string' && hops < 16; hops++) {
    schema = resolveRef(ctx.shared.sup.root, schema.$ref)?.schema ?? false;
  }
  if (!isObject(schema)) return undefined;
  const types = typeSet(schema);
  const candidates: [string, Json][] = [
    ['null', null],
    ['boolean', true],
    ['number', 1.5],
    ['string', 'warden'],
    ['array', []],
    ['object', {}],
  ];
  const hit = types && candidates.find(([t]) => !types.has(t));
  if (hit) return hit[1];
  // No type to step outside of: values at the edges of other keywords, checked by the validator.
  const rejects = nodeValidator(schemaIn, 'sup', ctx);
  if (!rejects) return undefined;
  const edges: Json[] = [
    null,
    true,
    1.5,
    -1,
    0,
    1e9,
    -1e9,
    '',
    'warden',
    'x'.repeat(300),
    [],
    [null, null],
    {},
  ];
  return edges.find((v) => !rejects(v));
}
