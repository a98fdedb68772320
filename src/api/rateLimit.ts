// Per-process token buckets: order creation and reads per API token, failed authentications per
// client address (src/http/clientAddress.ts). Kept in memory: each API process limits on its own (docs/decisions/rate-limits.md).
import { createHash } from 'node:crypto';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { AuthenticationError, RateLimitedError } from '../contracts/failures.js';
import { DEFAULT_RATE_LIMITS, TokenBuckets } from '../http/tokenBuckets.js';
import { clientAddress } from '../http/clientAddress.js';

/** Requests per minute; a bucket holds one minute's worth, so bursts up to that pass. 0: no limit. */
export interface RateLimits {
  /** Order creation (POST /api/v4/<product>) per API token. */
  createPerMinute: number;
  /** Reads (GET /api/v4/…) per API token. */
  readsPerMinute: number;
  /** Failed authentications per client address; past it, the address is refused until it refills. */
  failedAuthPerMinute: number;
  /** Sign-in attempts to the account area (/account/sign-in) per client address; default DEFAULT_SIGN_IN_PER_MINUTE (src/http/tokenBuckets.ts). */
  signInPerMinute?: number;
}

export { DEFAULT_RATE_LIMITS };

const tokenOf = (req: Request): unknown => (req.body as Record<string, unknown> | undefined)?.api_token ?? req.query?.api_token;
// Hashed: the limiter's memory holds no usable token.
const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export function rateLimiter(limits: RateLimits): { limit: RequestHandler; refuseBlocked: RequestHandler; countFailures: ErrorRequestHandler } {
  const creates = new TokenBuckets(limits.createPerMinute);
  const reads = new TokenBuckets(limits.readsPerMinute);
  const failures = new TokenBuckets(limits.failedAuthPerMinute);

  const limit: RequestHandler = (req, _res, next) => {
    if (!req.path.startsWith('/api/') && !req.path.startsWith('/ops/')) return next();
    const blocked = failures.check(clientAddress(req), false);
    if (blocked) throw new RateLimitedError(`too many failed authentications from this address; retry in ${blocked} s`, blocked);
    const token = tokenOf(req);
    if (typeof token !== 'string' || token === '' || !req.path.startsWith('/api/')) return next();
    const [buckets, what] = req.method === 'POST' ? [creates, 'orders'] : [reads, 'reads'];
    const wait = buckets.check(keyOf(token), true);
    if (wait) throw new RateLimitedError(`rate limit: at most ${buckets.perMinute} ${what} per minute for this API token; retry in ${wait} s`, wait);
    next();
  };

  /** Only the failed-authentication limit (uploads, whose body is the file and whose token is not in it). */
  const refuseBlocked: RequestHandler = (req, _res, next) => {
    const blocked = failures.check(clientAddress(req), false);
    if (blocked) throw new RateLimitedError(`too many failed authentications from this address; retry in ${blocked} s`, blocked);
    next();
  };

  const countFailures: ErrorRequestHandler = (err, req, _res, next) => {
    if (err instanceof AuthenticationError) failures.check(clientAddress(req), true);
    next(err);
  };
  return { limit, refuseBlocked, countFailures };
}
