// Sign-in with the account's API token, and sign-out. The token is only ever in a POST body:
// never in a URL, a log line, or a page sent back (the form is not refilled).
import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { ApiDeps } from '../../api/context.js';
import { DEFAULT_SIGN_IN_PER_MINUTE, TokenBuckets } from '../../api/rateLimit.js';
import { findAccountByToken } from '../../db/accounts.js';
import { createSession, deleteSession, expireSessions, findSession } from '../../db/sessions.js';
import { errorPage, sendPage } from '../errors.js';
import { html } from '../html.js';
import { alert, csrfInput, layout } from '../layout.js';
import { isHttps, parseCookies, requireSession, sameToken, SESSION_COOKIE, SESSION_TTL_MS, setCookie, signedIn } from '../session.js';

/** Before there is a session, the form's CSRF token is checked against this cookie (double submit). */
const SIGN_IN_COOKIE = 'order_sign_in';

function signInPage(csrf: string, message?: string): string {
  return layout({
    title: 'Sign in',
    body: html`<h1>Sign in</h1>
<p>Sign in to your account with its API token.</p>
${alert(message)}
<form id="sign-in" method="post" action="/account/sign-in">
${csrfInput(csrf)}
<p><label for="api_token">API token</label>
<input id="api_token" name="api_token" type="password" autocomplete="off" required spellcheck="false"></p>
<p><button type="submit">Sign in</button></p>
</form>`,
  });
}

export function signInRouter(deps: ApiDeps): Router {
  const router = Router();
  const attempts = new TokenBuckets(deps.rateLimits?.signInPerMinute ?? DEFAULT_SIGN_IN_PER_MINUTE);
  const secure = (req: Request) => isHttps(req, deps.publicBaseUrl);

  /** The sign-in CSRF token of this browser, set when it has none. */
  function signInToken(req: Request, res: Response): string {
    const existing = parseCookies(req.headers.cookie).get(SIGN_IN_COOKIE);
    if (existing && /^[\w-]{32}$/.test(existing)) return existing;
    const token = randomBytes(24).toString('base64url');
    setCookie(res, secure(req), SIGN_IN_COOKIE, token, 3600);
    return token;
  }

  router.get('/sign-in', async (req, res) => {
    const id = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    if (id && (await findSession(deps.db, id))) return void res.redirect(303, '/account/orders');
    sendPage(res, 200, signInPage(signInToken(req, res)));
  });

  router.post('/sign-in', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const wait = attempts.check(req.ip ?? req.socket.remoteAddress ?? '', true);
    if (wait) {
      res.set('Retry-After', String(wait));
      return void sendPage(res, 429, errorPage(429, `Too many sign-in attempts from this address; try again in ${wait} seconds.`));
    }
    const csrf = parseCookies(req.headers.cookie).get(SIGN_IN_COOKIE);
    if (!csrf || !sameToken(body.csrf, csrf)) {
      return void sendPage(res, 403, signInPage(signInToken(req, res), 'This form has expired or did not come from this site. Please try again.'));
    }
    const token = body.api_token;
    const account = typeof token === 'string' && token !== '' ? await findAccountByToken(deps.db, deps.secretKey, token) : undefined;
    if (!account) return void sendPage(res, 401, signInPage(csrf, 'That API token is not valid'));
    await expireSessions(deps.db);
    const session = await createSession(deps.db, { accountId: account.id }, SESSION_TTL_MS);
    setCookie(res, secure(req), SESSION_COOKIE, session.id, SESSION_TTL_MS / 1000);
    setCookie(res, secure(req), SIGN_IN_COOKIE, '', 0);
    deps.log('account signed in', { accountId: account.id });
    res.redirect(303, '/account/orders');
  });

  router.post('/sign-out', requireSession(deps), async (req, res) => {
    await deleteSession(deps.db, signedIn(res).sessionId);
    setCookie(res, secure(req), SESSION_COOKIE, '', 0);
    res.redirect(303, '/account/sign-in');
  });
  return router;
}
