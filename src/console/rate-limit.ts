/**
 * A fixed-window counter per key (the client address) for sign-in attempts. Kept in
 * the process: each replica limits on its own, which bounds guessing all the same,
 * since a link or passkey secret has 256 bits. Bounded: at most `maxKeys` entries.
 */
export class RateLimiter {
  readonly #hits = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    readonly maxKeys = 10_000,
  ) {}

  /** Counts one attempt; false when the key is over its limit for this window. */
  take(key: string, now: number): boolean {
    const hit = this.#hits.get(key);
    if (!hit || now - hit.start >= this.windowMs) {
      if (this.#hits.size >= this.maxKeys) this.#sweep(now);
      this.#hits.set(key, { start: now, count: 1 });
      return true;
    }
    hit.count++;
    return hit.count <= this.limit;
  }

  #sweep(now: number): void {
    for (const [k, v] of this.#hits) if (now - v.start >= this.windowMs) this.#hits.delete(k);
    // Still full: drop the oldest half rather than grow without bound.
    if (this.#hits.size >= this.maxKeys) {
      const keys = [...this.#hits.keys()].slice(0, Math.ceil(this.maxKeys / 2));
      for (const k of keys) this.#hits.delete(k);
    }
  }
}
