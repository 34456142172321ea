import type { Scope } from '../scopes.ts';
import type { Tier } from '../tiers.ts';
import { computePermissions, type MissingReason, type Permissions } from './effective.ts';
import { whyMissing } from './why.ts';

/** What policy needs of the tool registry: each tool's name and scope, and the view of a set of scopes. */
export interface ToolCatalog {
  all(): readonly { spec: { name: string; scope: Scope | null } }[];
  list(effective: ReadonlySet<Scope>): readonly { name: string }[];
}

/** One tool as get_mandate and /diagnose explain it. */
type ToolExplanation = {
  name: string;
  scope: Scope | null;
  visible: boolean;
  missing: MissingReason[];
  why: string | null;
};

/**
 * For each tool: visible or not and, if not, exactly why (missing from the token,
 * from the mandate, above the tier, or the principal's own). Shared by get_mandate
 * and the diagnosis endpoint so both always say the same thing.
 */
export function explainTools(registry: ToolCatalog, permissions: Permissions): ToolExplanation[] {
  return registry.all().map((t) => {
    const scope = t.spec.scope;
    if (scope === null || permissions.effective.has(scope)) {
      return { name: t.spec.name, scope, visible: true, missing: [], why: null };
    }
    const missing = permissions.grants.find((g) => g.scope === scope)?.missing ?? [];
    return {
      name: t.spec.name,
      scope,
      visible: false,
      missing,
      why: `needs ${scope}, which is not effective: ${whyMissing(missing)}`,
    };
  });
}

/**
 * The tools a token sees today, computed exactly as a request would (token ∩ mandate ∩
 * tier through the registry): what every preview shows, so none of them guesses.
 * A suspended principal (no tier) sees nothing.
 */
export function toolsSeen(
  registry: ToolCatalog,
  tier: Tier | null,
  tokenScopes: readonly string[],
  mandateScopes: readonly string[],
): string[] {
  if (tier === null) return [];
  return registry.list(computePermissions(tier, tokenScopes, mandateScopes).effective).map((t) => t.name);
}
