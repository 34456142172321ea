import { AGENT_SCOPES } from '../../core/scopes.ts';
import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { sendChallenge } from '../refusals.ts';
import { resourceMetadataUrl, type Served, type Site } from './exchange.ts';

/**
 * serve --require-sign-in: no anonymous tier. A request without a credential is answered
 * 401 with the sign-in challenge, so clients that authorize only when told start OAuth.
 */
export function requireSignIn(required: boolean, site: Site): Step<Served> {
  return {
    name: 'require-sign-in',
    run(x) {
      if (!required || x.auth.kind !== 'anonymous') return x;
      sendChallenge(
        x.res,
        { kind: 'sign_in', scopes: AGENT_SCOPES, required: true },
        resourceMetadataUrl(site),
      );
      return ANSWERED;
    },
  };
}
