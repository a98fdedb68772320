// The account's orders: the filtered, paginated list, the status feed app.js polls, and the
// result files served with the session (the same rendering as the API's file route).
import type { Router, Response } from 'express';
import type { WebDeps } from '../context.js';
import { getAccountOrder } from '../../db/orders.js';
import type { OrderRow } from '../../db/schema.js';
import { isProductKey, PRODUCT_LIST } from '../../products/registry.js';
import { orderNotFound, PageError, sendPage } from '../errors.js';
import { queryString, usd, when } from '../format.js';
import { html, type Html } from '../html.js';
import { alert, layout, pager } from '../layout.js';
import { filesHtml, orderLink, productName, statusHtml } from '../orderView.js';
import { findOrders, ordersByIds, type OrderFilter } from '../../db/accountArea.js';
import { isSettled, statusLabel, STATUS_LABELS, type StatusLabel } from '../../domain/statusLabels.js';
import { signedIn } from '../session.js';
import { sendOrderResult } from '../orderDownloads.js';
import { caseSensitiveRouter } from '../../http/router.js';

const PAGE_SIZE = 20;

/** An order id from a path or the search box; undefined when it cannot be one. */
/** The signed-in account's order named by a path's `:id`; the page's 404 for another account's or none. */
export async function signedInOrder(deps: WebDeps, res: Response, raw: string): Promise<OrderRow> {
  const id = orderIdOf(raw);
  const order = id === undefined ? undefined : await getAccountOrder(deps.db, signedIn(res).account.id, id);
  if (!order) throw orderNotFound();
  return order;
}

export function orderIdOf(raw: string): number | undefined {
  const digits = raw.replace(/^#/, '');
  return /^\d{1,15}$/.test(digits) ? Number(digits) : undefined;
}

/** A table row; `data-poll` asks app.js to keep its status current. */
export function orderRow(o: OrderRow): Html {
  const label = statusLabel(o);
  return html`<tr data-order-id="${o.id}"${isSettled(label) ? '' : html` data-poll="${o.id}"`} data-status="${label}">
<td data-label="Order">${orderLink(o.id)}</td>
<td data-label="Product">${productName(o.product)}</td>
<td data-label="Status" data-field="status" aria-live="polite">${statusHtml(o)}</td>
<td data-label="Price">${usd(o.priceCents)}</td>
<td data-label="Placed">${when(o.paidAt ?? o.createdAt)}</td>
<td data-label="Delivery estimate">${when(o.deliveryEstimate)}</td>
<td data-label="Result files" data-field="files">${filesHtml(o)}</td>
</tr>`;
}

const select = (name: string, label: string, options: Array<[string, string]>, chosen: string) => html`<label for="${name}">${label}</label>
<select id="${name}" name="${name}">${options.map(([value, text]) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`)}</select>`;

export function ordersRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();

  router.get('/orders', async (req, res) => {
    const signed = signedIn(res);
    const product = queryString(req.query.product);
    const status = queryString(req.query.status);
    const q = queryString(req.query.q);
    const page = Math.min(Math.max(1, Math.floor(Number(queryString(req.query.page)) || 1)), 100_000);
    const problems: string[] = [];
    const filter: OrderFilter = {};
    if (product && isProductKey(product)) filter.product = product;
    else if (product) problems.push(`"${product}" is not a product.`);
    if ((STATUS_LABELS as readonly string[]).includes(status)) filter.status = status as StatusLabel;
    else if (status) problems.push(`"${status}" is not a status.`);
    if (q) {
      filter.id = orderIdOf(q);
      if (filter.id === undefined) problems.push(`"${q}" is not an order id: search by the order's number.`);
    }
    const rows = problems.length ? [] : await findOrders(deps.db, signed.account.id, filter, (page - 1) * PAGE_SIZE, PAGE_SIZE);
    const shown = rows.slice(0, PAGE_SIZE);
    const link = (to: number) => {
      const params = new URLSearchParams(Object.entries({ product, status, q }).filter(([, v]) => v !== ''));
      if (to > 1) params.set('page', String(to));
      return `/account/orders${params.size ? `?${params}` : ''}`;
    };
    const filtered = Boolean(product || status || q);
    const body = html`<h1>Orders</h1>
<p><a id="new-order-link" href="/account/orders/new">New order</a></p>
<form id="order-filter" method="get" action="/account/orders" class="filters">
<div>${select('product', 'Product', [['', 'All'], ...PRODUCT_LIST.map((p): [string, string] => [p.key, productName(p.key)])], product)}</div>
<div>${select('status', 'Status', [['', 'All'], ...STATUS_LABELS.map((s): [string, string] => [s, s])], status)}</div>
<div><label for="q">Order id</label><input id="q" name="q" type="search" inputmode="numeric" value="${q}" autocomplete="off"></div>
<div><button type="submit">Filter</button>${filtered ? html` <a href="/account/orders">Clear</a>` : ''}</div>
</form>
${alert(problems.join(' ') || undefined)}
${shown.length === 0 && !problems.length ? html`<p>${filtered ? 'No order matches.' : 'No orders yet.'}</p>` : ''}
<div class="table-wrap"><table id="orders" class="cards">
<caption>Your orders, newest first${page > 1 ? html` (page ${page})` : ''}</caption>
<thead><tr><th scope="col">Order</th><th scope="col">Product</th><th scope="col">Status</th><th scope="col">Price</th><th scope="col">Placed</th><th scope="col">Delivery estimate</th><th scope="col">Result files</th></tr></thead>
<tbody>${shown.map(orderRow)}</tbody>
</table></div>
${pager(page > 1 ? link(page - 1) : undefined, rows.length > PAGE_SIZE ? link(page + 1) : undefined, 'Newer orders', 'Older orders')}`;
    sendPage(res, 200, layout({ title: 'Orders', csrf: signed.csrf, current: 'orders', body }));
  });

  // The live status of the listed orders: `{ "<id>": { status, status_html, files_html, settled } }`; another account's ids are absent.
  router.get('/orders/status.json', async (req, res) => {
    const ids = [
      ...new Set(
        queryString(req.query.ids)
          .split(',')
          .map((s) => orderIdOf(s.trim()))
          .filter((id) => id !== undefined),
      ),
    ].slice(0, 100);
    const rows = await ordersByIds(deps.db, signedIn(res).account.id, ids);
    const answer = Object.fromEntries(
      rows.map((o) => {
        const label = statusLabel(o);
        return [o.id, { status: label, status_html: statusHtml(o).text, files_html: filesHtml(o).text, settled: isSettled(label) }];
      }),
    );
    res.set('Cache-Control', 'no-store').json(answer);
  });

  router.get('/orders/:id/files/:kind', async (req, res) => {
    await sendOrderResult(req, res, deps, await signedInOrder(deps, res, req.params.id), req.params.kind);
  });
  return router;
}
