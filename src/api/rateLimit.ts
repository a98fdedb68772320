// Per-process token buckets: order creation and reads per API token, failed authentications per
// client address. Kept in memory: each API process limits on its own (docs/decisions.md).
import { createHash } from 'node:crypto';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { AuthenticationError, RateLimitedError } from '../contracts/failures.js';

/** Requests per minute; a bucket holds one minute's worth, so bursts up to that pass. 0: no limit. */
export interface RateLimits {
  /** Order creation (POST /api/v4/<product>) per API token. */
  createPerMinute: number;
  /** Reads (GET /api/v4/…) per API token. */
  readsPerMinute: number;
  /** Failed authentications per client address; past it, the address is refused until it refills. */
  failedAuthPerMinute: number;
  /** Sign-in attempts to the account area (/account/sign-in) per client address; default DEFAULT_SIGN_IN_PER_MINUTE. */
  signInPerMinute?: number;
}

export const DEFAULT_SIGN_IN_PER_MINUTE = 10;

export const DEFAULT_RATE_LIMITS: RateLimits = { createPerMinute: 60, readsPerMinute: 600, failedAuthPerMinute: 30 };

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

const tokenOf = (req: Request): unknown => (req.body as Record<string, unknown> | undefined)?.api_token ?? req.query?.api_token;
// Hashed: the limiter's memory holds no usable token.
const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');
const addressOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? '';

export function rateLimiter(limits: RateLimits): { limit: RequestHandler; countFailures: ErrorRequestHandler } {
  const creates = new TokenBuckets(limits.createPerMinute);
  const reads = new TokenBuckets(limits.readsPerMinute);
  const failures = new TokenBuckets(limits.failedAuthPerMinute);

  const limit: RequestHandler = (req, _res, next) => {
    if (!req.path.startsWith('/api/') && !req.path.startsWith('/ops/')) return next();
    const blocked = failures.check(addressOf(req), false);
    if (blocked) throw new RateLimitedError(`too many failed authentications from this address; retry in ${blocked} s`, blocked);
    const token = tokenOf(req);
    if (typeof token !== 'string' || token === '' || !req.path.startsWith('/api/')) return next();
    const [buckets, what] = req.method === 'POST' ? [creates, 'orders'] : [reads, 'reads'];
    const wait = buckets.check(keyOf(token), true);
    if (wait) throw new RateLimitedError(`rate limit: at most ${buckets.perMinute} ${what} per minute for this API token; retry in ${wait} s`, wait);
    next();
  };

  const countFailures: ErrorRequestHandler = (err, req, _res, next) => {
    if (err instanceof AuthenticationError) failures.check(addressOf(req), true);
    next(err);
  };
  return { limit, countFailures };
}
