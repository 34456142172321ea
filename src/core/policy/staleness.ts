import type { Scope } from '../scopes.ts';
import type { Tier } from '../tiers.ts';
import { computePermissions } from './effective.ts';
import { whyMissing } from './why.ts';

/** Why a queued request may no longer run. Stable codes, stored on the closed decision. */
export type StaleCode = 'token_revoked' | 'token_expired' | 'tool_gone' | 'scope_lapsed';

type Staleness = { stale: false } | { stale: true; code: StaleCode; reason: string };

export interface AskedUnder {
  /** The scope the queued tool needs now (null: a public tool); undefined: the tool is gone. */
  scope: Scope | null | undefined;
  tier: Tier;
  mandateScopes: readonly string[];
  /** The token whose agent asked, as it is now; null when the principal asked in person. */
  token: { id: string; scopes: readonly string[]; revokedAt: string | null; expiresAt: string | null } | null;
  now: Date;
}

/**
 * Whether the authority a decision was asked under still holds at the moment the
 * principal approves it: the asking token live, and the tool's scope still in
 * token ∩ mandate ∩ tier. Approval lifts the mandate's terms, never its scopes:
 * a request whose authority lapsed is closed as stale, not executed. Pure.
 */
export function evaluateStaleness(a: AskedUnder): Staleness {
  if (a.token?.revokedAt) {
    return stale(
      'token_revoked',
      `The token that asked (${a.token.id}) was revoked on ${a.token.revokedAt}.`,
    );
  }
  if (a.token?.expiresAt && Date.parse(a.token.expiresAt) <= a.now.getTime()) {
    return stale('token_expired', `The token that asked (${a.token.id}) expired on ${a.token.expiresAt}.`);
  }
  if (a.scope === undefined) return stale('tool_gone', 'The tool it asked for no longer exists.');
  if (a.scope === null) return { stale: false };
  const tokenScopes = a.token ? a.token.scopes : [a.scope];
  const grant = computePermissions(a.tier, tokenScopes, a.mandateScopes).grants.find(
    (g) => g.scope === a.scope,
  );
  if (grant && !grant.granted) {
    return stale(
      'scope_lapsed',
      `It needs the ${a.scope} scope, which no longer holds: ${whyMissing(grant.missing)}.`,
    );
  }
  return { stale: false };
}

function stale(code: StaleCode, reason: string): Staleness {
  return { stale: true, code, reason };
}
