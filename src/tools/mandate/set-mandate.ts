import { normaliseMandate } from '../../core/mandate.ts';
import type { ToolSpec } from '../../core/registry.ts';
import { AGENT_SCOPES, PRINCIPAL_ONLY_SCOPE, type Scope } from '../../core/scopes.ts';
import type { ToolContext } from '../context.ts';
import { ok, refuse } from '../result.ts';
import { HANDLE_PATTERN, input, output } from '../schemas.ts';

interface Args {
  scopes?: string[];
  consult_counterparts?: 'any' | string[];
  consult_daily_limit?: number | null;
  reviews_need_approval?: boolean;
}

const strings = { type: 'array', items: { type: 'string' } };

/**
 * The principal's own tool. Its scope, mandate:write, is never effective for an
 * agent, so no agent ever sees or reaches it; the console and the admin CLI call
 * it as the principal. The handler checks the caller kind again regardless.
 */
export const setMandate: ToolSpec<ToolContext, Args> = {
  name: 'set_mandate',
  title: 'Change the mandate (principal only)',
  scope: 'mandate:write',
  description:
    "Changes the principal's terms for all their agents: which scopes agents may use, whom they may consult, how many questions a day, and whether candidate reviews need approval. Only the principal, in person, may call it; agents never can.",
  inputSchema: {
    ...input({
      scopes: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 16 },
      consult_counterparts: {
        anyOf: [
          { const: 'any' },
          { type: 'array', items: { type: 'string', pattern: HANDLE_PATTERN }, maxItems: 500 },
        ],
      },
      consult_daily_limit: { type: ['integer', 'null'], minimum: 0, maximum: 10000 },
      reviews_need_approval: { type: 'boolean' },
    }),
    minProperties: 1,
  },
  outputSchema: output({
    principal: { type: 'string' },
    scopes: strings,
    consult_counterparts: { anyOf: [{ const: 'any' }, strings] },
    consult_daily_limit: { type: ['integer', 'null'] },
    reviews_need_approval: { type: 'boolean' },
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  words: { sends: [], serves: 'none' },
  async handler(args, ctx) {
    if (ctx.caller.kind !== 'principal') {
      throw new Error('set_mandate reached by a caller that is not the principal in person');
    }
    const me = ctx.caller.principal;
    const current = ctx.caller.mandate;
    let scopes: Scope[] = current.scopes;
    if (args.scopes) {
      if (args.scopes.includes(PRINCIPAL_ONLY_SCOPE)) {
        return refuse(
          'scope_not_grantable',
          'mandate:write cannot be granted to agents: an agent able to change the terms it operates under is not operating under terms.',
          `Choose among ${AGENT_SCOPES.join(', ')}.`,
        );
      }
      const unknown = args.scopes.filter((s) => !AGENT_SCOPES.includes(s as Scope));
      if (unknown.length) {
        return refuse(
          'unknown_scope',
          `Unknown scope(s): ${unknown.join(', ')}.`,
          `Choose among ${AGENT_SCOPES.join(', ')}.`,
        );
      }
      scopes = args.scopes as Scope[];
    }
    const counterparts = args.consult_counterparts ?? current.consult.counterparts;
    if (counterparts !== 'any') {
      for (const h of counterparts) {
        const p = await ctx.store.getPrincipalByHandle(h);
        if (!p)
          return refuse(
            'not_found',
            `No principal has the handle "${h}".`,
            'List counterparts by their exact handles.',
          );
      }
    }
    const saved = await ctx.store.setMandate(
      me.id,
      normaliseMandate({
        scopes,
        consult: {
          counterparts,
          dailyLimit:
            args.consult_daily_limit === undefined ? current.consult.dailyLimit : args.consult_daily_limit,
        },
        reviewsNeedApproval: args.reviews_need_approval ?? current.reviewsNeedApproval,
      }),
    );
    return ok({
      principal: me.handle,
      scopes: saved.scopes,
      consult_counterparts: saved.consult.counterparts,
      consult_daily_limit: saved.consult.dailyLimit,
      reviews_need_approval: saved.reviewsNeedApproval,
    });
  },
};
