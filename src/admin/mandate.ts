import type { Mandate } from '../core/mandate.ts';
import { parseScopeList } from '../core/scopes.ts';
import { runAsPrincipal, type AdminDeps } from './as-principal.ts';
import { AdminRefusal } from './errors.ts';
import { requirePrincipal } from './principals.ts';

export interface MandateChange {
  scopes?: string;
  consultCounterparts?: string;
  consultDaily?: string;
  reviewsNeedApproval?: string;
}

export async function showMandate(deps: AdminDeps, handle: string): Promise<Mandate> {
  const p = await requirePrincipal(deps.store, handle);
  return deps.store.getMandate(p.id);
}

/**
 * Changes a principal's mandate by running set_mandate as that principal. The new
 * terms bind every token already issued from the very next request.
 */
export async function changeMandate(
  deps: AdminDeps,
  handle: string,
  change: MandateChange,
): Promise<Mandate> {
  const p = await requirePrincipal(deps.store, handle);
  const args: Record<string, unknown> = {};
  if (change.scopes !== undefined) {
    const { scopes, unknown } = parseScopeList(change.scopes);
    if (unknown.length) throw new AdminRefusal('unknown_scope', `Unknown scope(s): ${unknown.join(', ')}.`);
    args['scopes'] = scopes;
  }
  if (change.consultCounterparts !== undefined) {
    args['consult_counterparts'] =
      change.consultCounterparts === 'any'
        ? 'any'
        : change.consultCounterparts
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
  }
  if (change.consultDaily !== undefined) {
    if (change.consultDaily === 'none' || change.consultDaily === 'unlimited')
      args['consult_daily_limit'] = null;
    else if (/^\d+$/.test(change.consultDaily)) args['consult_daily_limit'] = Number(change.consultDaily);
    else
      throw new AdminRefusal(
        'invalid_value',
        `--consult-daily takes a whole number or "unlimited"; got "${change.consultDaily}".`,
      );
  }
  if (change.reviewsNeedApproval !== undefined) {
    if (change.reviewsNeedApproval !== 'true' && change.reviewsNeedApproval !== 'false') {
      throw new AdminRefusal('invalid_value', '--reviews-need-approval takes true or false.');
    }
    args['reviews_need_approval'] = change.reviewsNeedApproval === 'true';
  }
  if (Object.keys(args).length === 0)
    throw new AdminRefusal('invalid_value', 'Nothing to change: give at least one option.');
  const result = await runAsPrincipal(deps, p, 'set_mandate', args);
  if (result.kind === 'refused') throw AdminRefusal.passOn(result.refusal);
  if (result.kind === 'unknown_tool') throw new Error('set_mandate is not registered');
  return deps.store.getMandate(p.id);
}
