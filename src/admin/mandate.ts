import { MAX_DENIAL_WINDOW_DAYS, type Mandate } from '../core/mandate.ts';
import { parseScopeList } from '../core/scopes.ts';
import { runAsPrincipal, type AdminDeps } from './as-principal.ts';
import { AdminRefusal } from './errors.ts';
import { requirePrincipal } from './principals.ts';

export interface MandateChange {
  scopes?: string;
  consultCounterparts?: string;
  consultDaily?: string;
  reviewsNeedApproval?: string;
  /** `consult` (the people agents may consult), `any`, or handles separated by commas. */
  answerCounterparts?: string;
  inboxNeedsApproval?: string;
  nameNeedsApproval?: string;
  profileTextNeedsApproval?: string;
  selfReportsNeedApproval?: string;
  /** Whole days, 0 to 365. */
  denialWindowDays?: string;
}

/** The yes/no terms: the option a person types, and the argument of set_mandate it sets. */
const FLAGS = [
  ['reviewsNeedApproval', '--reviews-need-approval', 'reviews_need_approval'],
  ['inboxNeedsApproval', '--inbox-needs-approval', 'inbox_changes_need_approval'],
  ['nameNeedsApproval', '--name-needs-approval', 'name_changes_need_approval'],
  ['profileTextNeedsApproval', '--profile-text-needs-approval', 'profile_text_needs_approval'],
  ['selfReportsNeedApproval', '--self-reports-need-approval', 'self_reports_need_approval'],
] as const;

function handleList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim().replace(/^@/, ''))
    .filter(Boolean);
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
      change.consultCounterparts === 'any' ? 'any' : handleList(change.consultCounterparts);
  }
  if (change.answerCounterparts !== undefined) {
    const a = change.answerCounterparts.trim();
    args['answer_counterparts'] = a === 'any' || a === 'consult' ? a : handleList(a);
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
  for (const [key, option, arg] of FLAGS) {
    const value = change[key];
    if (value === undefined) continue;
    if (value !== 'true' && value !== 'false')
      throw new AdminRefusal('invalid_value', `${option} takes true or false; got "${value}".`);
    args[arg] = value === 'true';
  }
  if (change.denialWindowDays !== undefined) {
    const days = change.denialWindowDays.trim();
    if (!/^\d{1,3}$/.test(days) || Number(days) > MAX_DENIAL_WINDOW_DAYS)
      throw new AdminRefusal(
        'invalid_value',
        `--denial-window-days takes a whole number of days from 0 to ${MAX_DENIAL_WINDOW_DAYS}; got "${change.denialWindowDays}".`,
      );
    args['denial_window_days'] = Number(days);
  }
  if (Object.keys(args).length === 0)
    throw new AdminRefusal('invalid_value', 'Nothing to change: give at least one option.');
  const result = await runAsPrincipal(deps, p, 'set_mandate', args);
  if (result.kind === 'refused') throw AdminRefusal.passOn(result.refusal);
  if (result.kind === 'unknown_tool') throw new Error('set_mandate is not registered');
  return deps.store.getMandate(p.id);
}
