import type { DecisionOutcome, DecisionRecord } from '../store/contract.ts';
import type { Invocation } from '../tools/invoke.ts';
import { runAsPrincipal, type AdminDeps } from './as-principal.ts';
import { AdminRefusal } from './errors.ts';
import { requirePrincipal } from './principals.ts';

export async function listDecisions(
  deps: AdminDeps,
  handle: string,
  status?: 'pending' | 'approved' | 'denied',
) {
  const p = await requirePrincipal(deps.store, handle);
  return deps.store.listDecisions(p.id, status ? { status } : {});
}

/**
 * The principal decides. The record is claimed first (pending → approved/denied in
 * one conditional write), so deciding twice is refused even under a race; on
 * approval the stored request then runs as the principal and its outcome is kept
 * on the same record, where the agent reads it.
 */
export async function decide(
  deps: AdminDeps,
  handle: string,
  id: string,
  verdict: 'approve' | 'deny',
  note: string | null,
): Promise<DecisionRecord> {
  const p = await requirePrincipal(deps.store, handle);
  const d = await deps.store.getDecision(id);
  if (!d) throw new AdminRefusal('not_found', `No decision has the id "${id}".`);
  if (d.principalId !== p.id)
    throw new AdminRefusal('not_your_decision', `Decision ${id} belongs to another principal.`);
  if (d.status !== 'pending') {
    throw new AdminRefusal('already_decided', `Decision ${id} was ${d.status} already, on ${d.decidedAt}.`);
  }
  const now = (deps.now ?? (() => new Date()))();
  const claimed = await deps.store.claimDecision(
    id,
    verdict === 'approve' ? 'approved' : 'denied',
    note,
    now.toISOString(),
  );
  if (!claimed)
    throw new AdminRefusal('already_decided', `Decision ${id} was decided a moment ago by someone else.`);
  if (verdict === 'approve') {
    const result = await runAsPrincipal(deps, p, d.tool, d.arguments, d.id);
    await deps.store.recordDecisionOutcome(id, toOutcome(result));
  }
  return (await deps.store.getDecision(id))!;
}

/** Keeps only server-written scalars of a result, so a stored outcome can hold no member text. */
function toOutcome(result: Invocation): DecisionOutcome {
  if (result.kind === 'unknown_tool') {
    return {
      ok: false,
      refusal: { code: 'not_found', reason: 'The tool is no longer available.', next: 'Nothing to do.' },
    };
  }
  if (result.kind === 'refused') return { ok: false, refusal: { ...result.refusal } };
  const scalars: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(result.data)) {
    if (v === null || typeof v === 'number' || typeof v === 'boolean') scalars[k] = v;
    else if (
      typeof v === 'string' &&
      (k === 'status' || k.endsWith('_id') || k === 'to' || k === 'candidate' || k === 'verdict')
    ) {
      scalars[k] = v;
    }
  }
  return { ok: true, result: scalars };
}
