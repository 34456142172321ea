import { isObject } from '../generate/merge.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import { stringForPattern } from '../generate/pattern.ts';
import { declaresBeyondProperties, declaresKey, isMap } from './declared.ts';
import { matchingPatterns } from './pattern-properties.ts';
import { fits, holdingKey } from './holding.ts';
import { acceptsAll, sameSubtree, subValue } from './util.ts';
import { nodeValidator } from './whole.ts';
import { member, setMember } from '../own.ts';

function props(s: JsonObject): JsonObject {
  return isObject(s.properties) ? s.properties : {};
}

/** Whether the kept side's objects can hold only its declared properties. */
function closed(s: JsonObject): boolean {
  return (
    s.additionalProperties === false &&
    !(isObject(s.patternProperties) && Object.keys(s.patternProperties).length > 0)
  );
}

/** What the kept side asks of the value under key k: its property, first matching pattern, or map schema. */
function schemaOfKey(sub: JsonObject, k: string): Schema {
  if (Object.hasOwn(props(sub), k)) return props(sub)[k] as Schema;
  const pattern = matchingPatterns(sub, k)[0];
  if (pattern !== undefined) return (sub.patternProperties as JsonObject)[pattern] as Schema;
  return isObject(sub.additionalProperties) ? sub.additionalProperties : true;
}

/** An object of the kept side holding key k (with a value its schema accepts). */
function objectWith(ctx: Ctx, sub: JsonObject, keys: string[]): JsonObject | undefined {
  const base = subValue(ctx, sub, 0, 'object');
  if (!isObject(base)) return undefined;
  const out: JsonObject = { ...base };
  for (const k of keys)
    if (!Object.hasOwn(out, k)) setMember(out, k, subValue(ctx, schemaOfKey(sub, k)) ?? null);
  return out;
}

/**
 * propertyNames: each declared name of the kept side is checked against the other side's
 * propertyNames with the validator. Undeclared names of an open object are covered by the
 * open-objects policy (assumed), or by inclusion of the two name schemas.
 */
export function comparePropertyNames(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  if (sameSubtree(sub.propertyNames, sup.propertyNames, ctx)) return;
  const a = (sub.propertyNames ?? true) as Schema,
    b = (sup.propertyNames ?? true) as Schema;
  if (acceptsAll(b)) {
    if (!closed(sub))
      ctx.emit(ctx.id('property-names-relaxed', 'property-names-constrained'), ['propertyNames'], {});
    return;
  }
  const nameOk = nodeValidator(b, 'sup', ctx);
  const subNameOk = nodeValidator(a, 'sub', ctx);
  if (!nameOk || !subNameOk) {
    ctx.emit('property-names-changed', ['propertyNames'], {});
    return;
  }
  for (const k of Object.keys(props(sub))) {
    if (!subNameOk(k) || nameOk(k)) continue;
    ctx.emit(
      ctx.id('property-name-rejected', 'property-name-allowed'),
      ['propertyNames'],
      { property: k },
      () => objectWith(ctx, sub, [k]),
    );
  }
  if (closed(sub)) return;
  // Other names: decided when the old name schema fits in the new one.
  const t = ctx.trial();
  t.include(a, b);
  if (!t.failed()) return;
  // Names a pattern or a map of the old side declared are sent by callers: a rejected one breaks.
  const declaredNames = isObject(sub.patternProperties)
    ? Object.keys(sub.patternProperties).flatMap((p) => namesFor(p))
    : [];
  const tried = [...declaredNames, ...(isMap(sub) ? OTHER_NAMES : [])];
  const rejected = tried.find((k) => declaresKey(sub, k) && subNameOk(k) && !nameOk(k));
  if (rejected !== undefined || declaresBeyondProperties(sub)) {
    const local = rejected === undefined ? undefined : () => objectWith(ctx, sub, [rejected]);
    ctx.emit(
      ctx.id('property-name-rejected', 'property-name-allowed'),
      ['propertyNames'],
      { property: rejected ?? 'declared by patternProperties or additionalProperties' },
      local,
    );
    return;
  }
  ctx.emit(ctx.id('property-names-constrained', 'property-names-relaxed'), ['propertyNames'], {}, () => {
    for (const k of OTHER_NAMES) {
      if (subNameOk(k) && !nameOk(k) && !Object.hasOwn(props(sub), k)) return objectWith(ctx, sub, [k]);
    }
    return undefined;
  });
}

/** Names to try for an undeclared (or map-declared) key: short, long, digits, dashes, accents. */
const OTHER_NAMES = ['warden_extra', 'A', '0', 'a-b', 'x'.repeat(80), 'é', 'ab', 'abcd', 'abcdefghij', ''];

/** Names a patternProperties regex matches, for witnesses. */
function namesFor(pattern: string): string[] {
  const out: string[] = [];
  const add = (v: string): void => {
    if (!out.includes(v)) out.push(v);
  };
  const bases: string[] = [];
  for (let salt = 0; salt < 6; salt++) {
    const k = stringForPattern(pattern, salt);
    if (k === undefined) continue;
    if (!bases.includes(k)) bases.push(k);
    for (const v of [k, `${k}warden_extra`, `${k}${'x'.repeat(80)}`]) add(v);
  }
  // Each length up to a dozen more characters too: a bound on the names' length may fall between.
  for (const k of bases.slice(0, 2)) for (let n = 1; n <= 12; n++) add(`${k}${'x'.repeat(n)}`);
  return out;
}

/** dependentRequired: a dependency added breaks the objects that hold the key without its dependants. */
export function compareDependentRequired(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  if (sameSubtree(sub.dependentRequired, sup.dependentRequired, ctx)) return;
  const a = isObject(sub.dependentRequired) ? sub.dependentRequired : {};
  const b = isObject(sup.dependentRequired) ? sup.dependentRequired : {};
  const required = new Set(Array.isArray(sub.required) ? sub.required : []);
  const list = (v: Json | undefined): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  for (const [k, deps] of Object.entries(b)) {
    const before = new Set(list(member(a, k)));
    const missing = list(deps).filter(
      (d) => !before.has(d) && !required.has(d) && !fits(holdingKey(sub, k), { required: [d] }, ctx),
    );
    if (missing.length === 0) continue;
    if (closed(sub) && !Object.hasOwn(props(sub), k)) continue; // the key can never be present
    ctx.emit(
      ctx.id('dependent-required-added', 'dependent-required-removed'),
      ['dependentRequired', k],
      { property: k, requires: missing },
      () => {
        const v = objectWith(ctx, sub, [k]);
        if (!v) return undefined;
        for (const d of missing) delete v[d];
        return v;
      },
    );
  }
  for (const [k, deps] of Object.entries(a)) {
    const after = new Set(list(member(b, k)));
    const dropped = list(deps).filter((d) => !after.has(d));
    if (dropped.length > 0)
      ctx.emit(ctx.id('dependent-required-removed', 'dependent-required-added'), ['dependentRequired', k], {
        property: k,
        requires: dropped,
      });
  }
}
