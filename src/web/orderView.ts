// Pieces of an order both the list and the order page show: its status and its result links.
import type { OrderRow } from '../db/schema.js';
import { isProductKey, orderResults, productOf } from '../products/registry.js';
import { html, type Html } from './html.js';
import { statusLabel } from '../domain/statusLabels.js';
import { when } from './format.js';

export function productName(key: string): string {
  const label = isProductKey(key) ? productOf(key).label : key;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

export const kindName = (kind: string): string => kind.replace(/_/g, ' ');

export const orderLink = (id: number): Html => html`<a href="/account/orders/${id}">${id}</a>`;

/** The status label; a retranscribed order links to the order that replaced it; "Deleted" and when, once its data was. */
export function statusHtml(order: OrderRow): Html {
  const label = statusLabel(order);
  const deleted = order.deletedAt ? html` <span class="deleted" data-field="deleted">· Deleted ${when(order.deletedAt)}</span>` : '';
  if (order.status === 'retranscribed' && order.retranscribedOrderId !== null) {
    return html`${label} → <a href="/account/orders/${order.retranscribedOrderId}" aria-label="retranscribed as order ${order.retranscribedOrderId}">order ${order.retranscribedOrderId}</a>${deleted}`;
  }
  return html`${label}${deleted}`;
}

/** Where the account area serves an order's page, media and files. */
export const accountOrderPath = (order: OrderRow): string => `/account/orders/${order.id}`;

/**
 * A link per result kind and format once the order is finished, until its data is deleted, under
 * `base` (the account's order path, served with the session; or a share link's, served by its
 * token): never the API token.
 */
export function filesHtml(order: OrderRow, base = accountOrderPath(order)): Html {
  if (order.deletedAt) return html`<span class="muted">Deleted</span>`;
  if (order.status !== 'finished') return html`<span class="muted">—</span>`;
  return html`<ul class="files">${orderResults(order).map(
    ({ kind, formats }) =>
      html`<li><span class="kind">${kindName(kind)}:</span> ${formats.map(
        (format) =>
          html` <a href="${base}/files/${kind}?format=${format}" data-kind="${kind}" data-format="${format}" aria-label="${kindName(kind)} of order ${order.id} as ${format}">${format}</a>`,
      )}</li>`,
  )}</ul>`;
}
