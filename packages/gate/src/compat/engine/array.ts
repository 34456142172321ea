import type { Json, JsonObject, Schema } from '../types.ts';
import type { Ctx } from './context.ts';
import { compareContains } from './contains.ts';
import { compareCount } from './counts.ts';
import { subValue } from './util.ts';

interface Tuple {
  prefix: Schema[];
  /** Schema for items after the prefix; true when absent. */
  rest: Schema;
  /** The keyword that holds `rest`, for pointers. */
  restKeyword: string;
  prefixKeyword: string;
}

/** items / prefixItems (2020-12) and items-array / additionalItems (draft-07, 2019-09) in one shape. */
function tupleOf(s: JsonObject, dialect: string): Tuple {
  if (dialect !== '2020-12' || Array.isArray(s.items)) {
    if (Array.isArray(s.items)) {
      return {
        prefix: s.items as Schema[],
        rest: (s.additionalItems ?? true) as Schema,
        restKeyword: 'additionalItems',
        prefixKeyword: 'items',
      };
    }
    return { prefix: [], rest: (s.items ?? true) as Schema, restKeyword: 'items', prefixKeyword: 'items' };
  }
  const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as Schema[]) : [];
  return { prefix, rest: (s.items ?? true) as Schema, restKeyword: 'items', prefixKeyword: 'prefixItems' };
}

/** items, prefixItems, min/maxItems, uniqueItems, contains with its counts. */
export function compareArrays(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const a = tupleOf(sub, ctx.shared.sub.dialect);
  const b = tupleOf(sup, ctx.shared.sup.dialect);
  const n = Math.max(a.prefix.length, b.prefix.length);
  const arrayOf = (len: number, tail?: Json): Json[] | undefined => {
    const base = subValue(ctx, sub, 0, 'array');
    const out = Array.isArray(base) ? [...base] : [];
    for (let i = out.length; i < len; i++) {
      const v = subValue(ctx, a.prefix[i] ?? a.rest, sub.uniqueItems === true ? i + 1 : 0);
      if (v === undefined) return undefined;
      out.push(v);
    }
    out.length = Math.min(out.length, len);
    if (tail !== undefined) out.push(tail);
    return out;
  };
  for (let i = 0; i < n; i++) {
    const subPath = i < a.prefix.length ? [a.prefixKeyword, i] : [a.restKeyword];
    const supPath = i < b.prefix.length ? [b.prefixKeyword, i] : [b.restKeyword];
    ctx.childSides(subPath, supPath, sub, i).include(a.prefix[i] ?? a.rest, b.prefix[i] ?? b.rest);
  }
  if (a.rest !== false && b.rest === false) {
    const local = (): Json | undefined => {
      const extra = subValue(ctx, a.rest);
      return extra === undefined ? undefined : arrayOf(n, extra);
    };
    ctx.emit(ctx.id('items-closed', 'items-opened'), [b.restKeyword], { index: n }, local);
  } else if (a.rest === false && b.rest !== false) {
    ctx.emit(ctx.id('items-opened', 'items-closed'), [b.restKeyword], { index: n });
  } else {
    ctx.childSides([a.restKeyword], [b.restKeyword], sub, n).include(a.rest, b.rest);
  }
  compareCount(sub, sup, ctx, 'minItems', 'min', ['min-items-increased', 'min-items-decreased'], (len) =>
    arrayOf(len),
  );
  compareCount(sub, sup, ctx, 'maxItems', 'max', ['max-items-decreased', 'max-items-increased'], (len) =>
    arrayOf(len),
  );
  const ua = sub.uniqueItems === true,
    ub = sup.uniqueItems === true;
  if (!ua && ub) {
    const local = (): Json | undefined => {
      const min = typeof sub.minItems === 'number' ? sub.minItems : 0;
      const base = arrayOf(Math.max(min, 1));
      if (!base || base.length === 0) return undefined;
      return [...base, base[base.length - 1] as Json];
    };
    ctx.emit(ctx.id('unique-items-added', 'unique-items-removed'), ['uniqueItems'], {}, local);
  } else if (ua && !ub) {
    ctx.emit(ctx.id('unique-items-removed', 'unique-items-added'), ['uniqueItems'], {});
  }
  compareContains(sub, sup, ctx);
}
