import type { Store } from '../store/contract.ts';

/**
 * Per-caller rate limits: a token bucket per agent token, and one per client
 * address for callers without a credential (and for rejected credentials, so
 * guessing tokens is bounded too). Each bucket holds up to `burst` requests and
 * refills at `perSecond`. By default buckets live in this process: with several
 * replicas each applies its own, so a caller spread across N replicas gets up to N
 * times the rate (see docs). The map of buckets is bounded; the least recently used
 * bucket is dropped first, and a dropped bucket comes back full. The shared mode
 * keeps them in the store instead (StoreRateLimiter).
 */

interface Rate {
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

/** What the HTTP edge asks before serving a request. */
export interface RateGate {
  take(kind: keyof RateLimits, key: string): RateDecision | Promise<RateDecision>;
}

/** Seconds until a bucket holding `tokens` holds one. */
const retryAfter = (tokens: number, rate: Rate): number =>
  Math.max(1, Math.ceil((1 - tokens) / rate.perSecond));

interface Bucket {
  tokens: number;
  at: number;
}

const MAX_BUCKETS = 100_000;

export class RateLimiter implements RateGate {
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
    return { ok: false, retryAfterSeconds: retryAfter(tokens, rate), rate };
  }
}

/** Takes between sweeps of idle buckets from the store. */
const SWEEP_EVERY = 1_000;

/**
 * The shared mode: every replica takes from the same bucket, one conditional write in
 * the store per request (so the limit holds across replicas, at the cost of that write).
 * Buckets idle long enough to be full again are swept now and then, so the table stays
 * as small as the set of recent callers.
 */
export class StoreRateLimiter implements RateGate {
  #takes = 0;

  constructor(
    readonly limits: RateLimits,
    private readonly store: Store,
    private readonly onSweepError: (err: unknown) => void,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  async take(kind: keyof RateLimits, key: string): Promise<RateDecision> {
    const rate = this.limits[kind];
    if (rate.perSecond <= 0) return { ok: true };
    const now = this.clock();
    if (++this.#takes % SWEEP_EVERY === 0) this.#sweep(now);
    const taken = await this.store.takeFromBucket(`${kind}:${key}`, rate, now);
    return taken.ok ? { ok: true } : { ok: false, retryAfterSeconds: retryAfter(taken.tokens, rate), rate };
  }

  #sweep(now: number): void {
    const fullAfterMs = Math.max(
      ...Object.values(this.limits).map((r: Rate) => (r.perSecond > 0 ? (r.burst / r.perSecond) * 1000 : 0)),
    );
    this.store.sweepBuckets(now - fullAfterMs - 1000).catch(this.onSweepError);
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
