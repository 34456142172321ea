import { AGENT_SCOPES } from '../../core/scopes.ts';
import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { sendChallenge } from '../refusals.ts';
import { resourceMetadataUrl, SIGN_IN_PATH, type Served, type Site } from './exchange.ts';

/**
 * Where a request without a credential is answered 401 with the sign-in challenge, so that
 * clients that authorize only when told start OAuth: everywhere under serve
 * --require-sign-in (no anonymous tier), and always at the sign-in address, /mcp/sign-in,
 * which an OAuth host is given instead of /mcp. /mcp itself keeps its anonymous tier.
 */
export function requireSignIn(required: boolean, site: Site): Step<Served> {
  return {
    name: 'require-sign-in',
    run(x) {
      if (x.auth.kind !== 'anonymous') return x;
      const at = required ? 'server' : x.path === SIGN_IN_PATH ? 'address' : null;
      if (at === null) return x;
      sendChallenge(
        x.res,
        { kind: 'sign_in', scopes: AGENT_SCOPES, required: at },
        resourceMetadataUrl(site),
      );
      return ANSWERED;
    },
  };
}
