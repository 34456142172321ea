import { MAX_DENIAL_WINDOW_DAYS, normaliseMandate, type AnswerCounterparts } from '../../core/mandate.ts';
import type { ToolSpec } from '../../core/registry.ts';
import { AGENT_SCOPES, PRINCIPAL_ONLY_SCOPE, type Scope } from '../../core/scopes.ts';
import type { ToolContext } from '../context.ts';
import { ok, refuse } from '../result.ts';
import { HANDLE_PATTERN, input, output } from '../schemas.ts';
import { mandateTerms, mandateTermsSchema } from './view.ts';

interface Args {
  scopes?: string[];
  consult_counterparts?: 'any' | string[];
  consult_daily_limit?: number | null;
  reviews_need_approval?: boolean;
  answer_counterparts?: AnswerCounterparts;
  inbox_changes_need_approval?: boolean;
  name_changes_need_approval?: boolean;
  profile_text_needs_approval?: boolean;
  self_reports_need_approval?: boolean;
  denial_window_days?: number;
}

const strings = { type: 'array', items: { type: 'string' } };
const handles = { type: 'array', items: { type: 'string', pattern: HANDLE_PATTERN }, maxItems: 500 };

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
    "Changes the principal's terms for all their agents: which scopes agents may use, whom they may consult and answer, how many questions a day, which acts wait for the principal (candidate reviews, opening or closing the inbox, a new display name, a new headline or bio, self-reported evidence), and how many days a denial holds. Only the principal, in person, may call it; agents never can.",
  inputSchema: {
    ...input({
      scopes: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 16 },
      consult_counterparts: { anyOf: [{ const: 'any' }, handles] },
      consult_daily_limit: { type: ['integer', 'null'], minimum: 0, maximum: 10000 },
      reviews_need_approval: { type: 'boolean' },
      answer_counterparts: { anyOf: [{ enum: ['any', 'consult'] }, handles] },
      inbox_changes_need_approval: { type: 'boolean' },
      name_changes_need_approval: { type: 'boolean' },
      profile_text_needs_approval: { type: 'boolean' },
      self_reports_need_approval: { type: 'boolean' },
      denial_window_days: { type: 'integer', minimum: 0, maximum: MAX_DENIAL_WINDOW_DAYS },
    }),
    minProperties: 1,
  },
  outputSchema: output({
    principal: { type: 'string' },
    scopes: strings,
    ...mandateTermsSchema,
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
    const answer = args.answer_counterparts ?? current.answer.counterparts;
    const named = [
      ...(counterparts === 'any' ? [] : counterparts),
      ...(answer === 'any' || answer === 'consult' ? [] : answer),
    ];
    for (const h of new Set(named)) {
      const p = await ctx.store.getPrincipalByHandle(h);
      if (!p)
        return refuse(
          'not_found',
          `No principal has the handle "${h}".`,
          'List counterparts by their exact handles.',
        );
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
        answer: { counterparts: answer },
        profile: {
          inboxNeedsApproval: args.inbox_changes_need_approval ?? current.profile.inboxNeedsApproval,
          nameNeedsApproval: args.name_changes_need_approval ?? current.profile.nameNeedsApproval,
          textNeedsApproval: args.profile_text_needs_approval ?? current.profile.textNeedsApproval,
        },
        selfReportsNeedApproval: args.self_reports_need_approval ?? current.selfReportsNeedApproval,
        denialWindowDays: args.denial_window_days ?? current.denialWindowDays,
      }),
    );
    return ok({ principal: me.handle, scopes: saved.scopes, ...mandateTerms(saved) });
  },
};
