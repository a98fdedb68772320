// One order: its parameters in words, a timeline, every callback attempt, its result files, the
// form that delivers its last callback again where that can be done, and "Delete" (issue 53): a
// confirmation page, then src/orders/deleteOrder.ts; a deleted order shows what stays for the bill.
import type { Router, Response } from 'express';
import type { WebDeps } from '../context.js';
import { callbackUrlOf, resendLastCallback } from '../../orders/deliverCallback.js';
import { RateLimitedError, RequestError } from '../../contracts/failures.js';
import { callbackAttemptsOf, filesOf } from '../../db/orders.js';
import { tasksOfOrder } from '../../db/tasks.js';
import type { CallbackAttemptRow, OrderRow } from '../../db/schema.js';
import { sendPage } from '../errors.js';
import { customerDetail, duration, truncate, usd, when } from '../format.js';
import { html, type Html } from '../html.js';
import { alert, csrfInput, layout, notice } from '../layout.js';
import { accountOrderPath, filesHtml, orderLink, productName, statusHtml } from '../orderView.js';
import { workProgress } from '../progress.js';
import { transcriptSection } from './transcriptView.js';
import { sendOrderMedia } from '../orderDownloads.js';
import { sharingSection, SHARING_NOTICES } from './sharing.js';
import { isProductKey, productOf } from '../../products/registry.js';
import { languageName } from '../../domain/languages.js';
import { clock } from '../../domain/humanWork/editorText.js';
import { orderLedger } from '../../db/accountArea.js';
import { isSettled, statusLabel } from '../../domain/statusLabels.js';
import { setFlash, signedIn, takeFlash, type Signed } from '../session.js';
import { timelineEntries, timelineHtml } from '../timeline.js';
import { signedInOrder } from './orders.js';
import { inWords, PARAMETER_WORDS, valueInWords, wordsOf, type Reading } from '../parameterWords.js';
import { caseSensitiveRouter } from '../../http/router.js';
import { canDeleteOrderData, CLOSED_WORKFLOW_NOTE, deleteOrderData, OrderInWorkError } from '../../orders/deleteOrder.js';

const NOTICES: Record<string, string> = {
  ...SHARING_NOTICES,
  'resent-ok': 'The last callback was sent again and delivered: the receiver answered ok.',
  'resent-failed': 'The last callback was sent again, but the receiver did not answer ok: see the newest attempt below.',
};

/** What the flash after a deletion says beside the deleted order's paragraph: nothing more, or that its workflow was closed. */
const DELETION_FLASHES: Readonly<Record<string, string>> = { deleted: '', 'deleted-closed': CLOSED_WORKFLOW_NOTE };

/**
 * A deleted order's paragraph: when, and what went. Right after the deletion it is the page's
 * notice, with the note when the order's workflow was still open and was closed.
 */
function deletedParagraph(order: OrderRow, justDeleted: string | undefined): Html {
  const text = html`This order's data was deleted ${when(order.deletedAt)}: its media, transcript, result files and share link are gone. What is shown here stays for the bill.${justDeleted ? html` ${justDeleted}` : ''}`;
  return justDeleted === undefined ? html`<p id="order-deleted">${text}</p>` : html`<p id="order-deleted" class="notice" role="status">${text}</p>`;
}

/** A length of time in the largest whole unit: "30 days", "1 day", "90 seconds". */
function spanText(seconds: number): string {
  const [amount, unit] = seconds % 86_400 === 0 && seconds > 0 ? [seconds / 86_400, 'day'] : [seconds, 'second'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/** When the order's data was deleted, or is to be (its own `delete_after_seconds` or the account's rule at placement). */
function deletionRow(order: OrderRow): Html | '' {
  const row = (term: string, value: Html | string) => html`<dt>${term}</dt><dd data-field="deletion">${value}</dd>`;
  if (order.deletedAt) return row('Data deleted', when(order.deletedAt));
  if (order.deleteAfterSeconds === null) return '';
  if (order.settledAt) return row('Data to be deleted', when(new Date(order.settledAt.getTime() + order.deleteAfterSeconds * 1000)));
  return row('Data to be deleted', `${spanText(order.deleteAfterSeconds)} after it is finished, refunded or canceled`);
}

/**
 * Whether the order's `url` is media its engine or people hear, by its product's definition (as
 * workPlanOf reads it): not a file that is read (OCR's document or image, a document to translate).
 */
function urlIsMedia(order: OrderRow): boolean {
  if (!isProductKey(order.product)) return false;
  const product = productOf(order.product);
  if (product.engineJob?.audioParam === 'url') return true;
  return product.work?.mediaParam === 'url' && order.params.source !== 'document';
}

function labelOf(name: string, order: OrderRow): string {
  if (name === 'url') return urlIsMedia(order) ? 'Media file' : 'File';
  return wordsOf(name)?.label ?? inWords(name);
}

function textOf(value: unknown, reads: Reading): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map((item) => textOf(item, reads)).join(', ');
  if (typeof value === 'number') return reads === 'clock' ? clock(value) : String(value);
  if (typeof value !== 'string') return JSON.stringify(value);
  if (reads === 'language') return languageName(value);
  if (reads === 'words') return valueInWords(value);
  return reads === 'upper' ? value.toUpperCase() : value;
}

/**
 * Each term in an element of its own that isolates it (`<bdi>`): a bidi control in one term (rows
 * kept while such characters were still taken may hold them) reorders nothing outside it.
 */
const termsOf = (terms: readonly unknown[]): Html => html`${terms.map((term, i) => html`${i ? ', ' : ''}<bdi>${String(term)}</bdi>`)}`;

const valueOf = (value: unknown, reads: Reading = 'as-given'): Html | string => {
  if (reads === 'order' && typeof value === 'number') return orderLink(value);
  return reads === 'terms' && Array.isArray(value) ? termsOf(value) : textOf(value, reads);
};

/** The order's parameters, those the page shows in rows of their own left out. */
function parameterRows(order: OrderRow): Html[] {
  const params: Record<string, unknown> = order.params;
  const shownAbove = (name: string) => name === 'callback_url' || (name === 'retranscription_of' && order.parentOrderId === params[name]);
  const known = Object.keys(PARAMETER_WORDS).filter((name) => Object.hasOwn(params, name));
  const others = Object.keys(params).filter((name) => !wordsOf(name));
  return [...known, ...others]
    .filter((name) => params[name] !== undefined && params[name] !== null && !shownAbove(name))
    .map((name) => html`<dt>${labelOf(name, order)}</dt><dd dir="auto" data-param="${name}">${valueOf(params[name], wordsOf(name)?.reads)}</dd>`);
}

function parameters(order: OrderRow, accountCallbackUrl: string | null): Html {
  const row = (term: string, value: Html | string | number) => html`<dt>${term}</dt><dd>${value}</dd>`;
  // A deleted order's own URL is gone; the account's would read as the one it used.
  const callback = order.deletedAt ? 'deleted' : (order.callbackUrl ?? (accountCallbackUrl ? `${accountCallbackUrl} (the account's)` : 'none'));
  return html`<section id="parameters" aria-labelledby="parameters-heading"><h2 id="parameters-heading">Parameters</h2><dl>
${row('Product', productName(order.product))}
<dt>Status</dt><dd data-field="status" aria-live="polite">${statusHtml(order)}</dd>
${row('Price', usd(order.priceCents))}
${order.seconds > 0 ? row('Duration', duration(order.seconds)) : ''}
${order.words > 0 ? row('Words', order.words) : ''}
${row('Placed', when(order.createdAt))}
${row('Paid', when(order.paidAt))}
${row('Delivery estimate', when(order.deliveryEstimate))}
${row('Finished', when(order.finishedAt))}
${deletionRow(order)}
${order.parentOrderId !== null ? row('Replaces proofreading order', orderLink(order.parentOrderId)) : ''}
${row('Callback URL', callback)}
${parameterRows(order)}
${
  Object.values(order.inputFiles).length
    ? row(
        'Input files',
        Object.values(order.inputFiles)
          .map((f) => f.fileName)
          .join(', '),
      )
    : ''
}
</dl></section>`;
}

function attemptsTable(attempts: CallbackAttemptRow[]): Html {
  return html`<div class="table-wrap"><table id="callback-attempts" class="cards">
<caption>Every callback attempt, oldest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">HTTP status</th><th scope="col">Duration</th><th scope="col">Answer</th><th scope="col">Outcome</th><th scope="col">Signature id (webhook-id)</th></tr></thead>
<tbody>${attempts.map(
    (a) => html`<tr data-attempt="${a.attempt}">
<td data-label="Time">${when(a.createdAt)}</td>
<td data-label="Event">${a.event.replace(/_/g, ' ')}</td>
<td data-label="Attempt">${a.attempt}</td>
<td data-label="HTTP status" data-field="status-code">${a.statusCode ?? '—'}</td>
<td data-label="Duration">${a.durationMs} ms</td>
<td data-label="Answer" data-field="answer">${a.outcome === 'ok' ? 'ok' : truncate(customerDetail(a.detail ?? ''), 160)}</td>
<td data-label="Outcome" data-field="outcome">${a.outcome.replace(/_/g, ' ')}</td>
<td data-label="Signature id" data-field="webhook-id"><code>${a.webhookId ?? '—'}</code></td>
</tr>`,
  )}</tbody></table></div>`;
}

/**
 * Every callback attempt, and the resend form only where resendLastCallback would take it: a
 * callback was sent, and the order or the account has a callback URL to send it to.
 */
function callbacks(order: OrderRow, attempts: CallbackAttemptRow[], callbackUrl: string | null, csrf: string): Html {
  if (order.deletedAt) {
    const none = html`<p id="no-callback-url">No callback is sent for this order any more: its data was deleted.</p>`;
    return attempts.length ? html`${attemptsTable(attempts)}${none}` : none;
  }
  const noUrl = html`<p id="no-callback-url">Neither this order nor the account has a callback URL, so no callback is sent for it. The account's is set in <a href="/account/settings">Settings</a>.</p>`;
  if (attempts.length === 0) return callbackUrl ? html`<p>No callback has been sent for this order yet.</p>` : noUrl;
  if (!callbackUrl) return html`${attemptsTable(attempts)}${noUrl}`;
  return html`${attemptsTable(attempts)}
<form id="resend" method="post" action="/account/orders/${order.id}/resend">${csrfInput(csrf)}
<button type="submit">Resend last callback</button>
<span class="hint">Sends the order's last callback again, with the same webhook-id, to its callback URL.</span></form>`;
}

async function renderOrder(
  deps: WebDeps,
  res: Response,
  signed: Signed,
  order: OrderRow,
  messages: { notice?: string; alert?: string; status?: number; justDeleted?: string },
) {
  const [ledger, attempts, files, tasks] = await Promise.all([
    orderLedger(deps.db, signed.account.id, order.id),
    callbackAttemptsOf(deps.db, order.id),
    filesOf(deps.db, order.id),
    tasksOfOrder(deps.db, order.id),
  ]);
  const progress = order.status === 'paid' ? await workProgress(deps.temporal, order.id) : undefined;
  // A deleted order has nothing to play, read or share.
  const [transcript, sharing] = order.deletedAt
    ? [html``, html``]
    : await Promise.all([transcriptSection(deps, order, files, accountOrderPath(order)), sharingSection(deps, signed, order)]);
  const label = statusLabel(order);
  const body = html`<h1>Order ${order.id}</h1>
${notice(messages.notice)}${alert(messages.alert)}
${order.deletedAt ? deletedParagraph(order, messages.justDeleted) : ''}
<div class="order"${isSettled(label) ? '' : html` data-poll="${order.id}"`} data-status="${label}">
${parameters(order, signed.account.callbackUrl)}
<section id="result-files" aria-labelledby="files-heading"><h2 id="files-heading">Result files</h2><div data-field="files">${filesHtml(order)}</div></section>
</div>
${sharing}
${transcript}
<section aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2>${timelineHtml(timelineEntries(order, ledger, attempts, files, progress, tasks))}</section>
<section aria-labelledby="callbacks-heading"><h2 id="callbacks-heading">Callbacks</h2>
${callbacks(order, attempts, callbackUrlOf(order, signed.account), signed.csrf)}
</section>
${deletionSection(order, signed.csrf)}`;
  sendPage(res, messages.status ?? 200, layout({ title: `Order ${order.id}`, csrf: signed.csrf, current: 'orders', body }));
}

/** The "Delete" button of an order whose data can be deleted now: it asks to confirm first (deleteConfirmation). */
function deletionSection(order: OrderRow, csrf: string): Html {
  if (order.deletedAt || !canDeleteOrderData(order)) return html``;
  return html`<section id="deletion" aria-labelledby="deletion-heading"><h2 id="deletion-heading">Delete this order's data</h2>
<p>Deletes this order's media, transcript, result files and share link, and its URL, comment and vocabulary. Its record stays for the bill: product, length, price, dates and status.</p>
<form id="delete-order" method="post" action="/account/orders/${order.id}/delete">${csrfInput(csrf)}<button type="submit" class="danger">Delete</button></form>
</section>`;
}

/** The step between "Delete" and the deletion: what goes, that it cannot be undone, "Delete" or "Cancel". */
function deleteConfirmation(order: OrderRow, csrf: string): string {
  const body = html`<h1>Delete order ${order.id}'s data?</h1>
<div id="delete-confirmation">
<p>The order's media, transcript, result files and share link will be deleted from the service, with its URL, comment and vocabulary. This cannot be undone.</p>
<p>Its record stays for the bill: product, length, price, dates and status.</p>
</div>
<div class="actions confirm">
<form id="confirm-delete" method="post" action="/account/orders/${order.id}/delete">${csrfInput(csrf)}<input type="hidden" name="confirm" value="yes"><button type="submit" class="danger">Delete</button></form>
<a id="cancel-delete" href="${accountOrderPath(order)}">Cancel</a>
</div>`;
  return layout({ title: `Delete order ${order.id}'s data`, csrf, current: 'orders', body });
}

export function orderRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();

  router.get('/orders/:id', async (req, res) => {
    const order = await signedInOrder(deps, res, req.params.id);
    const flash = takeFlash(req, res, deps.publicBaseUrl);
    await renderOrder(deps, res, signedIn(res), order, {
      notice: flash && Object.hasOwn(NOTICES, flash) ? NOTICES[flash] : undefined,
      justDeleted: flash && Object.hasOwn(DELETION_FLASHES, flash) ? DELETION_FLASHES[flash] : undefined,
    });
  });

  // The order's media for its transcript's player: only as what its bytes are, by ranges.
  router.get('/orders/:id/media', async (req, res) => sendOrderMedia(req, res, deps, await signedInOrder(deps, res, req.params.id)));

  router.post('/orders/:id/resend', async (req, res) => {
    const signed = signedIn(res);
    const order = await signedInOrder(deps, res, req.params.id);
    try {
      const outcome = await resendLastCallback(deps, signed.account.id, order.id);
      deps.log('callback resent from the account area', { orderId: order.id, accountId: order.accountId, outcome: outcome.outcome });
      setFlash(req, res, deps.publicBaseUrl, outcome.delivered ? 'resent-ok' : 'resent-failed');
      res.redirect(303, `/account/orders/${order.id}`);
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      // Past the resend limit: 429 with Retry-After for any client, the page saying when.
      const limited = err instanceof RateLimitedError;
      if (limited) res.set('Retry-After', String(err.retryAfterSeconds));
      await renderOrder(deps, res, signed, order, { alert: `The callback was not resent: ${err.message}.`, status: limited ? 429 : 409 });
    }
  });

  // "Delete": without `confirm=yes` the confirmation page; with it, the deletion (post/redirect/get).
  router.post('/orders/:id/delete', async (req, res) => {
    const signed = signedIn(res);
    const order = await signedInOrder(deps, res, req.params.id);
    const confirmed = (req.body as Record<string, unknown> | undefined)?.confirm === 'yes';
    try {
      if (!canDeleteOrderData(order)) throw new OrderInWorkError(order);
      if (!confirmed) {
        if (order.deletedAt) return res.redirect(303, accountOrderPath(order));
        return sendPage(res, 200, deleteConfirmation(order, signed.csrf));
      }
      const { closedWorkflow } = await deleteOrderData(deps, order, 'customer');
      setFlash(req, res, deps.publicBaseUrl, closedWorkflow ? 'deleted-closed' : 'deleted');
      res.redirect(303, accountOrderPath(order));
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      // An order in work (a form from before it went back to work, or a forged one): 409 naming its status.
      await renderOrder(deps, res, signed, order, { alert: `The order's data was not deleted: ${err.message}.`, status: err.status });
    }
  });
  return router;
}
