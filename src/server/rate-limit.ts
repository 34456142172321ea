/**
 * Per-caller rate limits: a token bucket per agent token, and one per client
 * address for callers without a credential (and for rejected credentials, so
 * guessing tokens is bounded too). Each bucket holds up to `burst` requests and
 * refills at `perSecond`. Buckets live in this process: with several replicas
 * each applies its own, so a caller spread across N replicas gets up to N times
 * the rate (see docs). The map of buckets is bounded; the least recently used
 * bucket is dropped first, and a dropped bucket comes back full.
 */

export interface Rate {
  /** Sustained requests per second; 0 turns this limit off. */
  perSecond: number;
  /** Requests allowed at once after a quiet spell. */
  burst: number;
}

export interface RateLimits {
  token: Rate;
  anonymous: Rate;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  token: { perSecond: 10, burst: 60 },
  anonymous: { perSecond: 5, burst: 30 },
};

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number; rate: Rate };

interface Bucket {
  tokens: number;
  at: number;
}

const MAX_BUCKETS = 100_000;

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    readonly limits: RateLimits,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Takes one request from the bucket of `key`, of the given kind. */
  take(kind: keyof RateLimits, key: string): RateDecision {
    const rate = this.limits[kind];
    if (rate.perSecond <= 0) return { ok: true };
    const id = `${kind}:${key}`;
    const now = this.clock();
    const bucket = this.#buckets.get(id);
    let tokens = rate.burst;
    if (bucket) {
      tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * rate.perSecond);
      this.#buckets.delete(id); // re-inserted below: Map order is recency order
    } else if (this.#buckets.size >= MAX_BUCKETS) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    const ok = tokens >= 1;
    this.#buckets.set(id, { tokens: ok ? tokens - 1 : tokens, at: now });
    if (ok) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rate.perSecond)), rate };
  }
}

/** The answer over the limit: a JSON-RPC error body MCP clients read, with the wait spelled out. */
export function tooManyRequests(kind: keyof RateLimits, decision: Extract<RateDecision, { ok: false }>) {
  const who = kind === 'token' ? 'this token' : 'this address (no credential)';
  return {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32000,
      message: `Too many requests: ${who} may make ${decision.rate.perSecond} requests a second, in bursts of up to ${decision.rate.burst}. Retry after ${decision.retryAfterSeconds} s.`,
      data: { reason: 'rate_limited', limit: kind, retry_after_seconds: decision.retryAfterSeconds },
    },
  };
}
