// The order record of operations 9 and 10 and the callback body of each event, both shaped by
// the order's product definition.
import type { CallbackEvent, OrderPlan } from '../contracts/orders.js';
import type { ResultKind } from '../domain/resultKinds.js';
import { formatUtc } from '../domain/time.js';
import { orderResultKinds, orderResults, productOf, type OrderParams } from './registry.js';

export interface RecordSource {
  id: number;
  product: string;
  status: string;
  priceCents: number;
  seconds: number;
  words: number;
  params: OrderParams;
  /** What placement fixed (the results among it). */
  plan: OrderPlan;
  paidAt: Date | null;
  deliveryEstimate: Date | null;
  finishedAt: Date | null;
  retranscribedOrderId: number | null;
  /** An engine order handed to people: its delivery estimate was moved then. */
  handedOverAt?: Date | null;
  /** The kept media was longer than paid for: only the paid part is worked (orders/orderMedia.ts). */
  mediaNote?: string | null;
  /** When it settled, how long its data is kept after, and when it was deleted (issue 53). */
  settledAt?: Date | null;
  deleteAfterSeconds?: number | null;
  deletedAt?: Date | null;
}

const facts = (order: RecordSource) => ({ id: order.id, status: order.status, retranscribedOrderId: order.retranscribedOrderId });

/** `fileUrl` builds a result URL (with the account token) for a result kind of the order. */
export function orderRecord(order: RecordSource, fileUrl: (kind: ResultKind) => string): Record<string, unknown> {
  const product = productOf(order.product);
  const record: Record<string, unknown> = {
    id: order.id,
    type: product.recordType,
    status: order.status,
    price: order.priceCents / 100,
    paid_at: order.paidAt ? formatUtc(order.paidAt) : null,
    delivery_estimate: order.deliveryEstimate ? formatUtc(order.deliveryEstimate) : null,
    finished_at: order.finishedAt ? formatUtc(order.finishedAt) : null,
    comment: order.params.comment ?? '',
    seconds: order.seconds,
    words: order.words,
    ...product.recordFields(order.params, facts(order)),
    // Beside the contract's fields, only on such orders (docs/decisions/vocabulary.md): the terms the customer
    // named, and what of the media is worked.
    ...(order.params.vocabulary?.length ? { vocabulary: order.params.vocabulary } : {}),
    ...(order.mediaNote ? { media_note: order.mediaNote } : {}),
    ...deletionFields(order),
  };
  // Result URLs are served once the order is finished, until its data is deleted; null otherwise.
  for (const { kind, field } of orderResults(order)) record[field] = order.status === 'finished' && !order.deletedAt ? fileUrl(kind) : null;
  return record;
}

/**
 * An order's data's life, beside the contract's fields where it has one: `delete_after_seconds` and
 * when that deletes it (`delete_at`, once it settled), and `deleted_at` once it was.
 */
function deletionFields(order: RecordSource): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (order.deleteAfterSeconds !== null && order.deleteAfterSeconds !== undefined) {
    fields.delete_after_seconds = order.deleteAfterSeconds;
    fields.delete_at = order.settledAt ? formatUtc(new Date(order.settledAt.getTime() + order.deleteAfterSeconds * 1000)) : null;
  }
  if (order.deletedAt) fields.deleted_at = formatUtc(order.deletedAt);
  return fields;
}

export function callbackFields(order: RecordSource, event: CallbackEvent, fileUrl: (kind: ResultKind) => string): Record<string, string> {
  const product = productOf(order.product);
  const delivered = new Set<string>(orderResultKinds(order));
  const fields = product.callbackFields({
    event,
    order: facts(order),
    params: order.params,
    url: (kind) => (delivered.has(kind) ? fileUrl(kind) : ''),
  });
  // An engine order handed to people was given a new delivery estimate, which its callbacks carry
  // (a field beside the contract's shape, only on such orders: docs/decisions/hand-off-delivery-estimate.md).
  return order.handedOverAt && order.deliveryEstimate ? { ...fields, delivery_estimate: formatUtc(order.deliveryEstimate) } : fields;
}
