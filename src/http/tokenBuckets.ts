// Token buckets kept in memory, per key (an API token, a client address): the rate limits of the API
// (src/api/rateLimit.ts) and of the account area's sign-in (src/web/signInRoutes.ts). Each process
// limits on its own (docs/decisions/rate-limits.md).

/**
 * The API's limits unless configured (src/api/rateLimit.ts, src/config.ts), which a share link's reads
 * follow too (src/web/shared.ts): per minute, 0 for none.
 */
export const DEFAULT_RATE_LIMITS = { createPerMinute: 60, readsPerMinute: 600, failedAuthPerMinute: 30 } as const;

/** Sign-in attempts to the account area per client address and minute, unless configured. */
export const DEFAULT_SIGN_IN_PER_MINUTE = 10;

/** Buckets beyond this are dropped least recently used first, so random tokens cannot grow memory. */
const MAX_KEYS = 100_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` has a token (0: it has one); `take` spends it. */
  check(key: string, take: boolean): number {
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    const old = this.buckets.get(key);
    const tokens = Math.min(this.perMinute, old ? old.tokens + ((now - old.at) * this.perMinute) / 60_000 : this.perMinute);
    if (tokens < 1) return Math.ceil(((1 - tokens) * 60) / this.perMinute);
    if (!take) return 0;
    this.buckets.delete(key); // re-inserted last: the map's order is least recently used first
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.buckets.size > MAX_KEYS) this.buckets.delete(this.buckets.keys().next().value!);
    return 0;
  }
}
