// Workers sign in with the token `order-ops worker create` printed, by the account area's code
// (src/web/signInRoutes.ts): the token only in a POST body, a double-submit CSRF cookie before
// there is a session, the sign-in rate limit per address.
import type { Router } from 'express';
import type { WebDeps } from '../context.js';
import { findWorkerByToken } from '../../db/workers.js';
import { html } from '../html.js';
import { alert, csrfInput, layout } from '../layout.js';
import { signInRoutes } from '../signInRoutes.js';
import { requireWorker, signedWorker, WORK_PATH, WORK_SESSION_COOKIE } from './session.js';

function signInPage(csrf: string, message?: string): string {
  return layout({
    area: 'work',
    title: 'Sign in',
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

export function workSignInRouter(deps: WebDeps): Router {
  return signInRoutes(deps, {
    path: WORK_PATH,
    sessionCookie: WORK_SESSION_COOKIE,
    signInCookie: 'work_sign_in',
    tokenField: 'sign_in_token',
    home: `${WORK_PATH}/queue`,
    page: signInPage,
    invalidToken: 'That worker token is not valid',
    signedInMessage: 'worker signed in',
    owner: async (token) => {
      const worker = await findWorkerByToken(deps.db, deps.secretKey, token);
      return worker ? { owner: { workerId: worker.id }, log: { workerId: worker.id } } : undefined;
    },
    owns: (session) => session.workerId != null,
    requireSession: requireWorker(deps),
    sessionIdOf: (res) => signedWorker(res).sessionId,
  });
}
