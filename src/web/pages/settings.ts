// Settings: the account-wide callback URL (checked as an order's callback_url is, and by the
// outbound guard), canceled callbacks, the callback signing secret and the API token (each shown
// only on request, by POST, and rotatable), the account's rule for deleting its orders' data, and
// the orders the account shares by a link.
import type { Router, Response } from 'express';
import type { WebDeps } from '../context.js';
import {
  CANCELED_CALLBACKS_SINCE,
  rotateApiToken,
  rotateWebhookSecret,
  setCallbackSettings,
  setDeleteAfterDays,
  webhookSecretsOf,
  type WebhookSecrets,
} from '../../db/accounts.js';
import type { AccountRow } from '../../db/schema.js';
import { decryptToken } from '../../domain/tokens.js';
import { httpUrl } from '../../products/params.js';
import { sendPage } from '../errors.js';
import { customerDetail, when } from '../format.js';
import { html, type Html, type Part } from '../html.js';
import { alert, csrfInput, layout, notice } from '../layout.js';
import { setFlash, signedIn, takeFlash } from '../session.js';
import { shareLinksOfAccount } from '../../db/shareLinks.js';
import { sharedListHtml, SHARING_NOTICES } from './sharing.js';
import { caseSensitiveRouter } from '../../http/router.js';
import { MAX_DELETE_AFTER_SECONDS } from '../../contracts/deletion.js';

/** How long a replaced signing secret keeps signing beside the new one (receivers switch meanwhile). */
const SECRET_ROTATION_WINDOW_MS = 24 * 3_600_000;

/** The longest rule in days: what an order's own `delete_after_seconds` may be (about ten years). */
const MAX_DELETE_AFTER_DAYS = Math.floor(MAX_DELETE_AFTER_SECONDS / 86_400);

/** The days typed for "Delete orders' data after": null for never (empty), undefined when refused. */
function deleteAfterDaysOf(typed: string): number | null | undefined {
  if (typed === '') return null;
  if (!/^\d{1,5}$/.test(typed)) return undefined;
  const days = Number(typed);
  return days >= 1 && days <= MAX_DELETE_AFTER_DAYS ? days : undefined;
}

interface View {
  notice?: string;
  alert?: string;
  /** What was typed, shown again after a refusal. */
  callbackUrl?: string;
  canceledCallbacks?: boolean;
  deleteAfterDays?: string;
  secrets?: WebhookSecrets;
  token?: string;
}

const FLASHES: Readonly<Record<string, string>> = { saved: 'Settings saved.', unshared: SHARING_NOTICES.unshared! };

/** The notice after the rule was saved, in the words of the rule now in force. */
const deletionSaved = (account: AccountRow): string =>
  account.deleteAfterDays === null
    ? 'Settings saved: orders placed from now on keep their data until you delete it.'
    : `Settings saved: orders placed from now on have their data deleted ${daysText(account.deleteAfterDays)} after they are finished, refunded or canceled.`;

const daysText = (days: number): string => (days === 1 ? '1 day' : `${days} days`);

/** The section of the account's rule for its orders' data (issue 53), with what it means now. */
function deletionSection(account: AccountRow, csrf: string, view: View): Html {
  const typed = view.deleteAfterDays ?? (account.deleteAfterDays === null ? '' : String(account.deleteAfterDays));
  const now =
    account.deleteAfterDays === null ? "Now: never; an order's data stays until you delete it on its page." : `Now: ${daysText(account.deleteAfterDays)}.`;
  return html`<section aria-labelledby="deletion-heading"><h2 id="deletion-heading">Orders' data</h2>
<form id="deletion-settings" method="post" action="/account/settings/deletion">${csrfInput(csrf)}
<p><label for="delete_after_days">Delete orders' data after</label>
<input id="delete_after_days" name="delete_after_days" type="number" inputmode="numeric" min="1" max="${MAX_DELETE_AFTER_DAYS}" step="1" value="${typed}" aria-describedby="delete_after_days-hint"> days
<span id="delete_after_days-hint" class="hint">Applies to orders placed from now on: each one's media, transcript, files and share link are deleted this many days after it is finished, refunded or canceled, and its record stays for the bill. Empty for never. An order placed with its own <code>delete_after_seconds</code> keeps that. ${now}</span></p>
<p><button type="submit">Save</button></p>
</form></section>`;
}

function settingsPage(account: AccountRow, csrf: string, view: View, shared: Html): string {
  const url = view.callbackUrl ?? account.callbackUrl ?? '';
  const canceled = view.canceledCallbacks ?? account.canceledCallbacks;
  const defaultOn = account.createdAt >= CANCELED_CALLBACKS_SINCE;
  const button = (id: string, action: string, label: string) =>
    html`<form id="${id}" method="post" action="/account/settings/${action}" class="inline">${csrfInput(csrf)}<button type="submit">${label}</button></form>`;
  const body: Part = html`<h1>Settings</h1>
${notice(view.notice)}${alert(view.alert)}
<section aria-labelledby="callback-heading"><h2 id="callback-heading">Callbacks</h2>
<form id="callback-settings" method="post" action="/account/settings/callback">${csrfInput(csrf)}
<p><label for="callback_url">Callback URL</label>
<input id="callback_url" name="callback_url" type="text" inputmode="url" autocomplete="url" spellcheck="false" value="${url}" aria-describedby="callback_url-hint">
<span id="callback_url-hint" class="hint">Where callbacks go for orders placed without a callback_url. Leave empty for none.</span></p>
<p class="check"><input id="canceled_callbacks" name="canceled_callbacks" type="checkbox" value="true"${canceled ? html` checked` : ''} aria-describedby="canceled-hint">
<label for="canceled_callbacks">Send callbacks for canceled orders</label>
<span id="canceled-hint" class="hint">On by default for accounts created on or after 30 March 2026; this account was created ${when(account.createdAt)}, so its default is ${defaultOn ? 'on' : 'off'}.</span></p>
<p><button type="submit">Save</button></p>
</form></section>
<section aria-labelledby="secret-heading"><h2 id="secret-heading">Callback signing secret</h2>
<p>Callbacks are signed (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>); verify them with this secret.</p>
${
  view.secrets
    ? html`<p>Signing secret: <code data-field="webhook-secret">${view.secrets.current}</code></p>${
        view.secrets.previous
          ? html`<p>The previous secret, <code data-field="previous-webhook-secret">${view.secrets.previous.secret}</code>, also signs until ${when(view.secrets.previous.until)}.</p>`
          : ''
      }`
    : ''
}
<div class="actions">${button('show-secret', 'secret/show', 'Show signing secret')} ${button('rotate-secret', 'secret/rotate', 'Rotate signing secret')}</div>
</section>
<section aria-labelledby="token-heading"><h2 id="token-heading">API token</h2>
<p>The token of this account's API requests and result URLs. Rotating it refuses the old one at once, signs out every other session of this account and ends every share link; you stay signed in here.</p>
${view.token ? html`<p>API token: <code data-field="api-token">${view.token}</code></p>` : ''}
<div class="actions">${button('show-token', 'token/show', 'Show API token')} ${button('rotate-token', 'token/rotate', 'Rotate API token')}</div>
</section>
${deletionSection(account, csrf, view)}
${shared}`;
  return layout({ title: 'Settings', csrf, current: 'settings', body });
}

export function settingsRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();
  const show = async (res: Response, status: number, view: View) => {
    const { account, csrf } = signedIn(res);
    const shared = sharedListHtml(deps, await shareLinksOfAccount(deps.db, deps.secretKey, account.id), csrf);
    sendPage(res, status, settingsPage(account, csrf, view, shared));
  };

  router.get('/settings', async (req, res) => {
    const flash = takeFlash(req, res, deps.publicBaseUrl);
    if (flash === 'deletion-saved') return show(res, 200, { notice: deletionSaved(signedIn(res).account) });
    await show(res, 200, { notice: flash && Object.hasOwn(FLASHES, flash) ? FLASHES[flash] : undefined });
  });

  router.post('/settings/deletion', async (req, res) => {
    const { account } = signedIn(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const typed = typeof body.delete_after_days === 'string' ? body.delete_after_days.trim() : '';
    const days = deleteAfterDaysOf(typed);
    if (days === undefined) {
      return show(res, 400, {
        alert: `delete_after_days: give a whole number of days from 1 to ${MAX_DELETE_AFTER_DAYS}, or nothing to keep orders' data until you delete it.`,
        deleteAfterDays: typed,
      });
    }
    await setDeleteAfterDays(deps.db, account.id, days);
    deps.log('order data rule set', { accountId: account.id, deleteAfterDays: days, by: 'account area' });
    setFlash(req, res, deps.publicBaseUrl, 'deletion-saved');
    res.redirect(303, '/account/settings');
  });

  router.post('/settings/callback', async (req, res) => {
    const { account } = signedIn(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const typed = typeof body.callback_url === 'string' ? body.callback_url.trim() : '';
    const canceledCallbacks = body.canceled_callbacks !== undefined;
    const refuse = (message: string) => show(res, 400, { alert: `callback_url: ${message}`, callbackUrl: typed, canceledCallbacks });
    if (typed !== '') {
      const parsed = httpUrl.safeParse(typed);
      if (!parsed.success) return refuse(parsed.error.issues[0]?.message ?? 'must be an http or https URL');
      const refused = await deps.outbound.checkDestination(typed);
      if (refused) return refuse(`callbacks cannot be sent to this address: ${customerDetail(refused)}`);
    }
    await setCallbackSettings(deps.db, account.id, { callbackUrl: typed || null, canceledCallbacks });
    setFlash(req, res, deps.publicBaseUrl, 'saved');
    res.redirect(303, '/account/settings');
  });

  router.post('/settings/secret/show', async (_req, res) => {
    await show(res, 200, { secrets: await webhookSecretsOf(deps.db, deps.secretKey, signedIn(res).account.id) });
  });

  router.post('/settings/secret/rotate', async (_req, res) => {
    const { account } = signedIn(res);
    const secrets = await rotateWebhookSecret(deps.db, deps.secretKey, account.id, SECRET_ROTATION_WINDOW_MS);
    deps.log('webhook secret rotated', { accountId: account.id, by: 'account area' });
    await show(res, 200, { secrets, notice: 'A new signing secret signs callbacks from now on.' });
  });

  router.post('/settings/token/show', async (_req, res) => {
    await show(res, 200, { token: decryptToken(deps.secretKey, signedIn(res).account.tokenEncrypted) });
  });

  router.post('/settings/token/rotate', async (_req, res) => {
    const { account, sessionId } = signedIn(res);
    const { token, sessionsEnded, shareLinksEnded } = await rotateApiToken(deps.db, deps.secretKey, account.id, sessionId);
    deps.log('api token rotated', { accountId: account.id, by: 'account area', sessionsEnded, shareLinksEnded });
    const counted = (n: number, one: string, many: string) => (n === 1 ? `1 ${one} was` : `${n} ${many} were`);
    await show(res, 200, {
      token,
      notice:
        `A new API token was made; the old one is refused from now on. ${sessionsEnded === 0 ? 'No other session was signed in.' : `${counted(sessionsEnded, 'other session', 'other sessions')} signed out.`}` +
        (shareLinksEnded ? ` ${counted(shareLinksEnded, 'share link', 'share links')} ended.` : ''),
    });
  });
  return router;
}
