// An order shared by a link (issue 44): /shared/<token> opens the order's transcript beside its media
// and its downloads, without signing in, and nothing else of the account. The token is the link's
// own (src/db/shareLinks.ts); a stopped link, or one ended by a rotated API token, answers 404 from
// the next request on, an expired one 410. Every answer asks not to be indexed; reads are limited
// per link and viewer (client address, src/http/clientAddress.ts), and tokens that open nothing per
// address as failed sign-ins are, which never refuses a token that opens something.
import type { Router, Request, RequestHandler, Response } from 'express';
import type { WebDeps } from './context.js';
import type { OrderRow } from '../db/schema.js';
import { filesOf } from '../db/orders.js';
import { sharedOrder } from '../db/shareLinks.js';
import { DEFAULT_RATE_LIMITS, TokenBuckets } from '../http/tokenBuckets.js';
import { clientAddress } from '../http/clientAddress.js';
import { PageError, sendPage, webErrorHandler } from './errors.js';
import { duration, when } from './format.js';
import { html, type Part } from './html.js';
import { layout } from './layout.js';
import { filesHtml, productName } from './orderView.js';
import { sendOrderMedia, sendOrderResult } from './orderDownloads.js';
import { transcriptSection } from './pages/transcriptView.js';
import { caseSensitiveRouter } from '../http/router.js';

/** A share token as src/db/shareLinks.ts makes them (24 random bytes, base64url). */
const TOKEN_SHAPE = /^[\w-]{32}$/;
const GONE = 'This share link does not open anything: it was never made, or sharing was stopped.';

export function sharedOrders(deps: WebDeps): Router {
  const router = caseSensitiveRouter();
  // Keyed by order and address: one link per order, and the key holds no token.
  const reads = new TokenBuckets(deps.rateLimits?.readsPerMinute ?? DEFAULT_RATE_LIMITS.readsPerMinute);
  const misses = new TokenBuckets(deps.rateLimits?.failedAuthPerMinute ?? DEFAULT_RATE_LIMITS.failedAuthPerMinute);

  const noindex: RequestHandler = (_req, res, next) => {
    res.set('X-Robots-Tag', 'noindex, nofollow');
    next();
  };
  router.use(noindex);

  /**
   * The order a link opens, or the page's refusal: 404 for no live link (429 once the address has
   * tried too many of those), 410 when expired, 429 past the viewer's reads. A token that opens
   * something is looked up before the misses are asked, and costs none: guesses from an address
   * (a whole office behind one proxy) cannot lock its viewers out of a link.
   */
  async function openLink(req: Request, res: Response): Promise<OrderRow> {
    const token = String(req.params.token);
    const address = clientAddress(req);
    const refuse = (status: number, message: string, wait: number) => {
      res.set('Retry-After', String(wait));
      return new PageError(status, message);
    };
    const found = TOKEN_SHAPE.test(token) ? await sharedOrder(deps.db, deps.secretKey, token) : undefined;
    if (!found) {
      const blocked = misses.check(address, true);
      if (blocked) throw refuse(429, `Too many share links that open nothing were tried from this address; try again in ${blocked} seconds.`, blocked);
      throw new PageError(404, GONE);
    }
    if (found.order.status !== 'finished') throw new PageError(404, GONE);
    if (found.expired) throw new PageError(410, 'This share link has expired.');
    const wait = reads.check(`${found.order.id} ${address}`, true);
    if (wait) throw refuse(429, `This share link was read too often from this address; try again in ${wait} seconds.`, wait);
    return found.order;
  }

  router.get('/:token', async (req, res) => {
    const order = await openLink(req, res);
    const base = `/shared/${String(req.params.token)}`;
    const files = await filesOf(deps.db, order.id);
    const transcript = await transcriptSection(deps, order, files, base);
    const row = (term: string, value: Part) => html`<dt>${term}</dt><dd>${value}</dd>`;
    const body = html`<h1>Shared transcript</h1>
<dl>${row('Product', productName(order.product))}${order.seconds > 0 ? row('Duration', duration(order.seconds)) : ''}${row('Finished', when(order.finishedAt))}</dl>
${transcript}
<section id="result-files" aria-labelledby="files-heading"><h2 id="files-heading">Downloads</h2>${filesHtml(order, base)}</section>`;
    sendPage(res, 200, layout({ title: 'Shared transcript', area: 'shared', noindex: true, body }));
  });

  // Asked again on every play: a stopped link must stop its media too.
  router.get('/:token/media', async (req, res) => sendOrderMedia(req, res, deps, await openLink(req, res), 'no-cache'));

  router.get('/:token/files/:kind', async (req, res) => sendOrderResult(req, res, deps, await openLink(req, res), String(req.params.kind)));

  router.use(() => {
    throw new PageError(404, GONE);
  });
  router.use(webErrorHandler(deps.log));
  return router;
}
