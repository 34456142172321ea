import { FIRST } from '../generate/chooser.ts';
import { embed } from '../generate/embed.ts';
import { isObject, mergeForGeneration, withoutKeys } from '../generate/merge.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import { ruleVerdict } from '../rules.ts';
import type { Ctx } from './context.ts';
import { fits, holdingKey } from './holding.ts';
import { additionalOf, declaresKey } from './declared.ts';
import { acceptsAll, sameSubtree, subValue, typeSet } from './util.ts';
import { disjoint } from './unreachable.ts';
import { matchingPatterns } from './pattern-properties.ts';
import { nodeValidator } from './whole.ts';
import { member } from '../own.ts';

const CONDITIONAL = ['if', 'then', 'else'];
/**
 * Keywords that read what the applicators beside them evaluate: a node without one of its
 * applicators must go without them too, or it may accept less than the node (what `then`
 * evaluated would be left to `unevaluatedProperties: false`).
 */
const READS_EVALUATED = ['unevaluatedProperties', 'unevaluatedItems'];

/**
 * Values at this node that `sub` may accept and `sup` may reject: the witnesses the walk builds
 * for the breaks it finds between them, each embedded in a value of `sub` at this node.
 */
function breakValues(sub: Schema, sup: Schema, ctx: Ctx): Json[] {
  const t = ctx.scratch();
  t.include(sub, sup);
  const env = { root: ctx.shared.sub.root, dialect: ctx.shared.sub.dialect, choose: FIRST, extras: false };
  const out: Json[] = [];
  for (const f of t.findings) {
    // Breaks that only the open-objects assumption excuses count too: a key a branch declares
    // is sent by callers, so a value using it is a real witness (the validator checks it).
    if (!f.local || (f.verdict !== 'breaking' && ruleVerdict(f.rule, ctx.direction, true) !== 'breaking'))
      continue;
    const v = f.local();
    const whole = v === undefined ? undefined : embed(f.trail, v, env);
    if (whole !== undefined) out.push(whole);
    if (out.length >= 8) break;
  }
  return out;
}

/**
 * A value the kept side accepts and `constraint` (a node of the other side holding only the
 * keywords being decided) rejects, among values generated from the kept side (and from it
 * narrowed by `hint`, so values that reach the constrained case are tried too).
 */
export function rejectedValue(
  sub: JsonObject,
  constraint: JsonObject,
  hints: Schema[],
  ctx: Ctx,
  extra: Json[] = [],
): Json | undefined {
  const keeps = nodeValidator(sub, 'sub', ctx);
  const passes = nodeValidator(constraint, 'sup', ctx);
  if (!keeps || !passes) return undefined;
  const candidates: Json[] = [...extra];
  for (const base of [sub, ...hints.map((h) => mergeForGeneration(sub, h))])
    for (let salt = 0; salt < 6; salt++) {
      const v = subValue(ctx, base, salt);
      if (v !== undefined) candidates.push(v);
    }
  return candidates.find((v) => keeps(v) && !passes(v));
}

/**
 * Whether every object the kept side accepts lacks one of `names`: its values are objects only,
 * closed (`additionalProperties: false`), and some name is neither a property nor matched by a
 * pattern, so an `if` that requires it is never met by them.
 */
function cannotHoldAny(s: JsonObject, names: Json | undefined): boolean {
  const types = typeSet(s);
  if (types === undefined || types.size !== 1 || !types.has('object')) return false;
  if (s.additionalProperties !== false || !Array.isArray(names)) return false;
  const props = isObject(s.properties) ? s.properties : {};
  return names.some(
    (k) => typeof k === 'string' && !Object.hasOwn(props, k) && matchingPatterns(s, k).length === 0,
  );
}

/** Whether every value of `s` meets `cond` (an `if`), as the walk shows it. */
function ifHolds(s: JsonObject, cond: Schema, ctx: Ctx): boolean {
  return acceptsAll(cond) || fits(s, cond, ctx);
}

/**
 * Whether no value of `s` meets `cond`: it is false, asks for a type `s` never has, or requires
 * a property whose value `s` constrains so that `cond` cannot be met (see disjoint).
 */
function ifFails(s: JsonObject, cond: Schema): boolean {
  return cond === false || (isObject(cond) && disjoint(s, cond));
}

/**
 * The values of `s` that also meet `extra`, as one schema. Never built where `unevaluated*`
 * reads the node: a branch taken also evaluates what its `if` evaluated, which the conjunction
 * would leave out (and so be stricter than the values it stands for).
 */
function conjoin(s: JsonObject, extra: Schema): Schema | undefined {
  if (extra === true) return s;
  if ('unevaluatedProperties' in s || 'unevaluatedItems' in s) return undefined;
  return { ...s, allOf: [...(Array.isArray(s.allOf) ? s.allOf : []), extra as Json] };
}

/**
 * if/then/else, decided where both sides allow it. The new conditional constrains nothing the
 * old schema accepted when the old schema (without its own conditional) fits both `then` and
 * `else`, or, with the same `if`, when the old `then` and `else` fit the new ones: compatible.
 * Otherwise a value the old schema accepts and the new conditional rejects is the witness of
 * a break. Only when neither is shown does it stay unknown.
 */
export function compareConditional(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  // Without an `if`, a `then` or `else` is ignored by the validator: no conditional at all.
  const cond = (s: JsonObject): JsonObject | undefined =>
    'if' in s ? { if: s.if as Json, then: s.then ?? true, else: s.else ?? true } : undefined;
  const a = cond(sub),
    b = cond(sup);
  if (sameSubtree(a, b, ctx)) return;
  if (b === undefined) {
    // Dropping a conditional only widens: whatever else the two sides say is checked apart.
    ctx.emit(ctx.id('conditional-removed', 'conditional-added'), ['if'], {});
    return;
  }
  // What the old values are shown to fit is shown for the node without its conditional and
  // without unevaluated* (which accepts every old value). Values to try are built from that
  // node and, where unevaluated* stood, from the node without its conditional alone (closer to
  // the old values): each is checked on the old schema itself.
  const loose = withoutKeys(sub, [...CONDITIONAL, ...READS_EVALUATED]);
  const plain = withoutKeys(sub, CONDITIONAL);
  const bases = Object.keys(plain).length === Object.keys(loose).length ? [loose] : [loose, plain];
  const sameIf = a !== undefined && sameSubtree(a.if, b.if, ctx);
  // No old value reaches a `then` whose `if` asks for a key the old (closed) object cannot hold.
  const unreachable = (branch: 'then' | 'else'): boolean =>
    branch === 'then' && isObject(b.if) && cannotHoldAny(loose, b.if.required);
  // Where every old value meets an `if` (or none does), only one of its branches is ever taken.
  const taken = (c: JsonObject): 'then' | 'else' | undefined =>
    ifHolds(loose, c.if as Schema, ctx) ? 'then' : ifFails(loose, c.if as Schema) ? 'else' : undefined;
  const oldTaken = a === undefined ? undefined : taken(a);
  const newTaken = taken(b);
  // The old values as the old conditional leaves them: all of one branch, or those of the same `if`.
  const oldValues = (branch: 'then' | 'else'): Schema | undefined => {
    if (a === undefined) return undefined;
    if (oldTaken !== undefined) return conjoin(loose, a[oldTaken] as Schema);
    return sameIf ? conjoin(loose, a[branch] as Schema) : undefined;
  };
  const branchFits = (branch: 'then' | 'else'): boolean => {
    if (unreachable(branch) || (newTaken !== undefined && newTaken !== branch)) return true;
    if (fits(loose, b[branch] as Schema, ctx)) return true;
    if (sameIf && fits(a?.[branch] as Schema, b[branch] as Schema, ctx)) return true;
    const values = oldValues(branch);
    return values !== undefined && fits(values, b[branch] as Schema, ctx);
  };
  if (branchFits('then') && branchFits('else')) {
    ctx.emit('conditional-implied', ctx.onNew(a ? ['if'] : [], ['if']), {});
    return;
  }
  // Values that reach each branch and break it: old values meeting the new if, then the rest.
  const tries = bases.flatMap((base) => [
    ...breakValues(mergeForGeneration(base, b.if as Schema), b.then as Schema, ctx),
    ...breakValues(base, b.else as Schema, ctx),
  ]);
  const found = rejectedValue(sub, b, [b.if as Schema], ctx, tries);
  if (found !== undefined) {
    ctx.emit(
      ctx.id('conditional-rejects-value', 'conditional-accepts-value'),
      ctx.onNew(a ? ['if'] : [], ['if']),
      { value: found },
      () => found,
    );
    return;
  }
  const rule = a === undefined ? ctx.id('conditional-added', 'conditional-removed') : 'conditional-changed';
  ctx.emit(rule, ['if'], {});
}

/**
 * dependentSchemas, key by key, as conditionals: "an object holding k must also match S". A
 * new or changed S that the old schema (or the old S for the same key) already fits changes
 * nothing; otherwise an old object holding k that S rejects is the witness.
 */
export function compareDependentSchemas(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const da = isObject(sub.dependentSchemas) ? sub.dependentSchemas : {};
  const db = isObject(sup.dependentSchemas) ? sup.dependentSchemas : {};
  const plain = withoutKeys(sub, ['dependentSchemas', ...READS_EVALUATED]);
  for (const k of new Set([...Object.keys(da), ...Object.keys(db)])) {
    const was = member(da, k) as Schema | undefined,
      now = member(db, k) as Schema | undefined;
    if (sameSubtree(was, now, ctx)) continue;
    const at = ctx.onNew(['dependentSchemas', k], ['dependentSchemas', k]);
    if (now === undefined || now === true) {
      ctx.emit(ctx.id('dependent-schema-relaxed', 'dependent-schema-implied'), at, { property: k });
      continue;
    }
    if (
      fits(plain, now, ctx) ||
      (was !== undefined && fits(was, now, ctx)) ||
      fits(holdingKey(sub, k), now, ctx)
    ) {
      ctx.emit('dependent-schema-implied', at, { property: k });
      continue;
    }
    const props = isObject(sub.properties) ? sub.properties : {};
    const declared = declaresKey(sub, k);
    const extras = additionalOf(sub);
    if (!declared && extras === false) {
      ctx.emit('dependent-schema-implied', at, { property: k }); // the old side never holds k
      continue;
    }
    if (!declared && acceptsAll(extras) && !ctx.strict) {
      // By the open-objects policy callers send only declared properties, so none sent k.
      ctx.emit('dependent-schema-on-undeclared-property', at, {
        property: k,
      });
      continue;
    }
    // An object that holds k: the kept side's minimal object with k set to a value it allows.
    const base = subValue(ctx, sub, 0, 'object');
    const kept = Object.hasOwn(props, k) ? subValue(ctx, props[k] as Schema) : 'warden';
    const withK = isObject(base) && kept !== undefined ? [{ ...base, [k]: kept }] : [];
    // The old objects holding k as the old side describes them (its own dependencies of k kept).
    const holding = holdingKey(sub, k);
    const held = subValue(ctx, holding, 0, 'object');
    const tries = [...withK, ...(held === undefined ? [] : [held]), ...breakValues(holding, now, ctx)];
    const found = rejectedValue(sub, { dependentSchemas: { [k]: now as Json } }, [], ctx, tries);
    if (found !== undefined) {
      const undeclaredRule = ctx.id(
        'dependent-schema-on-undeclared-property',
        'dependent-schema-accepts-value',
      );
      ctx.emit(
        declared
          ? ctx.id('dependent-schema-rejects-value', 'dependent-schema-accepts-value')
          : undeclaredRule,
        at,
        { property: k, value: found },
        () => found,
      );
      continue;
    }
    ctx.emit('dependent-schemas-changed', at, { property: k });
  }
}
