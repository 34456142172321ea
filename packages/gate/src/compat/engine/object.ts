import { isObject } from '../generate/merge.ts';
import type { Json, JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import { compareDependentSchemas } from './conditional.ts';
import { compareCount } from './counts.ts';
import { additionalOf, declaresKey, namedByAnArm } from './declared.ts';
import { compareDependentRequired, comparePropertyNames } from './names.ts';
import { comparePatternProperties, matchingPatterns } from './pattern-properties.ts';
import { acceptsAll, subValue, valueOutside } from './util.ts';
import { member, setMember } from '../own.ts';

function props(s: JsonObject): JsonObject {
  return isObject(s.properties) ? s.properties : {};
}

function requiredOf(s: JsonObject): Set<string> {
  return new Set(
    Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [],
  );
}

/**
 * A key no side declares, for witnesses about undeclared properties; undefined when the tried
 * names are all declared or matched by a pattern (a pattern such as "" matches every name).
 */
function extraKey(sub: JsonObject, sup: JsonObject): string | undefined {
  const taken = (k: string): boolean =>
    Object.hasOwn(props(sub), k) ||
    Object.hasOwn(props(sup), k) ||
    matchingPatterns(sub, k).length > 0 ||
    matchingPatterns(sup, k).length > 0;
  for (const key of [
    'warden_extra',
    '~',
    '0',
    '-',
    'A',
    ...Array.from({ length: 16 }, (_, i) => `warden_extra_${i}`),
  ])
    if (!taken(key)) return key;
  return undefined;
}

function withKey(
  ctx: Ctx,
  sub: JsonObject,
  key: string,
  value: () => Json | undefined,
): () => Json | undefined {
  return () => {
    const base = subValue(ctx, sub, 0, 'object');
    const v = value();
    if (!isObject(base) || v === undefined) return undefined;
    return { ...base, [key]: v };
  };
}

/** properties, required, additionalProperties, patternProperties, min/maxProperties. */
export function compareObjects(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const sp = props(sub),
    pp = props(sup);
  const subReq = requiredOf(sub),
    supReq = requiredOf(sup);
  const subAdd = additionalOf(sub),
    supAdd = additionalOf(sup);
  const subOpen = acceptsAll(subAdd) && matchingPatternsCount(sub) === 0;
  for (const k of new Set([...Object.keys(sp), ...Object.keys(pp)])) {
    const inSub = Object.hasOwn(sp, k),
      inSup = Object.hasOwn(pp, k);
    const subK = keptAt(sub, sp, k, subAdd);
    const child = ctx.child(['properties', k], sub, k);
    for (const pattern of matchingPatterns(sup, k)) {
      const patternSchema = (sup.patternProperties as JsonObject)[pattern] as Schema;
      ctx.childSides(['properties', k], ['patternProperties', pattern], sub, k).include(subK, patternSchema);
    }
    if (inSub && inSup) {
      child.include(subK, pp[k] as Schema);
    } else if (inSup) {
      if (supReq.has(k) && !subReq.has(k)) continue; // reported once, as a required change
      const supK = pp[k] as Schema;
      if (subAdd === false && matchingSchema(sub, k) === undefined) {
        ctx.emit(
          ctx.id('property-added-to-closed-object', 'property-removed-from-closed-object'),
          ['properties', k],
          { property: k },
        );
      } else if (!declaresKey(sub, k) && !subReq.has(k) && !namedByAnArm(sub, k)) {
        // Undeclared before, so by the open-objects policy callers did not send it (unless required).
        if (!acceptsAll(supK)) {
          const local = withKey(ctx, sub, k, () => valueOutside(supK, ctx));
          ctx.emit(
            ctx.id('property-added-to-open-object', 'property-removed-from-open-object'),
            ['properties', k],
            { property: k },
            local,
          );
        }
      } else {
        child.include(subK, supK);
      }
    } else {
      const supK = (matchingSchema(sup, k) ?? supAdd) as Schema;
      if (supK === false) {
        const local = withKey(ctx, sub, k, () => subValue(ctx, sp[k] as Schema));
        ctx.emit(
          ctx.id('property-removed-from-closed-object', 'property-added-to-closed-object'),
          ['properties', k],
          { property: k },
          local,
        );
      } else if (acceptsAll(supK)) {
        if (!acceptsAll(sp[k] as Schema)) {
          ctx.emit(
            ctx.id('property-removed-from-open-object', 'property-added-to-open-object'),
            ['properties', k],
            { property: k },
          );
        }
      } else {
        child.include(sp[k] as Schema, supK);
      }
    }
  }
  compareRequired(sub, sup, subReq, supReq, ctx);
  compareAdditional(sub, sup, subAdd, supAdd, subOpen, ctx);
  comparePatternProperties(sub, sup, ctx);
  comparePropertyNames(sub, sup, ctx);
  compareDependentRequired(sub, sup, ctx);
  compareDependentSchemas(sub, sup, ctx);
  const objectOf = (n: number): Json | undefined => objectWithKeys(ctx, sub, n);
  compareCount(
    sub,
    sup,
    ctx,
    'minProperties',
    'min',
    ['min-properties-increased', 'min-properties-decreased'],
    objectOf,
    // Every object the kept side accepts holds the names it requires.
    requiredOf(sub).size,
  );
  compareCount(
    sub,
    sup,
    ctx,
    'maxProperties',
    'max',
    ['max-properties-decreased', 'max-properties-increased'],
    objectOf,
  );
}

/**
 * What the kept side asks of the value under key k: its property schema together with every
 * pattern that also matches k (a validator applies them all), or the patterns alone, or the
 * additionalProperties schema. A conjunction that can hold nothing is then seen as such.
 */
function keptAt(sub: JsonObject, sp: JsonObject, k: string, subAdd: Schema): Schema {
  const patterns = matchingPatterns(sub, k).map((p) => (sub.patternProperties as JsonObject)[p] as Schema);
  const own = member(sp, k) as Schema | undefined;
  const all = own === undefined ? patterns : [own, ...patterns];
  if (all.length === 0) return subAdd;
  return all.length === 1 ? (all[0] as Schema) : { allOf: all as Json[] };
}

function matchingPatternsCount(s: JsonObject): number {
  return isObject(s.patternProperties) ? Object.keys(s.patternProperties).length : 0;
}

function matchingSchema(s: JsonObject, key: string): Schema | undefined {
  const first = matchingPatterns(s, key)[0];
  return first === undefined ? undefined : ((s.patternProperties as JsonObject)[first] as Schema);
}

function compareRequired(
  sub: JsonObject,
  sup: JsonObject,
  subReq: Set<string>,
  supReq: Set<string>,
  ctx: Ctx,
): void {
  const sp = props(sub),
    pp = props(sup);
  for (const k of supReq) {
    if (subReq.has(k)) continue;
    const supK = member(pp, k);
    const rule =
      ctx.input && isObject(supK) && Object.hasOwn(supK, 'default')
        ? 'property-required-with-default'
        : Object.hasOwn(sp, k)
          ? ctx.id('property-became-required', 'property-became-optional')
          : ctx.id('property-added-required', 'property-removed-required');
    ctx.emit(rule, ctx.member('required', k), { property: k }, () => {
      const v = subValue(ctx, sub, 0, 'object');
      if (!isObject(v)) return undefined;
      const copy = { ...v };
      delete copy[k];
      return copy;
    });
  }
  for (const k of subReq) {
    if (supReq.has(k)) continue;
    const rule = Object.hasOwn(pp, k)
      ? ctx.id('property-became-optional', 'property-became-required')
      : ctx.id('property-removed-required', 'property-added-required');
    ctx.emit(rule, ctx.member('required', k), { property: k });
  }
}

function compareAdditional(
  sub: JsonObject,
  sup: JsonObject,
  subAdd: Schema,
  supAdd: Schema,
  subOpen: boolean,
  ctx: Ctx,
): void {
  if (subAdd === false) {
    if (supAdd !== false)
      ctx.emit(
        ctx.id('additional-properties-opened', 'additional-properties-closed'),
        ['additionalProperties'],
        {},
      );
    return;
  }
  const key = extraKey(sub, sup);
  if (supAdd === false) {
    const local =
      key === undefined ? undefined : withKey(ctx, sub, key, () => subValue(ctx, subAdd, 0) ?? null);
    ctx.emit(
      ctx.id('additional-properties-closed', 'additional-properties-opened'),
      ['additionalProperties'],
      { open: subOpen },
      local,
    );
    return;
  }
  ctx.child(['additionalProperties'], sub, key ?? 'warden_extra').include(subAdd, supAdd);
}

/** An object with exactly n properties that the sub side probably accepts. */
/** The most names a witness object is built with. */
const MAX_WITNESS_KEYS = 10_000;

function objectWithKeys(ctx: Ctx, sub: JsonObject, n: number): Json | undefined {
  // A count no real schema asks for (minProperties: 100000) is not built: the witness would cost
  // more than the answer is worth, and the finding stays unknown.
  if (n > MAX_WITNESS_KEYS) return undefined;
  const base = subValue(ctx, sub, 0, 'object');
  if (!isObject(base)) return undefined;
  const out: JsonObject = { ...base };
  let size = Object.keys(out).length;
  const sp = props(sub);
  for (const k of Object.keys(sp)) {
    if (size >= n) break;
    if (!Object.hasOwn(out, k)) {
      const v = subValue(ctx, sp[k] as Schema);
      if (v !== undefined) {
        setMember(out, k, v);
        size++;
      }
    }
  }
  for (let i = 0; size < n && additionalOf(sub) !== false; i++) {
    if (Object.hasOwn(out, `warden_${i}`)) continue;
    out[`warden_${i}`] = null;
    size++;
  }
  while (Object.keys(out).length > n) {
    const optional = Object.keys(out).find((k) => !requiredOf(sub).has(k));
    if (optional === undefined) break;
    delete out[optional];
  }
  return Object.keys(out).length === n ? out : undefined;
}
