import type { Registry } from '../../core/registry.ts';
import type { ToolContext } from '../../tools/index.ts';
import { sendJson } from '../http-io.ts';
import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { protectedResourceMetadata, tierCatalog } from '../public-docs.ts';
import { methodNotAllowed } from '../refusals.ts';
import { MCP_PATH, PRM_PATHS, type Exchange, type OAuthEdge, type Site } from './exchange.ts';

/** RFC 9728 metadata at both well-known paths, to anyone (it names the authorization server). */
export function protectedResource(site: Site, oauth: OAuthEdge | undefined): Step<Exchange> {
  return {
    name: 'protected-resource-metadata',
    run(x) {
      if (!PRM_PATHS.includes(x.path)) return x;
      if (x.req.method !== 'GET') methodNotAllowed(x.res, 'GET');
      else
        sendJson(
          x.res,
          200,
          protectedResourceMetadata(`${site.base}${MCP_PATH}`, oauth ? [oauth.issuer(site.base)] : []),
        );
      return ANSWERED;
    },
  };
}

/** GET /tiers: the public tier catalog. */
export function tiers(registry: Registry<ToolContext>, version: string): Step<Exchange> {
  return {
    name: 'tiers',
    run(x) {
      if (x.path !== '/tiers') return x;
      if (x.req.method !== 'GET') methodNotAllowed(x.res, 'GET');
      else sendJson(x.res, 200, tierCatalog(registry, version));
      return ANSWERED;
    },
  };
}

/** /healthz: the process answers; nothing else is asked (a load balancer's probe, GET or HEAD). */
export function healthz(): Step<Exchange> {
  return {
    name: 'healthz',
    run(x) {
      if (x.path !== '/healthz') return x;
      if (x.req.method === 'GET' || x.req.method === 'HEAD') sendJson(x.res, 200, { ok: true });
      else methodNotAllowed(x.res, 'GET, HEAD');
      return ANSWERED;
    },
  };
}
