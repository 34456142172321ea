import { sendJson } from '../http-io.ts';
import { ANSWERED, type Answered, type Step } from '../../core/pipeline.ts';
import { tooManyRequests, type RateDecision, type RateGate, type RateKind } from '../rate-limit.ts';
import type { Authenticated } from './exchange.ts';

/**
 * A token's own bucket; without a valid one, the client address's (bad tokens included,
 * so guessing tokens is bounded too). Over the limit: 429 with Retry-After.
 */
export function rateLimit(limiter: RateGate): Step<Authenticated> {
  return {
    name: 'rate-limit',
    run(x) {
      const auth = x.auth;
      const kind = auth.kind === 'agent' ? 'token' : 'anonymous';
      const key =
        auth.kind === 'agent' ? auth.credential.token.id : (x.req.socket.remoteAddress ?? 'unknown');
      // The in-process limiter answers at once: no await on the hot path.
      const decision = limiter.take(kind, key);
      return decision instanceof Promise
        ? decision.then((d) => decide(x, kind, d))
        : decide(x, kind, decision);
    },
  };
}

function decide(x: Authenticated, kind: RateKind, d: RateDecision): Authenticated | Answered {
  if (d.ok) return x;
  sendJson(x.res, 429, tooManyRequests(kind, d), { 'Retry-After': String(d.retryAfterSeconds) });
  return ANSWERED;
}
