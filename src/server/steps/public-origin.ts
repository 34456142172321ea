import { isPublicHost } from '../../core/public-origin.ts';
import { ANSWERED, type Step } from '../../core/pipeline.ts';
import type { Exchange, Site } from './exchange.ts';

/**
 * A person's page (the console, the authorization server's pages) is served only at the
 * public origin: a request that reached this server by another of its names (127.0.0.1 for
 * localhost, the bind address behind a proxy) is sent there, path and query unchanged,
 * before any page runs. So a sign-in link opened at the wrong address is not spent there,
 * and the passkey ceremony always runs where its relying party is. 307 keeps the method and
 * body; `no-store`, because the public origin is configuration and may change.
 *
 * It runs after the Host and Origin guards: a Host they refuse (DNS rebinding) is never
 * redirected anywhere. Agents' endpoints (/mcp and the documents beside it) are not people's
 * pages and answer at any name the guards accept.
 */
export function toPublicOrigin(site: Site, forPeople: (path: string) => boolean): Step<Exchange> {
  return {
    name: 'public-origin',
    run(x) {
      if (!forPeople(x.path) || isPublicHost(x.req.headers.host, site.base)) return x;
      const url = x.req.url ?? '/';
      const location = `${site.base}${url.startsWith('/') ? url : x.path}`;
      x.res.writeHead(307, {
        location,
        'cache-control': 'no-store',
        'content-type': 'text/plain; charset=utf-8',
      });
      x.res.end(`This page is at ${location}\n`);
      return ANSWERED;
    },
  };
}
