import { sendJson } from '../http-io.ts';
import { ANSWERED, type Answered, type Step } from '../../core/pipeline.ts';
import { tooManyRequests, type RateGate } from '../rate-limit.ts';
import type { Exchange, MountedHandler, OAuthEdge, Site } from './exchange.ts';

/**
 * The authorization server's paths, handed to it whole. Anyone may register a client or
 * ask for a token: those posts share the bucket of callers without a credential, per
 * address, so registrations cannot flood the store.
 */
export function oauthEndpoints(oauth: OAuthEdge | undefined, limiter: RateGate, site: Site): Step<Exchange> {
  return {
    name: 'oauth',
    run(x) {
      return oauth?.owns(x.path) ? serve(oauth, x) : x;
    },
  };
  async function serve(oauth: OAuthEdge, x: Exchange): Promise<Answered> {
    if (x.req.method === 'POST') {
      const decision = await limiter.take('anonymous', x.req.socket.remoteAddress ?? 'unknown');
      if (!decision.ok) {
        sendJson(x.res, 429, tooManyRequests('anonymous', decision), {
          'Retry-After': String(decision.retryAfterSeconds),
        });
        return ANSWERED;
      }
    }
    await oauth.handle(x.req, x.res, site.base);
    return ANSWERED;
  }
}

/** The console's paths: /console and below. */
export const isConsolePath = (path: string): boolean => path === '/console' || path.startsWith('/console/');

/** The principals' console under /console/, with its own pipeline (src/console/app.ts). */
export function consoleMount(handler: MountedHandler | undefined, site: Site): Step<Exchange> {
  return {
    name: 'console',
    run(x) {
      if (!handler || !isConsolePath(x.path)) return x;
      return handler(x.req, x.res, site.base).then((): Answered => ANSWERED);
    },
  };
}
