import type { JsonObject } from '../core/json.ts';
import type { DecisionRefusalCode } from '../core/refusal.ts';
import type { ToolOutcome } from '../core/registry.ts';
import { denialWindowStart, type TermsVerdict } from '../core/terms.ts';
import type { DecisionRecord } from '../store/contract.ts';
import type { Wrapper } from '../untrusted/index.ts';
import { principalOf, type ToolContext } from './context.ts';
import { ok } from './result.ts';

/**
 * Refuse without dead-ending: a request its scope allows but the mandate's terms
 * do not cover goes to the principal's queue, with the request attached, and the
 * agent is told plainly that it was queued, why, and how to follow it.
 */
export async function queueForPrincipal(
  ctx: ToolContext,
  tool: string,
  args: Record<string, unknown>,
  verdict: Exclude<TermsVerdict, { within: true }>,
  sameAs: string,
): Promise<ToolOutcome> {
  const me = principalOf(ctx);
  const denied = await denialOf(ctx, sameAs);
  if (denied) return deniedAgain(ctx, denied);
  // Why it was queued is a code of the refusal catalogue, as any refusal's is.
  const code: DecisionRefusalCode = verdict.code;
  const decision = await ctx.store.createDecision({
    principalId: me.id,
    tokenId: ctx.caller.kind === 'agent' ? ctx.caller.token.id : null,
    tool,
    arguments: args,
    reasonCode: code,
    reason: verdict.reason,
    requestKey: sameAs,
  });
  return ok({
    status: 'queued_for_principal',
    decision_id: decision.id,
    reason_code: code,
    reason: verdict.reason,
    next: `Nothing was sent. Your principal will approve or deny it; follow it with list_decisions (decision_id "${decision.id}"). Do not retry the request or try another way around it.`,
  });
}

/** The principal's latest denial of the same request inside their denial window, if any. */
async function denialOf(ctx: ToolContext, sameAs: string): Promise<DecisionRecord | null> {
  if (ctx.caller.kind === 'anonymous') return null;
  const since = denialWindowStart(ctx.caller.mandate, ctx.now());
  return since === null ? null : ctx.store.findDenial(principalOf(ctx).id, sameAs, since);
}

/**
 * Denied stays denied: the same request (core/same-request.ts) as one the principal
 * denied inside their window is refused at once, citing the decision and its note, and
 * nothing new is queued. The note is the principal's text, so it reaches the agent
 * wrapped, as data.
 */
function deniedAgain(ctx: ToolContext, d: DecisionRecord): ToolOutcome {
  const days = ctx.caller.kind === 'anonymous' ? 0 : ctx.caller.mandate.denialWindowDays;
  return {
    ok: false,
    refusal: {
      code: 'denied_by_principal',
      reason: `Your principal denied this same request on ${d.decidedAt ?? 'an earlier day'} (decision ${d.id})${d.note ? ', with the note given below' : ''}. A denial holds for ${days} day${days === 1 ? '' : 's'}; nothing was sent and nothing was queued.`,
      next: `Do not ask again or try another way around it. Read the decision with list_decisions (decision_id "${d.id}"); only your principal can change this, in person.`,
      detail: { decision_id: d.id, decided_at: d.decidedAt, note: ctx.wrapper.wrapOptional(d.note) },
    },
  };
}

/** Whether this run was approved by the principal already (then the terms are met). */
export function approvedByPrincipal(ctx: ToolContext): boolean {
  return ctx.approvedDecisionId !== undefined;
}

export function presentDecision(d: DecisionRecord, w: Wrapper): JsonObject {
  return {
    id: d.id,
    tool: d.tool,
    request: w.wrap(d.argumentsText),
    reason_code: d.reasonCode,
    reason: d.reason,
    status: d.status,
    note: w.wrapOptional(d.note),
    outcome: d.outcome,
    created_at: d.createdAt,
    decided_at: d.decidedAt,
  };
}
