import type { JsonObject } from '../types.ts';
import type { Ctx } from './context.ts';
import { sameSubtree } from './util.ts';

/**
 * `not` and if/then/else: unchanged they constrain both sides alike; removed they can only
 * widen; added or changed, inclusion is not decided and the verdict is unknown.
 */
export function compareOpaque(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  if (!sameSubtree(sub.not, sup.not, ctx)) {
    const rule =
      sup.not === undefined
        ? ctx.id('not-removed', 'not-added')
        : sub.not === undefined
          ? ctx.id('not-added', 'not-removed')
          : 'not-changed';
    ctx.emit(rule, '/not', {});
  }
  const cond = (s: JsonObject): JsonObject | undefined =>
    'if' in s || 'then' in s || 'else' in s
      ? { if: s.if ?? true, then: s.then ?? true, else: s.else ?? true }
      : undefined;
  const a = cond(sub),
    b = cond(sup);
  if (!sameSubtree(a, b, ctx)) {
    const rule =
      b === undefined
        ? ctx.id('conditional-removed', 'conditional-added')
        : a === undefined
          ? ctx.id('conditional-added', 'conditional-removed')
          : 'conditional-changed';
    ctx.emit(rule, '/if', {});
  }
}
