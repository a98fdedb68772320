// One order: its parameters, a timeline, every callback attempt, its result files, and the
// form that delivers its last callback again.
import { Router, type Response } from 'express';
import type { WebDeps } from '../context.js';
import { resendLastCallback } from '../../orders/deliverCallback.js';
import { RequestError } from '../../contracts/failures.js';
import { callbackAttemptsOf, filesOf, getAccountOrder } from '../../db/orders.js';
import { tasksOfOrder } from '../../db/tasks.js';
import type { CallbackAttemptRow, OrderRow } from '../../db/schema.js';
import { orderNotFound, sendPage } from '../errors.js';
import { customerDetail, truncate, usd, when } from '../format.js';
import { html, type Html } from '../html.js';
import { alert, csrfInput, layout, notice } from '../layout.js';
import { filesHtml, orderLink, productName, statusHtml } from '../orderView.js';
import { workProgress } from '../progress.js';
import { orderLedger } from '../../db/accountArea.js';
import { isSettled, statusLabel } from '../../domain/statusLabels.js';
import { setFlash, signedIn, takeFlash, type Signed } from '../session.js';
import { timelineEntries, timelineHtml } from '../timeline.js';
import { orderIdOf } from './orders.js';

const RESENT: Record<string, string> = {
  'resent-ok': 'The last callback was sent again and delivered: the receiver answered ok.',
  'resent-failed': 'The last callback was sent again, but the receiver did not answer ok: see the newest attempt below.',
};

const duration = (seconds: number) => `${Math.floor(seconds / 60)} min ${seconds % 60} s (${seconds} s)`;
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function parameters(order: OrderRow, accountCallbackUrl: string | null): Html {
  const row = (term: string, value: Html | string | number) => html`<dt>${term}</dt><dd>${value}</dd>`;
  const callback = order.callbackUrl ?? (accountCallbackUrl ? `${accountCallbackUrl} (the account's)` : 'none');
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
${order.parentOrderId !== null ? row('Replaces proofreading order', orderLink(order.parentOrderId)) : ''}
${row('Callback URL', callback)}
${Object.entries(order.params).map(([key, value]) => html`<dt>${key.replace(/_/g, ' ')}</dt><dd dir="auto">${shown(value)}</dd>`)}
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
  if (attempts.length === 0) return html`<p>No callback has been sent for this order yet.</p>`;
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

async function renderOrder(deps: WebDeps, res: Response, signed: Signed, order: OrderRow, messages: { notice?: string; alert?: string; status?: number }) {
  const [ledger, attempts, files, tasks] = await Promise.all([
    orderLedger(deps.db, signed.account.id, order.id),
    callbackAttemptsOf(deps.db, order.id),
    filesOf(deps.db, order.id),
    tasksOfOrder(deps.db, order.id),
  ]);
  const progress = order.status === 'paid' ? await workProgress(deps.temporal, order.id) : undefined;
  const label = statusLabel(order);
  const body = html`<h1>Order ${order.id}</h1>
${notice(messages.notice)}${alert(messages.alert)}
<div class="order"${isSettled(label) ? '' : html` data-poll="${order.id}"`} data-status="${label}">
${parameters(order, signed.account.callbackUrl)}
<section id="result-files" aria-labelledby="files-heading"><h2 id="files-heading">Result files</h2><div data-field="files">${filesHtml(order)}</div></section>
</div>
<section aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2>${timelineHtml(timelineEntries(order, ledger, attempts, files, progress, tasks))}</section>
<section aria-labelledby="callbacks-heading"><h2 id="callbacks-heading">Callbacks</h2>
${attemptsTable(attempts)}
<form id="resend" method="post" action="/account/orders/${order.id}/resend">${csrfInput(signed.csrf)}
<button type="submit">Resend last callback</button>
<span class="hint">Sends the order's last callback again, with the same webhook-id, to its callback URL.</span></form>
</section>`;
  sendPage(res, messages.status ?? 200, layout({ title: `Order ${order.id}`, csrf: signed.csrf, current: 'orders', body }));
}

export function orderRouter(deps: WebDeps): Router {
  const router = Router();
  const findOrder = async (res: Response, raw: string) => {
    const id = orderIdOf(raw);
    const order = id === undefined ? undefined : await getAccountOrder(deps.db, signedIn(res).account.id, id);
    if (!order) throw orderNotFound();
    return order;
  };

  router.get('/orders/:id', async (req, res) => {
    const order = await findOrder(res, req.params.id);
    const flash = takeFlash(req, res, deps.publicBaseUrl);
    await renderOrder(deps, res, signedIn(res), order, { notice: flash && RESENT[flash] });
  });

  router.post('/orders/:id/resend', async (req, res) => {
    const signed = signedIn(res);
    const order = await findOrder(res, req.params.id);
    try {
      const outcome = await resendLastCallback(deps, signed.account.id, order.id);
      deps.log('callback resent from the account area', { orderId: order.id, accountId: order.accountId, outcome: outcome.outcome });
      setFlash(req, res, deps.publicBaseUrl, outcome.delivered ? 'resent-ok' : 'resent-failed');
      res.redirect(303, `/account/orders/${order.id}`);
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      await renderOrder(deps, res, signed, order, { alert: `The callback was not resent: ${err.message}.`, status: 409 });
    }
  });
  return router;
}
