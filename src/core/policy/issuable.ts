import { AGENT_SCOPES, parseScopeList, PRINCIPAL_ONLY_SCOPE, type Scope } from '../scopes.ts';
import { TIER_CEILING, tierOfStatus, type PrincipalStatus, type Tier } from '../tiers.ts';
import type { AdminRefusalCode } from '../refusal.ts';

/**
 * Scopes an agent token of a principal of this tier may be issued with: the tier's
 * ceiling, never mandate:write. A candidate may also take member scopes "for after
 * admission": they stay inert (above the tier) until the club admits them.
 */
export function issuableScopes(tier: Tier, afterAdmission = false): Scope[] {
  const ceiling = afterAdmission && tier === 'candidate' ? TIER_CEILING.member : TIER_CEILING[tier];
  return AGENT_SCOPES.filter((s) => ceiling.includes(s));
}

/** Why a token cannot be issued as asked. Stable codes: the CLI and the console show them. */
type IssueRefusalCode = Extract<
  AdminRefusalCode,
  'suspended' | 'unknown_scope' | 'scope_not_grantable' | 'above_tier'
>;

type IssueVerdict =
  | { ok: true; tier: Tier; scopes: Scope[] }
  | { ok: false; code: IssueRefusalCode; reason: string; next: string };

export interface IssueRequest {
  handle: string;
  status: PrincipalStatus;
  /** As asked: comma-separated text (CLI) or a list (console, consent page). */
  scopes: string | readonly string[];
  afterAdmission?: boolean;
}

/**
 * Whether an agent token may carry these scopes: refuses a suspended principal,
 * unknown scope names, mandate:write and scopes above the tier, each by name. The
 * mandate is not consulted: a token may hold scopes the mandate withholds today, and
 * they become effective (or stop being) as the mandate changes. Pure.
 */
export function evaluateIssuable(req: IssueRequest): IssueVerdict {
  const tier = tierOfStatus(req.status);
  if (tier === null) return refuse('suspended', `${req.handle} is suspended; no token can be issued.`);
  const { scopes, unknown } = parseScopeList(
    typeof req.scopes === 'string' ? req.scopes : req.scopes.join(','),
  );
  if (unknown.length) return refuse('unknown_scope', `Unknown scope(s): ${unknown.join(', ')}.`);
  if (scopes.includes(PRINCIPAL_ONLY_SCOPE)) {
    return refuse(
      'scope_not_grantable',
      'mandate:write is never issued to an agent: only the principal changes the mandate, through the console.',
    );
  }
  const issuable = issuableScopes(tier, req.afterAdmission);
  const above = scopes.filter((s) => !issuable.includes(s));
  if (above.length) {
    return refuse(
      'above_tier',
      `${above.join(', ')} ${above.length === 1 ? 'is' : 'are'} above the ${tier} tier of ${req.handle} (ceiling: ${TIER_CEILING[tier].join(', ')}).`,
      tier === 'candidate' && !req.afterAdmission
        ? 'Leave them out, or ask for them "for after admission": they stay inert until the club admits you.'
        : '',
    );
  }
  return { ok: true, tier, scopes };
}

function refuse(code: IssueRefusalCode, reason: string, next = ''): IssueVerdict {
  return { ok: false, code, reason, next };
}
