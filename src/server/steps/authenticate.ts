import type { Store } from '../../store/contract.ts';
import { authenticate } from '../auth.ts';
import type { Step } from '../../core/pipeline.ts';
import type { Authenticated, Exchange, OAuthEdge, Site } from './exchange.ts';

/**
 * Who is asking, read from the store now (nothing cached): anonymous without a header,
 * an agent, or a rejected credential. It refuses nothing itself, so the rate limit after
 * it counts a rejected credential against the client's address.
 */
export function authenticateCaller(
  store: Store,
  now: () => Date,
  oauth: OAuthEdge | undefined,
  site: Site,
): Step<Exchange, Authenticated> {
  const resolve = oauth ? (token: string) => oauth.resolve(token, site.base) : undefined;
  return {
    name: 'authenticate',
    async run(x) {
      const auth = await authenticate(store, x.req.headers.authorization, now(), resolve);
      return Object.assign(x, { auth });
    },
  };
}
