// Sample callback: a product's exact callback shape for an event, signed, sent to the saved
// callback URL or one typed in; the page shows what the receiver answered.
import type { Router, Response } from 'express';
import type { WebDeps } from '../context.js';
import { SAMPLE_EVENTS, sampleCallbackFields, sendSampleCallback, type AttemptOutcome, type SampleEvent } from '../../orders/deliverCallback.js';
import { RequestError } from '../../contracts/failures.js';
import { isProductKey, PRODUCT_LIST, type ProductKey } from '../../products/registry.js';
import { sendPage } from '../errors.js';
import { customerDetail, truncate } from '../format.js';
import { html, type Html } from '../html.js';
import { alert, csrfInput, layout, notice } from '../layout.js';
import { productName } from '../orderView.js';
import { signedIn } from '../session.js';
import { caseSensitiveRouter } from '../../http/router.js';

interface Choice {
  product: string;
  event: string;
  url: string;
}
interface Sent {
  url: string;
  product: ProductKey;
  event: SampleEvent;
  outcome: AttemptOutcome;
}

function resultSection(deps: WebDeps, sent: Sent): Html {
  const { outcome } = sent;
  const fields = sampleCallbackFields(deps.publicBaseUrl, sent.product, sent.event);
  return html`<section id="sample-result" aria-labelledby="result-heading"><h2 id="result-heading">Result</h2>
<dl>
<dt>Sent to</dt><dd><code>${sent.url}</code></dd>
<dt>HTTP status</dt><dd data-field="status-code">${outcome.statusCode ?? 'no answer'}</dd>
<dt>Answer</dt><dd data-field="answer"><pre>${truncate(outcome.answer, 500)}</pre></dd>
<dt>Delivered (2xx with the answer <code>ok</code>)</dt><dd data-field="delivered">${outcome.delivered ? 'yes' : 'no'}</dd>
${outcome.detail ? html`<dt>Why not</dt><dd data-field="detail">${truncate(customerDetail(outcome.detail), 300)}</dd>` : ''}
<dt>Duration</dt><dd>${outcome.durationMs} ms</dd>
<dt>Signature id (webhook-id)</dt><dd data-field="webhook-id"><code>${outcome.webhookId}</code></dd>
</dl>
<h3>Fields sent (multipart/form-data)</h3>
<table id="sample-fields"><thead><tr><th scope="col">Field</th><th scope="col">Value</th></tr></thead>
<tbody>${Object.entries(fields).map(([name, value]) => html`<tr><td><code>${name}</code></td><td><code>${value}</code></td></tr>`)}</tbody></table>
</section>`;
}

function samplePage(deps: WebDeps, res: Response, choice: Choice, messages: { alert?: string; sent?: Sent }): string {
  const { account, csrf } = signedIn(res);
  const option = (value: string, text: string, chosen: string) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`;
  const body = html`<h1>Sample callback</h1>
<p>Sends a callback of exactly the chosen product's shape for the chosen event, signed with your signing secret, so that you can try your receiver.
It must answer with HTTP 2xx and the plain text <code>ok</code> to count as delivered.</p>
${alert(messages.alert)}${messages.sent ? notice(`Sample callback sent: ${messages.sent.outcome.delivered ? 'delivered' : 'not delivered'}.`) : ''}
<form id="sample-callback" method="post" action="/account/sample-callback">${csrfInput(csrf)}
<p><label for="product">Product</label>
<select id="product" name="product">${PRODUCT_LIST.map((p) => option(p.key, `${productName(p.key)} (${p.key})`, choice.product))}</select></p>
<p><label for="event">Event</label>
<select id="event" name="event">${SAMPLE_EVENTS.map((e) => option(e, e, choice.event))}</select></p>
<p><label for="url">Receiver URL</label>
<input id="url" name="url" type="text" inputmode="url" autocomplete="url" spellcheck="false" value="${choice.url}" aria-describedby="url-hint">
<span id="url-hint" class="hint">${account.callbackUrl ? html`Empty: your saved callback URL, <code>${account.callbackUrl}</code>.` : 'You have no saved callback URL: type one.'}</span></p>
<p><button type="submit">Send sample callback</button></p>
</form>
${messages.sent ? resultSection(deps, messages.sent) : ''}`;
  return layout({ title: 'Sample callback', csrf, current: 'sample', body });
}

export function sampleRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();

  router.get('/sample-callback', (_req, res) => {
    sendPage(res, 200, samplePage(deps, res, { product: PRODUCT_LIST[0]!.key, event: 'finished', url: '' }, {}));
  });

  router.post('/sample-callback', async (req, res) => {
    const { account } = signedIn(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string).trim() : '');
    const choice: Choice = { product: text('product'), event: text('event'), url: text('url') };
    const refuse = (message: string) => sendPage(res, 400, samplePage(deps, res, choice, { alert: message }));
    if (!isProductKey(choice.product)) return refuse('product: choose one of the products.');
    if (!(SAMPLE_EVENTS as readonly string[]).includes(choice.event)) return refuse(`event: choose ${SAMPLE_EVENTS.join(', ')}.`);
    const url = choice.url || account.callbackUrl || '';
    if (!url) return refuse('url: type the URL of your receiver, or save a callback URL in Settings.');
    const event = choice.event as SampleEvent;
    try {
      const outcome = await sendSampleCallback(deps, account, { product: choice.product, event, url });
      sendPage(res, 200, samplePage(deps, res, choice, { sent: { url, product: choice.product, event, outcome } }));
    } catch (err) {
      if (err instanceof RequestError) return refuse(err.message);
      throw err;
    }
  });
  return router;
}
