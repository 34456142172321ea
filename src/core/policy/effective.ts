import { AGENT_SCOPES, PRINCIPAL_ONLY_SCOPE, SCOPES, type Scope } from '../scopes.ts';
import { TIER_CEILING, type Tier } from '../tiers.ts';

/** Why a scope is not effective for a caller. Stable codes: /diagnose and get_mandate expose them. */
export type MissingReason = 'principal_only' | 'above_tier' | 'not_in_token' | 'not_in_mandate';

interface ScopeGrant {
  scope: Scope;
  granted: boolean;
  /** Every reason it is missing, most fundamental first (empty when granted). */
  missing: MissingReason[];
}

export interface Permissions {
  tier: Tier;
  effective: ReadonlySet<Scope>;
  grants: ScopeGrant[];
}

/**
 * Effective scopes = token ∩ mandate ∩ tier ceiling, minus mandate:write always.
 * Pure: callers pass values read from the store on this very request, so a narrowed
 * mandate or a suspension is in force at the next request with nothing cached.
 */
export function computePermissions(
  tier: Tier,
  tokenScopes: readonly string[],
  mandateScopes: readonly string[],
): Permissions {
  const ceiling = new Set<string>(TIER_CEILING[tier]);
  const token = new Set(tokenScopes);
  const mandate = new Set(mandateScopes);
  const grants: ScopeGrant[] = SCOPES.map((scope) => {
    const missing: MissingReason[] = [];
    if (scope === PRINCIPAL_ONLY_SCOPE) missing.push('principal_only');
    else {
      if (!ceiling.has(scope)) missing.push('above_tier');
      if (!token.has(scope)) missing.push('not_in_token');
      if (!mandate.has(scope)) missing.push('not_in_mandate');
    }
    return { scope, granted: missing.length === 0, missing };
  });
  const effective = new Set(grants.filter((g) => g.granted).map((g) => g.scope));
  // Defence in depth: whatever a row holds, only agent scopes can ever be effective.
  for (const s of effective) if (!AGENT_SCOPES.includes(s)) effective.delete(s);
  return { tier, effective, grants };
}

/** The anonymous caller's permissions: nothing beyond public tools. */
export function anonymousPermissions(): Permissions {
  return computePermissions('anonymous', [], []);
}

/**
 * The principal in person (console or admin CLI, never a bearer token): their
 * tier's ceiling plus mandate:write, the one scope that is theirs alone.
 */
export function principalPermissions(tier: Tier): Permissions {
  const base = computePermissions(tier, TIER_CEILING[tier], TIER_CEILING[tier]);
  const effective = new Set<Scope>([...base.effective, PRINCIPAL_ONLY_SCOPE]);
  const grants = base.grants.map((g) =>
    g.scope === PRINCIPAL_ONLY_SCOPE ? { scope: g.scope, granted: true, missing: [] } : g,
  );
  return { tier, effective, grants };
}
