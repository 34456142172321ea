import type { Scope } from '../scopes.ts';
import { tierOfStatus, type PrincipalStatus } from '../tiers.ts';
import type { Permissions } from './effective.ts';
import { issuableScopes } from './issuable.ts';

/**
 * Scopes a principal may grant an agent on the consent page now: what a token of
 * their tier may carry, within their mandate (granting a scope the mandate withholds
 * would give the client nothing it could use). A suspended principal grants nothing.
 */
export function grantableScopes(status: PrincipalStatus, mandateScopes: readonly string[]): Scope[] {
  const tier = tierOfStatus(status);
  if (tier === null) return [];
  return issuableScopes(tier).filter((s) => mandateScopes.includes(s));
}

/**
 * What an OAuth connection could still be granted (step-up, RFC 6750 insufficient_scope):
 * grantable to its principal now, and not yet effective for it.
 */
export function stepUpScopes(permissions: Permissions, mandateScopes: readonly string[]): Scope[] {
  return issuableScopes(permissions.tier).filter(
    (s) => mandateScopes.includes(s) && !permissions.effective.has(s),
  );
}

/** Scope names that ask for a kind of token, not a power: never offered as a scope to tick. */
const PROTOCOL_SCOPES: readonly string[] = ['offline_access', 'openid'];

/** What the consent page puts before the principal for one authorization request. */
export interface ConsentOffer {
  /** The scopes to tick: asked for (everything grantable when nothing was asked) and grantable. */
  offered: Scope[];
  /** Asked for but not offered: above the tier, outside the mandate, mandate:write, or unknown. */
  notOffered: string[];
  /** The client asked for offline_access: it may renew its access until disconnected. */
  staysConnected: boolean;
}

export function consentOffer(requested: readonly string[], grantable: readonly Scope[]): ConsentOffer {
  const asked: readonly string[] = requested.length ? requested : grantable;
  const offered = grantable.filter((s) => asked.includes(s));
  const notOffered = [
    ...new Set(asked.filter((s) => !offered.includes(s as Scope) && !PROTOCOL_SCOPES.includes(s))),
  ];
  return { offered, notOffered, staysConnected: requested.includes('offline_access') };
}

/**
 * What consent grants: exactly the offered scopes that were chosen, in canonical
 * order. Anything else a form carries (a scope the page never showed, an unknown
 * name) is dropped, so the connection's record and the client's tokens agree.
 */
export function consentedScopes(chosen: readonly string[], offered: readonly Scope[]): Scope[] {
  const picked = new Set(chosen);
  return offered.filter((s) => picked.has(s));
}
