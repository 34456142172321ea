import { toolsSeen as seenByTier, type ToolCatalog } from '../core/policy/index.ts';
import type { Scope } from '../core/scopes.ts';
import { tierOfStatus } from '../core/tiers.ts';
import type { PrincipalRecord, TokenRecord } from '../store/contract.ts';

/**
 * What a token really sees, computed exactly as a request would (token ∩ mandate ∩
 * tier through the registry): the console's previews never guess.
 */
export function toolsSeen(
  registry: ToolCatalog,
  principal: PrincipalRecord,
  tokenScopes: readonly string[],
  mandateScopes: readonly string[],
): string[] {
  return seenByTier(registry, tierOfStatus(principal.status), tokenScopes, mandateScopes);
}

export interface TokenEffect {
  token: TokenRecord;
  before: string[];
  after: string[];
  gained: string[];
  lost: string[];
}

/** For each live token: the tools it sees under the current mandate scopes and under the proposed ones. */
export function mandateEffect(
  registry: ToolCatalog,
  principal: PrincipalRecord,
  tokens: readonly TokenRecord[],
  current: readonly Scope[],
  proposed: readonly Scope[],
): TokenEffect[] {
  return tokens.map((token) => {
    const before = toolsSeen(registry, principal, token.scopes, current);
    const after = toolsSeen(registry, principal, token.scopes, proposed);
    return {
      token,
      before,
      after,
      gained: after.filter((t) => !before.includes(t)),
      lost: before.filter((t) => !after.includes(t)),
    };
  });
}

/** A token an agent can still use now: not revoked, not expired. */
export function isLive(t: TokenRecord, now: Date): boolean {
  return !t.revokedAt && (!t.expiresAt || Date.parse(t.expiresAt) > now.getTime());
}
