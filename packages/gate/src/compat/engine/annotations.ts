import { keywordsWhere } from '../keywords.ts';
import type { RuleId } from '../rules.ts';
import type { Json, JsonObject } from '../types.ts';
import type { Ctx } from './context.ts';
import { sameSubtree } from './util.ts';

const NAMED: Record<string, RuleId> = {
  description: 'description-changed',
  title: 'title-changed',
  default: 'default-changed',
  examples: 'examples-changed',
  'x-mcp-header': 'mcp-header-changed',
  $schema: 'dialect-changed',
};

/** The other annotations of the keyword table, each reported by one rule (core keywords aside). */
const OTHER = keywordsWhere((k, name) => k.role === 'annotation' && !Object.hasOwn(NAMED, name));

/** Annotations never change which values validate; their changes are reported, never breaking. */
export function compareAnnotations(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  for (const [k, rule] of Object.entries(NAMED)) {
    if (sameSubtree(sub[k], sup[k], ctx)) continue;
    const { old, new: now } = ctx.oldNew<Json | undefined>(sub[k], sup[k]);
    // An absent side is left out, so the message says "absent" rather than "null".
    const args: Record<string, Json> = {};
    if (old !== undefined) args.old = old;
    if (now !== undefined) args.new = now;
    ctx.emit(rule, [k], args);
  }
  for (const k of OTHER) {
    if (!sameSubtree(sub[k], sup[k], ctx)) ctx.emit('annotation-changed', [k], { keyword: k });
  }
}
