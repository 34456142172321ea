import type { JsonObject } from '../core/json.ts';
import type { Registry } from '../core/registry.ts';
import { TIER_CEILING } from '../core/tiers.ts';
import type { ToolContext } from '../tools/index.ts';
import { explainTools } from '../core/policy/index.ts';
import { newWrapper } from '../untrusted/index.ts';
import type { Authentication, HeaderShape } from './auth.ts';

/**
 * GET /diagnose: what this very caller gets and why. It speaks only of the caller's
 * own token and principal; a caller without a header learns only that.
 */
export function diagnosis(
  auth: Authentication,
  shape: HeaderShape,
  registry: Registry<ToolContext>,
): JsonObject {
  const total = registry.all().length;
  if (auth.kind === 'anonymous') {
    return {
      server: 'warden',
      header: { present: false, shape },
      tier: 'anonymous',
      reason: 'no Authorization header arrived with this request',
      visible: registry.list(auth.caller.permissions.effective).length,
      total,
    };
  }
  if (auth.kind !== 'agent' || auth.caller.kind !== 'agent')
    throw new Error('diagnosis of a rejected credential');
  const { token, principal, mandate } = auth.credential;
  const p = auth.caller.permissions;
  const tools = explainTools(registry, p);
  return {
    server: 'warden',
    header: { present: true, shape },
    tier: p.tier,
    reason:
      token.origin === 'oauth'
        ? `a valid OAuth connection of client ${token.clientId ?? '?'}, of ${principal.status} ${principal.handle}`
        : `a valid token of ${principal.status} ${principal.handle}`,
    token: {
      id: token.id,
      // Chosen by the principal: wrapped like any member text.
      label: newWrapper().wrap(token.label),
      created_at: token.createdAt,
      expires_at: token.expiresAt,
      revoked_at: token.revokedAt,
      last_used_at: token.lastUsedAt,
      origin: token.origin,
      client_id: token.clientId,
    },
    principal: { handle: principal.handle, status: principal.status },
    scopes: {
      token: token.scopes,
      mandate: mandate.scopes,
      tier_ceiling: [...TIER_CEILING[p.tier]],
      effective: [...p.effective],
    },
    tools,
    visible: tools.filter((t) => t['visible'] === true).length,
    total,
  };
}
