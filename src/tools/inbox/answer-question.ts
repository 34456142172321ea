import type { ToolSpec } from '../../core/registry.ts';
import { sameRequest } from '../../core/same-request.ts';
import { evaluateAnswerTerms } from '../../core/terms.ts';
import { echo } from '../../untrusted/index.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { approvedByPrincipal, queueForPrincipal } from '../decisions.ts';
import { presentQuestion } from '../present.ts';
import { ok, refuse } from '../result.ts';
import { input, output, questionItem, queuedResult } from '../schemas.ts';

export const answerQuestion: ToolSpec<ToolContext, { question_id: string; answer: string }> = {
  name: 'answer_question',
  title: 'Answer a question put to your principal',
  scope: 'inbox',
  description:
    "Answers one open question from your principal's inbox (ids come from list_questions). A question is answered once; it must be addressed to your principal. An answer outside your principal's mandate (by default: whom you may consult) is queued for them instead.",
  inputSchema: input(
    {
      question_id: { type: 'string', minLength: 1, maxLength: 64 },
      answer: { type: 'string', minLength: 1, maxLength: 4000 },
    },
    ['question_id', 'answer'],
  ),
  outputSchema: { type: 'object', oneOf: [output({ answered: questionItem }), queuedResult] },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  words: { sends: ['answer'], serves: 'private', recipient: { question: 'question_id' } },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    const q = await ctx.store.getQuestion(args.question_id);
    if (!q) {
      return refuse(
        'not_found',
        `There is no question with id "${echo(args.question_id)}".`,
        'Call list_questions for the ids of open questions.',
      );
    }
    if (q.targetId !== me.id) {
      return refuse(
        'not_your_question',
        'That question was put to another principal, not yours; only its addressee may answer it.',
        'Answer only questions that list_questions returns to you.',
      );
    }
    if (!args.answer.trim())
      return refuse('invalid_value', 'The answer is blank.', 'Write the answer in words.');
    if (q.status === 'answered') return alreadyAnswered();
    if (ctx.caller.kind === 'agent' && !approvedByPrincipal(ctx)) {
      const verdict = evaluateAnswerTerms(ctx.caller.mandate, q.askerHandle);
      if (!verdict.within)
        return queueForPrincipal(
          ctx,
          'answer_question',
          { ...args },
          verdict,
          sameRequest.answer(q.askerHandle),
        );
    }
    const answered = await ctx.store.answerQuestion(q.id, args.answer, ctx.now().toISOString());
    if (!answered) return alreadyAnswered();
    return ok({ answered: presentQuestion((await ctx.store.getQuestion(q.id))!, ctx.wrapper) });
  },
};

function alreadyAnswered() {
  return refuse(
    'already_answered',
    'That question has already been answered; an answer cannot be replaced.',
    'Read it with list_questions (status "answered"). If something must be added, the asker can ask again.',
  );
}
