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

/**
 * What the buckets count is JSON-RPC messages, not HTTP requests: a batch takes one from
 * its caller's bucket per message it holds (steps/messages.ts), so batching buys no rate.
 */
export interface RateLimits {
  token: Rate;
  anonymous: Rate;
  /**
   * Tool calls a token may put on its principal's Activity record: the record keeps every
   * call younger than its age bound (store/activity.ts), so what bounds its size is this
   * bucket, never trimming young rows. A token past it is slowed (429 with the wait), not
   * recorded over. Unset: DEFAULT_RECORD_RATE.
   */
  record?: Rate;
}

/** 20,000 recorded calls a day per token, all of them at once if it likes. */
const DEFAULT_RECORD_RATE: Rate = { perSecond: 20_000 / 86_400, burst: 20_000 };

export const DEFAULT_RATE_LIMITS: RateLimits = {
  token: { perSecond: 10, burst: 60 },
  anonymous: { perSecond: 5, burst: 30 },
  record: DEFAULT_RECORD_RATE,
};

/** The buckets a caller takes from. */
export type RateKind = keyof RateLimits;

const rateOf = (limits: RateLimits, kind: RateKind): Rate => limits[kind] ?? DEFAULT_RECORD_RATE;

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number; rate: Rate };

/** What the HTTP edge asks before serving a request, and for each further message of a batch. */
export interface RateGate {
  /** Takes `count` (default 1) from the bucket, all or none. */
  take(kind: RateKind, key: string, count?: number): RateDecision | Promise<RateDecision>;
}

/** Seconds until a bucket holding `tokens` holds `count`. */
const retryAfter = (tokens: number, rate: Rate, count = 1): number =>
  Math.max(1, Math.ceil((count - tokens) / rate.perSecond));

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

  /** Takes `count` messages from the bucket of `key`, of the given kind: all of them, or none. */
  take(kind: RateKind, key: string, count = 1): RateDecision {
    const rate = rateOf(this.limits, kind);
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
    const ok = tokens >= count;
    this.#buckets.set(id, { tokens: ok ? tokens - count : tokens, at: now });
    if (ok) return { ok: true };
    return { ok: false, retryAfterSeconds: retryAfter(tokens, rate, count), rate };
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

  async take(kind: RateKind, key: string, count = 1): Promise<RateDecision> {
    const rate = rateOf(this.limits, kind);
    if (rate.perSecond <= 0) return { ok: true };
    const now = this.clock();
    if (++this.#takes % SWEEP_EVERY === 0) this.#sweep(now);
    const taken = await this.store.takeFromBucket(`${kind}:${key}`, rate, now, count);
    return taken.ok
      ? { ok: true }
      : { ok: false, retryAfterSeconds: retryAfter(taken.tokens, rate, count), rate };
  }

  #sweep(now: number): void {
    const rates: Rate[] = [this.limits.token, this.limits.anonymous, rateOf(this.limits, 'record')];
    const fullAfterMs = Math.max(...rates.map((r) => (r.perSecond > 0 ? (r.burst / r.perSecond) * 1000 : 0)));
    this.store.sweepBuckets(now - fullAfterMs - 1000).catch(this.onSweepError);
  }
}

/** The answer over the limit: a JSON-RPC error body MCP clients read, with the wait spelled out. */
export function tooManyRequests(kind: RateKind, decision: Extract<RateDecision, { ok: false }>, count = 1) {
  const asked =
    count > decision.rate.burst
      ? ` This request holds ${count} messages, more than the bucket ever holds: send at most ${decision.rate.burst} at once.`
      : count > 1
        ? ` This request holds ${count} messages, and each counts.`
        : '';
  const message =
    kind === 'record'
      ? `Too many calls recorded: this token may put ${decision.rate.burst} tool calls a day on its principal's Activity record, and has.${asked} Retry after ${decision.retryAfterSeconds} s.`
      : `Too many requests: ${kind === 'token' ? 'this token' : 'this address (no credential)'} may make ${decision.rate.perSecond} requests a second, in bursts of up to ${decision.rate.burst}; every message of a batch counts as one.${asked} Retry after ${decision.retryAfterSeconds} s.`;
  return {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32000,
      message,
      data: { reason: 'rate_limited', limit: kind, retry_after_seconds: decision.retryAfterSeconds },
    },
  };
}
