import type { ToolSpec } from '../../core/registry.ts';
import { sameRequest } from '../../core/same-request.ts';
import { evaluateReviewTerms } from '../../core/terms.ts';
import { echo } from '../../untrusted/index.ts';
import { principalOf, type ToolContext } from '../context.ts';
import { approvedByPrincipal, queueForPrincipal } from '../decisions.ts';
import { ok, refuse } from '../result.ts';
import { handle, input, queuedResult } from '../schemas.ts';

interface Args {
  handle: string;
  verdict: 'support' | 'oppose';
  note: string;
}

export const reviewCandidate: ToolSpec<ToolContext, Args> = {
  name: 'review_candidate',
  title: 'Review a candidate',
  scope: 'vouch',
  description:
    "Records your principal's review of a candidate: support or oppose, with a note saying why; one per candidate. If the mandate says reviews need approval (the default), nothing is recorded yet: it is queued for your principal, and the result gives the decision id.",
  inputSchema: input(
    {
      handle,
      verdict: { enum: ['support', 'oppose'] },
      note: { type: 'string', minLength: 1, maxLength: 2000 },
    },
    ['handle', 'verdict', 'note'],
  ),
  outputSchema: {
    type: 'object',
    oneOf: [
      {
        type: 'object',
        properties: {
          status: { const: 'recorded' },
          review_id: { type: 'string' },
          candidate: { type: 'string' },
          verdict: { enum: ['support', 'oppose'] },
        },
        required: ['status', 'review_id', 'candidate', 'verdict'],
        additionalProperties: false,
      },
      queuedResult,
    ],
  },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  words: { sends: ['note'], serves: 'none' },
  async handler(args, ctx) {
    const me = principalOf(ctx);
    const candidate = await ctx.store.getPrincipalByHandle(args.handle);
    if (!candidate || candidate.status !== 'candidate') {
      return refuse(
        'not_a_candidate',
        `"${echo(args.handle)}" is not a candidate under evaluation.`,
        'Call list_candidates for the people you can review.',
      );
    }
    if (candidate.id === me.id) {
      return refuse('self_target', 'A candidate cannot review themself.', 'Reviews come from members.');
    }
    if (!args.note.trim()) return refuse('invalid_value', 'The note is blank.', 'Say why, in words.');
    const existing = await ctx.store.listReviews({ candidateId: candidate.id, reviewerId: me.id });
    if (existing.length > 0) return alreadyReviewed(candidate.handle);
    if (ctx.caller.kind !== 'anonymous' && !approvedByPrincipal(ctx)) {
      const verdict = evaluateReviewTerms(ctx.caller.mandate);
      if (!verdict.within) {
        // A review already waiting for the principal would make this one a conflict on
        // approval: say so now, rather than queue a decision that can only fail.
        const key = sameRequest.review(candidate.handle);
        const waiting = await ctx.store.findPending(me.id, key);
        if (waiting) return alreadyQueued(candidate.handle, waiting.id);
        return queueForPrincipal(ctx, 'review_candidate', { ...args }, verdict, key);
      }
    }
    // The check above is only a courtesy; the store's unique index is what holds, on every replica.
    const review = await ctx.store.addReview({
      reviewerId: me.id,
      candidateId: candidate.id,
      verdict: args.verdict,
      note: args.note,
    });
    if (!review) return alreadyReviewed(candidate.handle);
    return ok({
      status: 'recorded',
      review_id: review.id,
      candidate: candidate.handle,
      verdict: review.verdict,
    });
  },
};

function alreadyQueued(candidate: string, decisionId: string) {
  return refuse(
    'conflict',
    `A review of ${candidate} already waits for your principal's approval (decision "${decisionId}"); one review per candidate.`,
    `Nothing was queued. Follow the waiting one with list_decisions (decision_id "${decisionId}").`,
  );
}

function alreadyReviewed(candidate: string) {
  return refuse(
    'conflict',
    `Your principal already reviewed ${candidate}.`,
    'One review per candidate; nothing more to do.',
  );
}
