import type { Registry } from '../core/registry.ts';
import type { Store } from '../store/contract.ts';
import type { ToolContext } from '../tools/index.ts';
import type { FastPath } from './fast-path.ts';
import { pipeline, type Edge } from '../core/pipeline.ts';
import type { RateGate } from './rate-limit.ts';
import { authenticateCaller } from './steps/authenticate.ts';
import { readBounded } from './steps/body.ts';
import { refuseRejectedCredential } from './steps/credential.ts';
import { diagnose } from './steps/diagnose.ts';
import type { Exchange, MountedHandler, OAuthEdge, Site } from './steps/exchange.ts';
import { fastPath } from './steps/fast-path.ts';
import { hostGuard } from './steps/host.ts';
import { mcpPathsOnly } from './steps/mcp-paths.ts';
import { countMessages } from './steps/messages.ts';
import { consoleMount, isConsolePath, oauthEndpoints } from './steps/mounts.ts';
import { originGuard } from './steps/origin.ts';
import { postOnly } from './steps/post-only.ts';
import { toPublicOrigin } from './steps/public-origin.ts';
import { healthz, protectedResource, tiers } from './steps/public-docs.ts';
import { rateLimit } from './steps/rate-limit.ts';
import { screen } from './steps/screen.ts';
import { sdk, type SdkHandler } from './steps/sdk.ts';
import { requireSignIn } from './steps/sign-in.ts';
import { stepUp } from './steps/step-up.ts';

export interface EdgeDeps {
  site: Site;
  store: Store;
  registry: Registry<ToolContext>;
  version: string;
  now: () => Date;
  limiter: RateGate;
  maxBody: number;
  anonymousMaxBody: number;
  requireSignIn: boolean;
  oauth: OAuthEdge | undefined;
  console: MountedHandler | undefined;
  fast: FastPath | null;
  sdk: SdkHandler;
}

/**
 * Warden's HTTP edge, in the order that is its security model. Nothing is served to a
 * foreign Host or Origin; the public documents come next, then the mounted console and
 * authorization server, whose pages for people are served at the public origin only; then
 * /mcp and /diagnose learn who is asking, spend its rate, refuse a bad credential, and only
 * then read, screen and serve a body.
 */
export function mcpEdge(d: EdgeDeps): Edge<Exchange> {
  return pipeline<Exchange>()
    .then(hostGuard(d.site))
    .then(originGuard(d.site))
    .then(protectedResource(d.site, d.oauth))
    .then(tiers(d.registry, d.version))
    .then(healthz())
    .then(
      toPublicOrigin(
        d.site,
        (path) => (d.console !== undefined && isConsolePath(path)) || d.oauth?.owns(path) === true,
      ),
    )
    .then(oauthEndpoints(d.oauth, d.limiter, d.site))
    .then(consoleMount(d.console, d.site))
    .then(mcpPathsOnly(d.oauth !== undefined))
    .then(authenticateCaller(d.store, d.now, d.oauth, d.site))
    .then(rateLimit(d.limiter))
    .then(refuseRejectedCredential(d.site))
    .then(diagnose(d.registry))
    .then(requireSignIn(d.requireSignIn && d.oauth !== undefined, d.site))
    .then(postOnly())
    .then(readBounded(d.maxBody, d.anonymousMaxBody))
    .then(screen())
    .then(countMessages(d.limiter))
    .then(stepUp(d.registry, d.oauth, d.site))
    .then(fastPath(d.fast))
    .end(sdk(d.sdk));
}
