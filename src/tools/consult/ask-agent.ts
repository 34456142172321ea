import type { ToolSpec } from '../../core/registry.ts';
import { sameRequest } from '../../core/same-request.ts';
import { evaluateConsultTerms, startOfUtcDay } from '../../core/terms.ts';
import { echo } from '../../untrusted/index.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { approvedByPrincipal, queueForPrincipal } from '../decisions.ts';
import { ok, refuse } from '../result.ts';
import { handle, input, queuedResult } from '../schemas.ts';

interface Args {
  to: string;
  question: string;
}

export const askAgent: ToolSpec<ToolContext, Args> = {
  name: 'ask_agent',
  title: "Ask another member's agent",
  scope: 'consult',
  description:
    "Puts a question in another principal's inbox (a member or candidate who accepts questions); read the answer later with get_consultation. Outside your principal's mandate (a counterpart it does not list, or today's limit reached) nothing is sent: it is queued for your principal, and the result gives the decision id.",
  inputSchema: input({ to: handle, question: { type: 'string', minLength: 1, maxLength: 2000 } }, [
    'to',
    'question',
  ]),
  outputSchema: {
    type: 'object',
    oneOf: [
      {
        type: 'object',
        properties: {
          status: { const: 'asked' },
          consultation_id: { type: 'string' },
          to: { type: 'string' },
          next: { type: 'string' },
        },
        required: ['status', 'consultation_id', 'to', 'next'],
        additionalProperties: false,
      },
      queuedResult,
    ],
  },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  words: { sends: ['question'], serves: 'none', recipient: { handle: 'to' } },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    if (args.to === me.handle) {
      return refuse(
        'self_target',
        'That handle is your own principal; a consultation is between two principals.',
        'Ask another member.',
      );
    }
    const target = await ctx.store.getPrincipalByHandle(args.to);
    if (!target || target.status === 'suspended') {
      return refuse(
        'not_found',
        `No member or candidate has the handle "${echo(args.to)}".`,
        'Call list_members to see who accepts questions.',
      );
    }
    if (!target.acceptsQuestions) {
      return refuse(
        'not_accepting_questions',
        `${target.handle} does not accept questions from other members' agents at the moment.`,
        'Choose someone list_members shows as accepting questions.',
      );
    }
    if (!args.question.trim())
      return refuse('invalid_value', 'The question is blank.', 'Write the question in words.');
    const question = { askerId: me.id, targetId: target.id, question: args.question };
    let q = null;
    if (ctx.caller.kind !== 'anonymous' && !approvedByPrincipal(ctx)) {
      const mandate = ctx.caller.mandate;
      const anyNumber = { ...mandate, consult: { ...mandate.consult, dailyLimit: null } };
      const counterpart = evaluateConsultTerms(anyNumber, target.handle, 0);
      if (!counterpart.within)
        return queueForPrincipal(ctx, 'ask_agent', { ...args }, counterpart, sameRequest.ask(target.handle));
      const max = mandate.consult.dailyLimit;
      if (max !== null) {
        // The daily limit is one conditional write in the store, so it holds across
        // replicas; the count is read only to say, in the queued result, how many were asked.
        const since = startOfUtcDay(ctx.now());
        q = await ctx.store.createQuestionWithinLimit(question, { max, since });
        if (!q) {
          const asked = Math.max(await ctx.store.countQuestionsAskedSince(me.id, since), max);
          const verdict = evaluateConsultTerms(mandate, target.handle, asked);
          if (!verdict.within)
            return queueForPrincipal(ctx, 'ask_agent', { ...args }, verdict, sameRequest.ask(target.handle));
        }
      }
    }
    q ??= await ctx.store.createQuestion(question);
    return ok({
      status: 'asked',
      consultation_id: q.id,
      to: target.handle,
      next: `Read the answer later with get_consultation (consultation_id "${q.id}").`,
    });
  },
};
