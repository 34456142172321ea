import type { Registry } from '../../core/registry.ts';
import type { ToolContext } from '../../tools/index.ts';
import { calledToolName, challengeFor } from '../challenge.ts';
import { ANSWERED, type Step } from '../../core/pipeline.ts';
import { sendChallenge } from '../refusals.ts';
import { resourceMetadataUrl, type OAuthEdge, type Parsed, type Site } from './exchange.ts';

/**
 * On a server that is its own authorization server, a tools/call outside the caller's
 * view asks for authorization (sign in, or more scopes) instead of answering "not found";
 * the answer depends on the caller only, never on the name (challenge.ts).
 */
export function stepUp(
  registry: Registry<ToolContext>,
  oauth: OAuthEdge | undefined,
  site: Site,
): Step<Parsed> {
  return {
    name: 'step-up',
    run(x) {
      if (!oauth) return x;
      const called = calledToolName(x.message);
      const challenge = called === null ? null : challengeFor(registry, x.auth.caller, called);
      if (!challenge) return x;
      sendChallenge(x.res, challenge, resourceMetadataUrl(site));
      return ANSWERED;
    },
  };
}
