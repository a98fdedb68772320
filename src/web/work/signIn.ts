// Workers sign in with the token `order-ops worker create` printed, under the account area's
// rules: the token only in a POST body, a double-submit CSRF cookie before there is a session,
// the sign-in rate limit per address.
import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { ApiDeps } from '../../api/context.js';
import { DEFAULT_SIGN_IN_PER_MINUTE, TokenBuckets } from '../../api/rateLimit.js';
import { createSession, deleteSession, expireSessions, findSession } from '../../db/sessions.js';
import { findWorkerByToken } from '../../db/workers.js';
import { errorPage, sendPage } from '../errors.js';
import { html } from '../html.js';
import { alert, csrfInput, layout } from '../layout.js';
import { isHttps, parseCookies, sameToken, SESSION_TTL_MS, setCookie } from '../session.js';
import { requireWorker, signedWorker, WORK_PATH, WORK_SESSION_COOKIE } from './session.js';

const SIGN_IN_COOKIE = 'work_sign_in';

function signInPage(csrf: string, message?: string): string {
  return layout({
    area: 'work', title: 'Sign in',
    body: html`<h1>Sign in to the workbench</h1>
<p>Sign in with the worker token your operator gave you.</p>
${alert(message)}
<form id="sign-in" method="post" action="${WORK_PATH}/sign-in">
${csrfInput(csrf)}
<p><label for="sign_in_token">Worker token</label>
<input id="sign_in_token" name="sign_in_token" type="password" autocomplete="off" required spellcheck="false"></p>
<p><button type="submit">Sign in</button></p>
</form>`,
  });
}

export function workSignInRouter(deps: ApiDeps): Router {
  const router = Router();
  const attempts = new TokenBuckets(deps.rateLimits?.signInPerMinute ?? DEFAULT_SIGN_IN_PER_MINUTE);
  const secure = (req: Request) => isHttps(req, deps.publicBaseUrl);
  const cookie = (req: Request, res: Response, name: string, value: string, maxAge: number) => setCookie(res, secure(req), name, value, maxAge, WORK_PATH);

  function signInToken(req: Request, res: Response): string {
    const existing = parseCookies(req.headers.cookie).get(SIGN_IN_COOKIE);
    if (existing && /^[\w-]{32}$/.test(existing)) return existing;
    const token = randomBytes(24).toString('base64url');
    cookie(req, res, SIGN_IN_COOKIE, token, 3600);
    return token;
  }

  router.get('/sign-in', async (req, res) => {
    const id = parseCookies(req.headers.cookie).get(WORK_SESSION_COOKIE);
    if (id && (await findSession(deps.db, id))?.workerId) return void res.redirect(303, `${WORK_PATH}/queue`);
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
    const token = body.sign_in_token;
    const worker = typeof token === 'string' && token !== '' ? await findWorkerByToken(deps.db, deps.secretKey, token) : undefined;
    if (!worker) return void sendPage(res, 401, signInPage(csrf, 'That worker token is not valid'));
    await expireSessions(deps.db);
    const session = await createSession(deps.db, { workerId: worker.id }, SESSION_TTL_MS);
    cookie(req, res, WORK_SESSION_COOKIE, session.id, SESSION_TTL_MS / 1000);
    cookie(req, res, SIGN_IN_COOKIE, '', 0);
    deps.log('worker signed in', { workerId: worker.id });
    res.redirect(303, `${WORK_PATH}/queue`);
  });

  router.post('/sign-out', requireWorker(deps), async (req, res) => {
    await deleteSession(deps.db, signedWorker(res).sessionId);
    cookie(req, res, WORK_SESSION_COOKIE, '', 0);
    res.redirect(303, `${WORK_PATH}/sign-in`);
  });
  return router;
}
