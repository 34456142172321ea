import type { Scope } from '../scopes.ts';
import type { MissingReason, Permissions } from './effective.ts';

export const MISSING_REASON_TEXT: Readonly<Record<MissingReason, string>> = {
  principal_only: 'only the principal may use it, through the console; no agent token ever carries it',
  above_tier: "it is above this caller's tier",
  not_in_token: 'the token was not issued with it',
  not_in_mandate: "the principal's mandate does not grant it",
};

/** Every reason a scope is missing, most fundamental first, as one phrase ("a; b"). */
export function whyMissing(missing: readonly MissingReason[]): string {
  return missing.map((m) => MISSING_REASON_TEXT[m]).join('; ');
}

/** One scope as get_mandate reports it: granted or not, and if not, why. */
type ScopeExplanation = {
  scope: Scope;
  granted: boolean;
  missing: MissingReason[];
  why: string | null;
};

/** Each scope of the club for this caller, with the reason for every one it lacks. */
export function explainScopes(permissions: Permissions): ScopeExplanation[] {
  return permissions.grants.map((g) => ({
    scope: g.scope,
    granted: g.granted,
    missing: g.missing,
    why: g.granted ? null : whyMissing(g.missing),
  }));
}
