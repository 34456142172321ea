import type { JsonObject } from '../../core/json.ts';
import { MISSING_REASON_TEXT, type Permissions } from '../../core/permissions.ts';
import type { Registry } from '../../core/registry.ts';

/**
 * For each tool: visible or not and, if not, exactly why (missing from the token,
 * from the mandate, above the tier, or the principal's own). Shared by get_mandate
 * and the diagnosis endpoint so both always say the same thing.
 */
export function explainTools<C>(registry: Registry<C>, permissions: Permissions): JsonObject[] {
  return registry.all().map((t) => {
    const scope = t.spec.scope;
    if (scope === null || permissions.effective.has(scope)) {
      return { name: t.spec.name, scope, visible: true, missing: [], why: null };
    }
    const grant = permissions.grants.find((g) => g.scope === scope);
    const missing = grant ? grant.missing : [];
    return {
      name: t.spec.name,
      scope,
      visible: false,
      missing,
      why: `needs ${scope}, which is not effective: ${missing.map((m) => MISSING_REASON_TEXT[m]).join('; ')}`,
    };
  });
}
