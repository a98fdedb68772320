// Sharing a finished order by a link (issue 44): the order page's "Share" form and the link it makes
// (a text box named "Share link"), "Stop sharing", and the list of what the account shares (Settings).
// The link opens src/web/shared.ts without signing in; its token is its own (src/db/shareLinks.ts).
import type { Router, Request } from 'express';
import { z } from 'zod';
import type { WebDeps } from '../context.js';
import type { OrderRow } from '../../db/schema.js';
import { shareLinkOfOrder, shareOrder, stopSharing, type ShareLink } from '../../db/shareLinks.js';
import { PageError } from '../errors.js';
import { when } from '../format.js';
import { html, type Html } from '../html.js';
import { csrfInput } from '../layout.js';
import { orderLink } from '../orderView.js';
import { setFlash, signedIn, type Signed } from '../session.js';
import { signedInOrder } from './orders.js';
import { caseSensitiveRouter } from '../../http/router.js';

/** The expiries offered, in days ('' never); a form may send any whole number of days up to a year. */
const EXPIRY_CHOICES: ReadonlyArray<[string, string]> = [
  ['', 'Never'],
  ['1', 'After 1 day'],
  ['7', 'After 7 days'],
  ['30', 'After 30 days'],
  ['90', 'After 90 days'],
];
const expiresInDays = z.union([z.literal('').transform(() => undefined), z.coerce.number().int().min(1).max(366)]);

/** The notices of the order page after a share or a stop (post/redirect/get). */
export const SHARING_NOTICES: Readonly<Record<string, string>> = {
  shared: 'This order is shared: anyone with the link below can read its transcript and download its files, without signing in.',
  unshared: 'Sharing stopped: the link no longer opens anything.',
};

const shareUrl = (deps: WebDeps, token: string): string => `${deps.publicBaseUrl}/shared/${token}`;

/** The text box that holds a link (read-only, spell check off), named by its label. */
const linkBox = (id: string, label: Html | string, url: string) =>
  html`<label for="${id}">${label}</label> <input id="${id}" class="share-link" type="text" readonly value="${url}" spellcheck="false" autocomplete="off">`;

const stopForm = (orderId: number, csrf: string, back?: 'settings') =>
  html`<form method="post" action="/account/orders/${orderId}/share/stop" class="inline stop-sharing">${csrfInput(csrf)}${
    back ? html`<input type="hidden" name="back" value="${back}">` : ''
  }<button type="submit"${back ? html` aria-label="Stop sharing order ${orderId}"` : ''}>Stop sharing</button></form>`;

const expiryText = (link: ShareLink) =>
  link.expiresAt === null ? html`never expires` : link.expiresAt <= new Date() ? html`expired ${when(link.expiresAt)}` : html`expires ${when(link.expiresAt)}`;

/** The order page's sharing section: the link and "Stop sharing", or the "Share" form; nothing until the order is finished. */
export async function sharingSection(deps: WebDeps, signed: Signed, order: OrderRow): Promise<Html> {
  if (order.status !== 'finished') return html``;
  const link = await shareLinkOfOrder(deps.db, deps.secretKey, signed.account.id, order.id);
  const body = link
    ? html`<p>${linkBox('share-link', 'Share link', shareUrl(deps, link.token))}</p>
<p>Anyone with this link can read the transcript and download the files of this order, and nothing else of this account. It ${expiryText(link)}.</p>
${stopForm(order.id, signed.csrf)}`
    : html`<p>A link of its own lets someone read this order's transcript beside its media and download its files, without signing in and without seeing anything else of this account. Stopping it, or rotating the API token, ends it at once.</p>
<form id="share" method="post" action="/account/orders/${order.id}/share">${csrfInput(signed.csrf)}
<p><label for="expires_in_days">Link expires</label> <select id="expires_in_days" name="expires_in_days">${EXPIRY_CHOICES.map(
        ([value, label]) => html`<option value="${value}">${label}</option>`,
      )}</select></p>
<p><button type="submit">Share</button></p></form>`;
  return html`<section id="sharing" aria-labelledby="sharing-heading"><h2 id="sharing-heading">Sharing</h2>${body}</section>`;
}

/** The Settings page's list of every shared order, each with its link and "Stop sharing". */
export function sharedListHtml(deps: WebDeps, links: ShareLink[], csrf: string): Html {
  const list = links.length
    ? html`<ul class="shared-links">${links.map(
        (link) =>
          html`<li data-order="${link.orderId}">Order ${orderLink(link.orderId)}, shared ${when(link.createdAt)}, ${expiryText(link)}.
<p>${linkBox(`share-link-${link.orderId}`, html`Share link of order ${link.orderId}`, shareUrl(deps, link.token))}</p>${stopForm(link.orderId, csrf, 'settings')}</li>`,
      )}</ul>`
    : html`<p id="nothing-shared">No order is shared.</p>`;
  return html`<section aria-labelledby="shared-heading"><h2 id="shared-heading">Shared links</h2>${list}</section>`;
}

export function sharingRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();
  const field = (req: Request, name: string) => (req.body as Record<string, unknown> | undefined)?.[name];

  router.post('/orders/:id/share', async (req, res) => {
    const { account } = signedIn(res);
    const order = await signedInOrder(deps, res, req.params.id);
    if (order.status !== 'finished') throw new PageError(409, `Order ${order.id} is not finished yet: only a finished order can be shared.`);
    const days = expiresInDays.safeParse(field(req, 'expires_in_days') ?? '');
    if (!days.success) throw new PageError(400, 'expires_in_days: give a whole number of days from 1 to 366, or nothing for a link that never expires.');
    const expiresAt = days.data === undefined ? null : new Date(Date.now() + days.data * 86_400_000);
    const link = await shareOrder(deps.db, deps.secretKey, account.id, order.id, expiresAt);
    deps.log('order shared', { orderId: order.id, accountId: account.id, expiresAt: link.expiresAt?.toISOString() ?? null });
    setFlash(req, res, deps.publicBaseUrl, 'shared');
    res.redirect(303, `/account/orders/${order.id}#sharing`);
  });

  router.post('/orders/:id/share/stop', async (req, res) => {
    const { account } = signedIn(res);
    const order = await signedInOrder(deps, res, req.params.id);
    const stopped = await stopSharing(deps.db, account.id, order.id);
    deps.log('order sharing stopped', { orderId: order.id, accountId: account.id, stopped });
    setFlash(req, res, deps.publicBaseUrl, 'unshared');
    res.redirect(303, field(req, 'back') === 'settings' ? '/account/settings' : `/account/orders/${order.id}#sharing`);
  });
  return router;
}
