// The account area's session: a random id in an HttpOnly cookie, the session (account, CSRF
// token, expiry) in the database (src/db/sessions.ts). Every POST carries the session's CSRF
// token in a hidden `csrf` field; SameSite=Lax keeps the cookie off cross-site POSTs as well.
import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { ApiDeps } from '../api/context.js';
import type { AccountRow } from '../db/schema.js';
import { getAccount } from '../db/accounts.js';
import { findSession } from '../db/sessions.js';
import { PageError } from './errors.js';

export const SESSION_COOKIE = 'order_session';
export const SESSION_TTL_MS = 12 * 3_600_000;

/** What a signed-in request carries (res.locals.signed). */
export interface Signed { account: AccountRow; csrf: string; sessionId: string }

export function signedIn(res: Response): Signed {
  return res.locals.signed as Signed;
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    // The first of two same-named cookies wins (the most specific path comes first).
    if (!cookies.has(name)) cookies.set(name, part.slice(eq + 1).trim());
  }
  return cookies;
}

/**
 * Secure when the page is served over https: TLS here, a proxy saying so (X-Forwarded-Proto, only
 * ever adds the flag), or a public URL that is https.
 */
export function isHttps(req: Request, publicBaseUrl: string): boolean {
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]!.trim().toLowerCase();
  return req.secure || forwarded === 'https' || publicBaseUrl.startsWith('https:');
}

/** A cookie scoped to the account area; maxAgeSeconds 0 removes it. */
export function setCookie(res: Response, secure: boolean, name: string, value: string, maxAgeSeconds: number): void {
  const attributes = [`${name}=${value}`, 'Path=/account', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (secure) attributes.push('Secure');
  res.append('Set-Cookie', attributes.join('; '));
}

const FLASH_COOKIE = 'order_flash';

/**
 * A message for the page a POST redirects to (post/redirect/get, the URL stays the page's own):
 * only a code travels, the text is the page's; read once.
 */
export function setFlash(req: Request, res: Response, publicBaseUrl: string, code: string): void {
  setCookie(res, isHttps(req, publicBaseUrl), FLASH_COOKIE, code, 60);
}

export function takeFlash(req: Request, res: Response, publicBaseUrl: string): string | undefined {
  const code = parseCookies(req.headers.cookie).get(FLASH_COOKIE);
  if (code === undefined) return undefined;
  setCookie(res, isHttps(req, publicBaseUrl), FLASH_COOKIE, '', 0);
  return /^[a-z-]{1,32}$/.test(code) ? code : undefined;
}

export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The signed-in account, or a 303 to the sign-in page; a POST without the session's CSRF token is refused (403). */
export function requireSession(deps: ApiDeps): RequestHandler {
  return async (req, res, next) => {
    const id = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    const session = id ? await findSession(deps.db, id) : undefined;
    const account = session ? await getAccount(deps.db, session.accountId) : undefined;
    if (!id || !session || !account) return void res.redirect(303, '/account/sign-in');
    res.locals.signed = { account, csrf: session.csrfToken, sessionId: id } satisfies Signed;
    if (req.method === 'POST' && !sameToken((req.body as Record<string, unknown> | undefined)?.csrf, session.csrfToken)) {
      throw new PageError(403, 'This form has expired or did not come from this site. Reload the page and try again.');
    }
    next();
  };
}
