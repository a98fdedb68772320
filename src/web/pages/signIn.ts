// Sign-in with the account's API token, and sign-out (src/web/signInRoutes.ts, shared with the
// workbench). The token is only ever in a POST body: never in a URL, a log line, or a page sent
// back (the form is not refilled).
import type { Router } from 'express';
import type { WebDeps } from '../context.js';
import { findAccountByToken } from '../../db/accounts.js';
import { html } from '../html.js';
import { alert, csrfInput, layout } from '../layout.js';
import { requireSession, SESSION_COOKIE, signedIn } from '../session.js';
import { signInRoutes } from '../signInRoutes.js';

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

export function signInRouter(deps: WebDeps): Router {
  return signInRoutes(deps, {
    path: '/account',
    sessionCookie: SESSION_COOKIE,
    signInCookie: 'order_sign_in',
    tokenField: 'api_token',
    home: '/account/orders',
    page: signInPage,
    invalidToken: 'That API token is not valid',
    signedInMessage: 'account signed in',
    owner: async (token) => {
      const account = await findAccountByToken(deps.db, deps.secretKey, token);
      return account ? { owner: { accountId: account.id }, log: { accountId: account.id } } : undefined;
    },
    owns: (session) => session.accountId != null,
    requireSession: requireSession(deps),
    sessionIdOf: (res) => signedIn(res).sessionId,
  });
}
