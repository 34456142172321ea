import type { Json, JsonObject } from '../types.ts';
import type { Ctx } from './context.ts';
import { generateNumber } from '../generate/number.ts';
import { FIRST } from '../generate/chooser.ts';
import { ALL_TYPES, admits, subValue, typeSet } from './util.ts';

/** Types of `sub` that `sup` no longer admits (integer counts as a part of number). */
function missing(sub: Set<string> | undefined, sup: Set<string> | undefined): string[] {
  const out: string[] = [];
  const subTypes = sub ? [...sub] : [...ALL_TYPES];
  for (const t of subTypes) {
    if (t === 'number' && !admits(sup, 'number'))
      out.push(admits(sup, 'integer') ? 'number (non-integer)' : 'number');
    else if (t !== 'number' && !admits(sup, t)) out.push(t);
  }
  return out;
}

/** A non-integer number within the sub side's bounds: what number → integer rejects. */
function nonInteger(sub: JsonObject): Json | undefined {
  const half = { ...sub, multipleOf: typeof sub.multipleOf === 'number' ? sub.multipleOf : 0.5 };
  for (let salt = 0; salt < 8; salt++) {
    const v = generateNumber(half, false, FIRST, salt);
    if (v !== undefined && !Number.isInteger(v)) return v;
  }
  return undefined;
}

/** type narrowed / widened, over type arrays, integer ⊂ number and null. */
export function compareTypes(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const a = typeSet(sub),
    b = typeSet(sup);
  const narrowed = missing(a, b);
  if (narrowed.length > 0) {
    const first = narrowed[0] as string;
    const valueOf = (missingType: string, salt: number): Json | undefined => {
      if (missingType === 'number (non-integer)') return salt === 0 ? nonInteger(sub) : undefined;
      return (
        subValue(ctx, { ...sub, type: missingType }, salt, missingType) ??
        subValue(ctx, { type: missingType }, salt, missingType)
      );
    };
    // The first type lost may be one the old side rejects anyway (`null` where a `not`, an
    // `enum` or a branch beside `type` excludes it): each type lost is tried, then variants.
    function* more(): Generator<Json | undefined> {
      for (const t of narrowed.slice(1)) yield valueOf(t, 0);
      for (let salt = 1; salt <= 2; salt++) for (const t of narrowed) yield valueOf(t, salt);
    }
    ctx.emit(
      ctx.id('type-narrowed', 'type-widened'),
      ['type'],
      { type: narrowed.length === 1 ? first : narrowed },
      () => valueOf(first, 0),
      more,
    );
  }
  const widened = missing(b, a);
  if (widened.length > 0) {
    ctx.emit(ctx.id('type-widened', 'type-narrowed'), ['type'], {
      type: widened.length === 1 ? (widened[0] as string) : widened,
    });
  }
}
