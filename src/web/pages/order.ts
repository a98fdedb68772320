// One order: its parameters in words, a timeline, every callback attempt, its result files, and the
// form that delivers its last callback again where that can be done.
import { Router, type Response } from 'express';
import type { WebDeps } from '../context.js';
import { callbackUrlOf, resendLastCallback } from '../../orders/deliverCallback.js';
import { RequestError } from '../../contracts/failures.js';
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
import { clock } from '../../domain/workbench/editorText.js';
import { orderLedger } from '../../db/accountArea.js';
import { isSettled, statusLabel } from '../../domain/statusLabels.js';
import { setFlash, signedIn, takeFlash, type Signed } from '../session.js';
import { timelineEntries, timelineHtml } from '../timeline.js';
import { signedInOrder } from './orders.js';

const NOTICES: Record<string, string> = {
  ...SHARING_NOTICES,
  'resent-ok': 'The last callback was sent again and delivered: the receiver answered ok.',
  'resent-failed': 'The last callback was sent again, but the receiver did not answer ok: see the newest attempt below.',
};

/** How a parameter's value reads: as given, as words (enum slugs), a language's name, a clock time, … */
type Reading = 'as-given' | 'words' | 'language' | 'clock' | 'upper' | 'order';

/**
 * The order's parameters as a person reads them: each API name's label and how its value reads, in
 * the order the page lists them (the products' request schemas, src/products/, and what an order
 * learns, LearntParams). A name not here still shows, after these, its name in words.
 */
const PARAMETER_WORDS: Readonly<Record<string, { label: string; reads?: Reading }>> = {
  url: { label: 'Media file' }, // 'File' where the order's url is a document or an image (labelOf)
  audio_url: { label: 'Audio file' },
  transcription_url: { label: 'Transcript supplied' },
  source: { label: 'File kind', reads: 'words' },
  subtitles: { label: 'Subtitle format', reads: 'upper' },
  cues: { label: 'Subtitle cues' },
  language: { label: 'Language', reads: 'language' },
  spoken_language: { label: 'Language spoken', reads: 'language' },
  translate_from: { label: 'Translated from', reads: 'language' },
  translate_to: { label: 'Translated into', reads: 'language' },
  from: { label: 'From', reads: 'clock' },
  till: { label: 'Until', reads: 'clock' },
  requested_till: { label: 'Until, as asked', reads: 'clock' },
  text_format: { label: 'Text format', reads: 'words' },
  timestamping: { label: 'Timestamps', reads: 'words' },
  number_of_speakers: { label: 'Speakers', reads: 'words' },
  turnaround_time: { label: 'Turnaround', reads: 'words' },
  requested_turnaround_time: { label: 'Turnaround asked for', reads: 'words' },
  strict: { label: 'Strict turnaround' },
  captions: { label: 'Captions too' },
  additional_review: { label: 'Second review' },
  auto_retranscribe: { label: 'Retranscribe if too poor' },
  vocabulary: { label: 'Vocabulary' },
  comment: { label: 'Comment' },
  retranscription_of: { label: 'Replaces proofreading order', reads: 'order' },
  callback_url: { label: 'Callback URL' }, // shown in a row of its own, with the account's where the order has none
};

/** Enum values whose words are not just their slug's. */
const VALUE_WORDS: Readonly<Record<string, string>> = { '1_days': '1 day', change_of_speaker: 'At each change of speaker' };

/** The table's entry of a parameter (own keys only: a parameter may be named `constructor`). */
const wordsOf = (name: string) => (Object.hasOwn(PARAMETER_WORDS, name) ? PARAMETER_WORDS[name] : undefined);

/** `text_format` → "Text format", `5_days` → "5 days". */
const inWords = (slug: string) => {
  const words = slug.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

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
  if (reads === 'words') return Object.hasOwn(VALUE_WORDS, value) ? VALUE_WORDS[value]! : inWords(value);
  return reads === 'upper' ? value.toUpperCase() : value;
}

const valueOf = (value: unknown, reads: Reading = 'as-given'): Html | string =>
  reads === 'order' && typeof value === 'number' ? orderLink(value) : textOf(value, reads);

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
  const noUrl = html`<p id="no-callback-url">Neither this order nor the account has a callback URL, so no callback is sent for it. The account's is set in <a href="/account/settings">Settings</a>.</p>`;
  if (attempts.length === 0) return callbackUrl ? html`<p>No callback has been sent for this order yet.</p>` : noUrl;
  if (!callbackUrl) return html`${attemptsTable(attempts)}${noUrl}`;
  return html`${attemptsTable(attempts)}
<form id="resend" method="post" action="/account/orders/${order.id}/resend">${csrfInput(csrf)}
<button type="submit">Resend last callback</button>
<span class="hint">Sends the order's last callback again, with the same webhook-id, to its callback URL.</span></form>`;
}

async function renderOrder(deps: WebDeps, res: Response, signed: Signed, order: OrderRow, messages: { notice?: string; alert?: string; status?: number }) {
  const [ledger, attempts, files, tasks] = await Promise.all([
    orderLedger(deps.db, signed.account.id, order.id),
    callbackAttemptsOf(deps.db, order.id),
    filesOf(deps.db, order.id),
    tasksOfOrder(deps.db, order.id),
  ]);
  const progress = order.status === 'paid' ? await workProgress(deps.temporal, order.id) : undefined;
  const [transcript, sharing] = await Promise.all([transcriptSection(deps, order, files, accountOrderPath(order)), sharingSection(deps, signed, order)]);
  const label = statusLabel(order);
  const body = html`<h1>Order ${order.id}</h1>
${notice(messages.notice)}${alert(messages.alert)}
<div class="order"${isSettled(label) ? '' : html` data-poll="${order.id}"`} data-status="${label}">
${parameters(order, signed.account.callbackUrl)}
<section id="result-files" aria-labelledby="files-heading"><h2 id="files-heading">Result files</h2><div data-field="files">${filesHtml(order)}</div></section>
</div>
${sharing}
${transcript}
<section aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2>${timelineHtml(timelineEntries(order, ledger, attempts, files, progress, tasks))}</section>
<section aria-labelledby="callbacks-heading"><h2 id="callbacks-heading">Callbacks</h2>
${callbacks(order, attempts, callbackUrlOf(order, signed.account), signed.csrf)}
</section>`;
  sendPage(res, messages.status ?? 200, layout({ title: `Order ${order.id}`, csrf: signed.csrf, current: 'orders', body }));
}

export function orderRouter(deps: WebDeps): Router {
  const router = Router();

  router.get('/orders/:id', async (req, res) => {
    const order = await signedInOrder(deps, res, req.params.id);
    const flash = takeFlash(req, res, deps.publicBaseUrl);
    await renderOrder(deps, res, signedIn(res), order, { notice: flash && Object.hasOwn(NOTICES, flash) ? NOTICES[flash] : undefined });
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
      await renderOrder(deps, res, signed, order, { alert: `The callback was not resent: ${err.message}.`, status: 409 });
    }
  });
  return router;
}
