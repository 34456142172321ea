import type { RuleId } from '../rules.ts';
import type { Json, JsonObject } from '../types.ts';
import type { Ctx } from './context.ts';

/**
 * One size bound (minLength, maxItems, minProperties, ...). `ids` are [tightened, loosened] as
 * seen old → new in the input direction; the witness has the size the old bound allowed.
 * `floor` is a lower bound on the size every value of the kept side has whatever its own
 * keyword says (the names it requires, for minProperties): a new minimum up to it takes nothing.
 */
export function compareCount(
  sub: JsonObject,
  sup: JsonObject,
  ctx: Ctx,
  keyword: string,
  kind: 'min' | 'max',
  ids: [RuleId, RuleId],
  valueOfSize: (n: number) => Json | undefined,
  floor = 0,
): void {
  const none = kind === 'min' ? 0 : Infinity;
  const a = typeof sub[keyword] === 'number' ? (sub[keyword] as number) : none;
  const b = typeof sup[keyword] === 'number' ? (sup[keyword] as number) : none;
  if (a === b) return;
  if (kind === 'min' && b > a && b <= floor) return;
  const tighter = kind === 'min' ? b > a : b < a;
  const show = (n: number): Json | undefined => (Number.isFinite(n) ? n : undefined);
  const args = ctx.oldNew<Json | undefined>(show(a), show(b));
  if (!tighter) {
    ctx.emit(ctx.id(ids[1], ids[0]), [keyword], args);
    return;
  }
  const otherKey = keyword.replace(kind === 'min' ? 'min' : 'max', kind === 'min' ? 'max' : 'min');
  const subMin = kind === 'min' ? a : typeof sub[otherKey] === 'number' ? (sub[otherKey] as number) : 0;
  const size = kind === 'min' ? Math.max(a, floor) : Math.max(b + 1, subMin);
  ctx.emit(ctx.id(ids[0], ids[1]), [keyword], args, () => valueOfSize(size));
}
