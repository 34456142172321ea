import type { Scope } from './scopes.ts';

export type Tier = 'anonymous' | 'candidate' | 'member';
const PRINCIPAL_STATUSES = ['candidate', 'member', 'suspended'] as const;
export type PrincipalStatus = (typeof PRINCIPAL_STATUSES)[number];

export const isPrincipalStatus = (s: string): s is PrincipalStatus =>
  (PRINCIPAL_STATUSES as readonly string[]).includes(s);

export const TIERS: readonly Tier[] = ['anonymous', 'candidate', 'member'];

/** What each tier may ever be granted. mandate:write is in no agent tier: it is the principal's, via the console. */
export const TIER_CEILING: Readonly<Record<Tier, readonly Scope[]>> = {
  anonymous: [],
  candidate: ['profile:write', 'evidence:write', 'inbox', 'mandate:read'],
  member: ['profile:write', 'evidence:write', 'inbox', 'mandate:read', 'consult', 'vouch'],
};

/** The tier a principal's agent gets; a suspended principal has none (its tokens are rejected, not downgraded). */
export function tierOfStatus(status: PrincipalStatus): Tier | null {
  if (status === 'suspended') return null;
  return status;
}
