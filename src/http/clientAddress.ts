// The client's address, one notion for every limit kept per address (the API's failed
// authentications, sign-in attempts, share links): the socket's peer, or, when TRUST_PROXY names the
// proxy in front (src/config.ts), the address that proxy puts in X-Forwarded-For. Express's
// `trust proxy` (set in src/app.ts) works it out as req.ip; a header from anyone else is ignored, or
// any client could pick its own bucket.
import { isIP } from 'node:net';
import type { Request } from 'express';

/** Express's `trust proxy`: false (the socket's peer), a number of proxy hops, or the proxies' addresses, CIDRs and names. */
export type TrustProxy = false | number | string[];

/** The names proxy-addr (Express's `trust proxy`) knows as ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? '';

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as Express takes it: unset, empty or `false`, trust no proxy; a whole number, that many
 * proxy hops in front; else a comma-separated list of the proxies' addresses, CIDRs or the names
 * loopback, linklocal, uniquelocal. `true` (every hop, any client's header) is refused.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true')
    throw new Error('TRUST_PROXY=true would believe any client’s X-Forwarded-For; name the proxies (addresses, CIDRs) or their number of hops');
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.find((entry) => !isAddressOrCidr(entry));
  if (wrong !== undefined) throw new Error(`TRUST_PROXY: ${JSON.stringify(wrong)} is not an address, a CIDR, or one of ${[...RANGE_NAMES].join(', ')}`);
  return entries;
}
