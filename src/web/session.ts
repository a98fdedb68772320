// Sessions of the account area (/account) and the workbench (/work), one code: a random id in an
// HttpOnly cookie scoped to its area, the session (account or worker, CSRF token, expiry) in the
// database (src/db/sessions.ts). Every POST carries the session's CSRF
// token in a hidden `csrf` field; SameSite=Lax keeps the cookie off cross-site POSTs as well.
import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { WebDeps } from './context.js';
import type { AccountRow, AccountSessionRow } from '../db/schema.js';
import { getAccount } from '../db/accounts.js';
import { findSession } from '../db/sessions.js';
import { PageError } from './errors.js';

export const SESSION_COOKIE = 'order_session';
export const SESSION_TTL_MS = 12 * 3_600_000;

/** What a signed-in request carries (res.locals.signed). */
export interface Signed {
  account: AccountRow;
  csrf: string;
  sessionId: string;
}

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
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]!
    .trim()
    .toLowerCase();
  return req.secure || forwarded === 'https' || publicBaseUrl.startsWith('https:');
}

/** A cookie scoped to its area (the account area unless `path` says); maxAgeSeconds 0 removes it. */
export function setCookie(res: Response, secure: boolean, name: string, value: string, maxAgeSeconds: number, path = '/account'): void {
  const attributes = [`${name}=${value}`, `Path=${path}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (secure) attributes.push('Secure');
  res.append('Set-Cookie', attributes.join('; '));
}

const FLASH_COOKIE = 'order_flash';
/** The area (/account or /work) the router serving the request is mounted on. */
const areaPath = (req: Request) => (req.baseUrl === '/work' ? '/work' : '/account');

/**
 * A message for the page a POST redirects to (post/redirect/get, the URL stays the page's own):
 * only a code travels, the text is the page's; read once.
 */
export function setFlash(req: Request, res: Response, publicBaseUrl: string, code: string): void {
  setCookie(res, isHttps(req, publicBaseUrl), FLASH_COOKIE, code, 60, areaPath(req));
}

export function takeFlash(req: Request, res: Response, publicBaseUrl: string): string | undefined {
  const code = parseCookies(req.headers.cookie).get(FLASH_COOKIE);
  if (code === undefined) return undefined;
  setCookie(res, isHttps(req, publicBaseUrl), FLASH_COOKIE, '', 0, areaPath(req));
  return /^[a-z-]{1,32}$/.test(code) ? code : undefined;
}

export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An area's sessions: its cookie, sign-in page, and who a session row signs in. */
export interface SessionRealm<Who> {
  cookie: string;
  signInPath: string;
  load(db: WebDeps['db'], session: AccountSessionRow): Promise<Who | undefined>;
}

/**
 * The signed-in person of a realm in `res.locals.signed` ({who, csrf, sessionId}), or a 303 to the
 * sign-in page; a POST without the session's CSRF token (form field `csrf`, or the X-CSRF-Token
 * header of a script's request) is refused (403).
 */
export function requireRealmSession<Who>(
  deps: WebDeps,
  realm: SessionRealm<Who>,
  locals: (who: Who, csrf: string, sessionId: string) => object,
): RequestHandler {
  return async (req, res, next) => {
    const id = parseCookies(req.headers.cookie).get(realm.cookie);
    const session = id ? await findSession(deps.db, id) : undefined;
    const who = session ? await realm.load(deps.db, session) : undefined;
    if (!id || !session || !who) return void res.redirect(303, realm.signInPath);
    res.locals.signed = locals(who, session.csrfToken, id);
    const given = (req.body as Record<string, unknown> | undefined)?.csrf ?? req.headers['x-csrf-token'];
    if (req.method === 'POST' && !sameToken(given, session.csrfToken)) {
      throw new PageError(403, 'This form has expired or did not come from this site. Reload the page and try again.');
    }
    next();
  };
}

const accountRealm: SessionRealm<AccountRow> = {
  cookie: SESSION_COOKIE,
  signInPath: '/account/sign-in',
  load: async (db, session) => (session.accountId != null ? getAccount(db, session.accountId) : undefined),
};

/** The signed-in account, or a 303 to the sign-in page; a POST without the session's CSRF token is refused (403). */
export function requireSession(deps: WebDeps): RequestHandler {
  return requireRealmSession(deps, accountRealm, (account, csrf, sessionId) => ({ account, csrf, sessionId }) satisfies Signed);
}
