import { isObject } from '../generate/merge.ts';
import { stringForPattern } from '../generate/pattern.ts';
import type { JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import { includes } from './includes.ts';
import { acceptsAll, subValue, valueOutside } from './util.ts';

function patterns(s: JsonObject): JsonObject {
  return isObject(s.patternProperties) ? s.patternProperties : {};
}

/** The patternProperties regexes of s that match a property name (as a validator applies them). */
export function matchingPatterns(s: JsonObject, key: string): string[] {
  return Object.keys(patterns(s)).filter((p) => {
    try {
      return new RegExp(p, 'u').test(key);
    } catch {
      return false;
    }
  });
}

/**
 * patternProperties: the same regexes are compared schema to schema; a regex added or removed
 * whole is an open/closed object change; different regexes on both sides are not decided.
 */
export function comparePatternProperties(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const a = patterns(sub),
    b = patterns(sup);
  const ak = Object.keys(a),
    bk = Object.keys(b);
  if (ak.length === 0 && bk.length === 0) return;
  const subClosed = sub.additionalProperties === false;
  const supClosed = sup.additionalProperties === false;
  for (const p of ak.filter((x) => x in b)) {
    const key = stringForPattern(p);
    includes(a[p] as Schema, b[p] as Schema, ctx.child(['patternProperties', p], sub, key ?? p));
  }
  const added = bk.filter((x) => !(x in a));
  const removed = ak.filter((x) => !(x in b));
  if (added.length > 0 && removed.length > 0) {
    ctx.emit('pattern-properties-changed', ['patternProperties'], {
      old: ctx.oldNew(ak, bk).old,
      new: ctx.oldNew(ak, bk).new,
    });
    return;
  }
  for (const p of added) {
    if (subClosed) {
      ctx.emit(
        ctx.id('pattern-property-added-to-closed-object', 'pattern-property-removed-from-closed-object'),
        ['patternProperties', p],
        { pattern: p },
      );
    } else if (!acceptsAll(b[p] as Schema)) {
      const key = stringForPattern(p);
      const local = (): JsonObject | undefined => {
        const base = subValue(ctx, sub, 0, 'object');
        const v = valueOutside(b[p] as Schema, ctx);
        return isObject(base) && key !== undefined && v !== undefined ? { ...base, [key]: v } : undefined;
      };
      ctx.emit(
        ctx.id('pattern-property-added', 'pattern-property-removed'),
        ['patternProperties', p],
        { pattern: p },
        local,
      );
    }
  }
  for (const p of removed) {
    if (supClosed) {
      const key = stringForPattern(p);
      const local = (): JsonObject | undefined => {
        const base = subValue(ctx, sub, 0, 'object');
        const v = subValue(ctx, a[p] as Schema);
        return isObject(base) && key !== undefined && v !== undefined ? { ...base, [key]: v } : undefined;
      };
      ctx.emit(
        ctx.id('pattern-property-removed-from-closed-object', 'pattern-property-added-to-closed-object'),
        ['patternProperties', p],
        { pattern: p },
        local,
      );
    } else if (!acceptsAll(a[p] as Schema)) {
      ctx.emit(ctx.id('pattern-property-removed', 'pattern-property-added'), ['patternProperties', p], {
        pattern: p,
      });
    }
  }
}
