// Sign-in and sign-out of an area (the account area with the API token, the workbench with a
// worker token), one code: the token only in a POST body (never in a URL, a log line or a page sent
// back), a double-submit CSRF cookie before there is a session, the sign-in rate limit per address.
import { randomBytes } from 'node:crypto';
import type { Router, Request, RequestHandler, Response } from 'express';
import type { WebDeps } from './context.js';
import { DEFAULT_SIGN_IN_PER_MINUTE, TokenBuckets } from '../http/tokenBuckets.js';
import { clientAddress } from '../http/clientAddress.js';
import { createSession, deleteSession, expireSessions, findSession, type SessionOwner } from '../db/sessions.js';
import type { AccountSessionRow } from '../db/schema.js';
import { errorPage, sendPage } from './errors.js';
import { isHttps, parseCookies, sameToken, SESSION_TTL_MS, setCookie } from './session.js';
import { caseSensitiveRouter } from '../http/router.js';

export interface SignInArea {
  /** Where the area is mounted: its cookies' path. */
  path: '/account' | '/work';
  sessionCookie: string;
  signInCookie: string;
  /** The form field holding the token. */
  tokenField: string;
  /** Where a signed-in person lands. */
  home: string;
  page(csrf: string, message?: string): string;
  invalidToken: string;
  /** Whose token it is (and what the log line says of them); undefined when none. */
  owner(token: string): Promise<{ owner: SessionOwner; log: object } | undefined>;
  /** Whether a session row is one of this area's. */
  owns(session: AccountSessionRow): boolean;
  signedInMessage: string;
  /** The area's session check, for sign-out. */
  requireSession: RequestHandler;
  sessionIdOf(res: Response): string;
}

export function signInRoutes(deps: WebDeps, area: SignInArea): Router {
  const router = caseSensitiveRouter();
  const attempts = new TokenBuckets(deps.rateLimits?.signInPerMinute ?? DEFAULT_SIGN_IN_PER_MINUTE);
  const cookie = (req: Request, res: Response, name: string, value: string, maxAge: number) =>
    setCookie(res, isHttps(req, deps.publicBaseUrl), name, value, maxAge, area.path);

  /** The sign-in CSRF token of this browser, set when it has none. */
  function signInToken(req: Request, res: Response): string {
    const existing = parseCookies(req.headers.cookie).get(area.signInCookie);
    if (existing && /^[\w-]{32}$/.test(existing)) return existing;
    const token = randomBytes(24).toString('base64url');
    cookie(req, res, area.signInCookie, token, 3600);
    return token;
  }

  router.get('/sign-in', async (req, res) => {
    const id = parseCookies(req.headers.cookie).get(area.sessionCookie);
    const session = id ? await findSession(deps.db, id) : undefined;
    if (session && area.owns(session)) return void res.redirect(303, area.home);
    sendPage(res, 200, area.page(signInToken(req, res)));
  });

  router.post('/sign-in', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const wait = attempts.check(clientAddress(req), true);
    if (wait) {
      res.set('Retry-After', String(wait));
      return void sendPage(
        res,
        429,
        errorPage(429, `Too many sign-in attempts from this address; try again in ${wait} seconds.`, undefined, area.path === '/work' ? 'work' : 'account'),
      );
    }
    const csrf = parseCookies(req.headers.cookie).get(area.signInCookie);
    if (!csrf || !sameToken(body.csrf, csrf)) {
      return void sendPage(res, 403, area.page(signInToken(req, res), 'This form has expired or did not come from this site. Please try again.'));
    }
    const token = body[area.tokenField];
    const found = typeof token === 'string' && token !== '' ? await area.owner(token) : undefined;
    if (!found) return void sendPage(res, 401, area.page(csrf, area.invalidToken));
    await expireSessions(deps.db);
    const session = await createSession(deps.db, found.owner, SESSION_TTL_MS);
    cookie(req, res, area.sessionCookie, session.id, SESSION_TTL_MS / 1000);
    cookie(req, res, area.signInCookie, '', 0);
    deps.log(area.signedInMessage, found.log);
    res.redirect(303, area.home);
  });

  router.post('/sign-out', area.requireSession, async (req, res) => {
    await deleteSession(deps.db, area.sessionIdOf(res));
    cookie(req, res, area.sessionCookie, '', 0);
    res.redirect(303, `${area.path}/sign-in`);
  });
  return router;
}
