import type { JsonObject } from '../core/json.ts';
import type { Registry } from '../core/registry.ts';
import { AGENT_SCOPES, SCOPES } from '../core/scopes.ts';
import { TIER_CEILING, TIERS } from '../core/tiers.ts';
import type { ToolContext } from '../tools/index.ts';

/** The public tier catalog (GET /tiers): every tool, its scope and the tiers that may see it. */
export function tierCatalog(registry: Registry<ToolContext>, version: string): JsonObject {
  const tools = registry.catalog();
  return {
    server: 'warden',
    version,
    scopes: [...SCOPES],
    agent_scopes: [...AGENT_SCOPES],
    tiers: Object.fromEntries(
      TIERS.map((tier) => {
        const names = tools.filter((t) => t.tiers.includes(tier)).map((t) => t.name);
        return [tier, { ceiling: [...TIER_CEILING[tier]], tools: names, count: names.length }];
      }),
    ),
    tools: tools.map((t) => ({ name: t.name, title: t.title, scope: t.scope, tiers: t.tiers })),
    total: tools.length,
  };
}

/** RFC 9728 protected-resource metadata for the MCP endpoint. */
export function protectedResourceMetadata(resource: string, authorizationServers: string[] = []): JsonObject {
  return {
    resource,
    authorization_servers: authorizationServers,
    scopes_supported: [...AGENT_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Warden club',
    resource_documentation: `${new URL(resource).origin}/tiers`,
  };
}
