import { evaluateStaleness } from '../core/policy/index.ts';
import { tierOfStatus } from '../core/tiers.ts';
import type { DecisionOutcome, DecisionRecord, DecisionStatus, PrincipalRecord } from '../store/contract.ts';
import type { Invocation } from '../tools/invoke.ts';
import { runAsPrincipal, type AdminDeps } from './as-principal.ts';
import { AdminRefusal } from './errors.ts';
import { requirePrincipal } from './principals.ts';
import { staleOutcome } from './stale.ts';

export async function listDecisions(deps: AdminDeps, handle: string, status?: DecisionStatus) {
  const p = await requirePrincipal(deps.store, handle);
  return deps.store.listDecisions(p.id, status ? { status } : {});
}

/**
 * Why a decision waits, written to the principal who reads it on the console. The
 * stored reason speaks to the agent ("Your principal's mandate lets you consult…"),
 * and the agent keeps reading it through list_decisions unchanged; this says the same
 * thing to the person, from the same record: its code, its request and the figures
 * the stored reason gave. A code without a rendering here keeps the stored reason.
 */
export function reasonForPrincipal(d: Pick<DecisionRecord, 'reasonCode' | 'reason' | 'arguments'>): string {
  switch (d.reasonCode) {
    case 'counterpart_not_in_mandate': {
      const target = typeof d.arguments['to'] === 'string' ? `@${d.arguments['to']}` : 'this member';
      const listed = /lets you consult (.+?) without asking first;/.exec(d.reason)?.[1];
      if (listed === 'nobody')
        return `Your mandate lets your agents consult nobody without asking you first, and this asks to consult ${target}.`;
      if (listed) {
        const handles = listed.split(', ').map((h) => `@${h}`);
        return `Your mandate lets your agents consult only ${handles.join(', ')} without asking you first; ${target} is not among them.`;
      }
      return `Your mandate does not let your agents consult ${target} without asking you first.`;
    }
    case 'daily_question_limit': {
      const m = /allows (\d+) questions? a day and (\d+) (?:was|were) asked today/.exec(d.reason);
      if (!m)
        return 'Your agents had asked as many questions today as your mandate allows without asking you.';
      const [limit, asked] = [Number(m[1]), Number(m[2])];
      return `Your mandate allows your agents ${limit} question${limit === 1 ? '' : 's'} a day without asking you, and ${asked} ${asked === 1 ? 'was' : 'were'} asked today (UTC).`;
    }
    case 'review_needs_approval':
      return "Your mandate says your agents' reviews of candidates go out only once you approve them.";
    case 'private_words': {
      const who = / that (.+?) wrote privately to your principal/.exec(d.reason)?.[1] ?? 'another member';
      return `Your agent is about to pass on words ${who} wrote to you.`;
    }
    case 'answer_counterpart_not_in_mandate': {
      const listed = /lets you answer (.+?) without asking first;/.exec(d.reason)?.[1];
      const asker = / (\S+) is not among them\.$/.exec(d.reason)?.[1];
      const who = asker ? `@${asker}` : 'this member';
      if (!listed || listed === 'nobody')
        return `Your mandate lets your agents answer nobody without asking you first, and this answers ${who}.`;
      const handles = listed.split(', ').map((h) => `@${h}`);
      return `Your mandate lets your agents answer only ${handles.join(', ')} without asking you first; ${who} is not among them.`;
    }
    case 'profile_change_needs_approval': {
      const what = /mandate says (.+) waits for their approval\./.exec(d.reason)?.[1];
      return what
        ? `Your mandate says ${what.replaceAll('their', 'your')} waits for you.`
        : 'Your mandate says this change to your profile waits for you.';
    }
    case 'self_report_needs_approval':
      return 'Your mandate says evidence your agents report on your word alone (with no link behind it) waits for you.';
    default:
      return d.reason;
  }
}

/** Why a stale decision was closed without running, for the principal; null when the code is not a stale one. */
export function staleForPrincipal(code: string): string | null {
  const TEXT: Record<string, string> = {
    stale_token_revoked: 'the token that asked was revoked before you decided',
    stale_token_expired: 'the token that asked expired before you decided',
    stale_tool_gone: 'the tool it asked for no longer exists',
    stale_scope_lapsed:
      'the scope it needs no longer holds (your mandate, your tier or the token changed since it asked)',
  };
  return Object.hasOwn(TEXT, code) ? TEXT[code]! : null;
}

/**
 * The principal decides. An approval first re-checks the request against what holds
 * now (the principal's tier, the mandate's scopes, the asking token's state); if that
 * authority lapsed, the decision is closed as stale with the reason and not run. The
 * record is then claimed in one conditional write (pending → approved/denied, and for
 * an approval only while the asking token is live), so deciding twice is refused even
 * under a race; on approval the stored request runs as the principal and its outcome
 * is kept on the same record, where the agent reads it.
 */
export async function decide(
  deps: AdminDeps,
  handle: string,
  id: string,
  verdict: 'approve' | 'deny',
  note: string | null,
): Promise<DecisionRecord> {
  const p = await requirePrincipal(deps.store, handle);
  const d = await pendingDecisionOf(deps, p, id);
  const now = (deps.now ?? (() => new Date()))();
  if (verdict === 'approve') await closeIfStale(deps, p, d, now);
  const claimed = await deps.store.claimDecision(
    id,
    verdict === 'approve' ? 'approved' : 'denied',
    note,
    now.toISOString(),
  );
  if (!claimed) {
    // Lost a race: decided by someone else, or the token lapsed between the check and the claim.
    const current = await deps.store.getDecision(id);
    if (current?.status === 'pending' && verdict === 'approve')
      await closeIfStale(deps, p, current, new Date());
    throw new AdminRefusal('already_decided', `Decision ${id} was decided a moment ago by someone else.`);
  }
  if (verdict === 'approve') {
    const result = await runAsPrincipal(deps, p, d.tool, d.arguments, d.id);
    await deps.store.recordDecisionOutcome(id, toOutcome(result));
  }
  return (await deps.store.getDecision(id))!;
}

/**
 * Runs a stale decision's request as the principal in person: a new, explicit act of
 * theirs (never an agent's), under what the principal may do now. The stale record
 * stays as it was; the result of this act is returned to the principal.
 */
export async function reissue(deps: AdminDeps, handle: string, id: string): Promise<Invocation> {
  const p = await requirePrincipal(deps.store, handle);
  const d = await deps.store.getDecision(id);
  if (!d || d.principalId !== p.id) throw new AdminRefusal('not_found', `${handle} has no decision "${id}".`);
  if (d.status !== 'stale') {
    throw new AdminRefusal(
      'not_stale',
      `Decision ${id} is ${d.status}; only a stale decision is re-issued (a pending one is approved or denied).`,
    );
  }
  return runAsPrincipal(deps, p, d.tool, d.arguments, d.id);
}

async function pendingDecisionOf(deps: AdminDeps, p: PrincipalRecord, id: string): Promise<DecisionRecord> {
  const d = await deps.store.getDecision(id);
  if (!d) throw new AdminRefusal('not_found', `No decision has the id "${id}".`);
  if (d.principalId !== p.id)
    throw new AdminRefusal('not_your_decision', `Decision ${id} belongs to another principal.`);
  if (d.status === 'stale') throw staleRefusal(d);
  if (d.status !== 'pending') {
    throw new AdminRefusal('already_decided', `Decision ${id} was ${d.status} already, on ${d.decidedAt}.`);
  }
  return d;
}

/** Re-evaluates the request against what holds now; closes it as stale (and refuses) if it no longer may run. */
async function closeIfStale(
  deps: AdminDeps,
  p: PrincipalRecord,
  d: DecisionRecord,
  now: Date,
): Promise<void> {
  const tier = tierOfStatus(p.status);
  if (tier === null) throw new AdminRefusal('suspended', `${p.handle} is suspended.`);
  const tool = deps.registry.all().find((t) => t.spec.name === d.tool);
  const token = d.tokenId ? await deps.store.getToken(d.tokenId) : null;
  const verdict = evaluateStaleness({
    scope: tool ? tool.spec.scope : undefined,
    tier,
    mandateScopes: (await deps.store.getMandate(p.id)).scopes,
    token: d.tokenId
      ? (token ?? {
          id: d.tokenId,
          scopes: [],
          revokedAt: 'an unknown date (the token is gone)',
          expiresAt: null,
        })
      : null,
    now,
  });
  if (!verdict.stale) return;
  await deps.store.closeStale(d.id, staleOutcome(verdict.code, verdict.reason), now.toISOString());
  const closed = await deps.store.getDecision(d.id);
  throw closed?.status === 'stale'
    ? staleRefusal(closed)
    : new AdminRefusal('already_decided', `Decision ${d.id} was decided a moment ago by someone else.`);
}

function staleRefusal(d: DecisionRecord): AdminRefusal {
  const why = d.outcome && !d.outcome.ok ? d.outcome.refusal.reason : 'Its authority lapsed.';
  return new AdminRefusal(
    'stale',
    `Decision ${d.id} is stale, closed on ${d.decidedAt} without being executed. ${why} To do it anyway, do it in person as a new act: warden admin decisions reissue ${d.id}.`,
  );
}

/** Keeps only server-written scalars of a result, so a stored outcome can hold no member text. */
function toOutcome(result: Invocation): DecisionOutcome {
  if (result.kind === 'unknown_tool') {
    return {
      ok: false,
      refusal: { code: 'not_found', reason: 'The tool is no longer available.', next: 'Nothing to do.' },
    };
  }
  if (result.kind === 'refused') {
    const { code, reason, next } = result.refusal;
    return { ok: false, refusal: { code, reason, next } };
  }
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
