import type { JsonObject } from '../core/json.ts';
import type { DecisionRefusalCode } from '../core/refusal.ts';
import type { ToolOutcome } from '../core/registry.ts';
import type { TermsVerdict } from '../core/terms.ts';
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
): Promise<ToolOutcome> {
  const me = principalOf(ctx);
  // Why it was queued is a code of the refusal catalogue, as any refusal's is.
  const code: DecisionRefusalCode = verdict.code;
  const decision = await ctx.store.createDecision({
    principalId: me.id,
    tokenId: ctx.caller.kind === 'agent' ? ctx.caller.token.id : null,
    tool,
    arguments: args,
    reasonCode: code,
    reason: verdict.reason,
  });
  return ok({
    status: 'queued_for_principal',
    decision_id: decision.id,
    reason_code: code,
    reason: verdict.reason,
    next: `Nothing was sent. Your principal will approve or deny it; follow it with list_decisions (decision_id "${decision.id}"). Do not retry the request or try another way around it.`,
  });
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
