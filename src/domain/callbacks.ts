// The callback body of each product and event, as the spec's Events table lists it.
import type { ProductKey, ResultKind } from './catalog.js';

export type CallbackEvent = 'finished' | 'refunded' | 'canceled' | 'quality_fix';

export interface CallbackOrder {
  id: number;
  product: ProductKey;
  params: Record<string, unknown>;
}

/** `fileUrl` builds a result URL (with the account token) for a result kind of the order. */
export function callbackFields(order: CallbackOrder, event: CallbackEvent, fileUrl: (kind: ResultKind) => string): Record<string, string> {
  const base = { mode: 'live', order_id: String(order.id) };
  if (event === 'canceled' || event === 'refunded') return { mode: base.mode, status: event, order_id: base.order_id };
  // A quality fix repeats the shape of the original finished callback (spec, Events rule 3).
  switch (order.product) {
    case 'transcription':
      return { ...base, transcription_url: fileUrl('transcription'), language: String(order.params.language) };
    default:
      throw new Error(`no callback shape is defined for ${order.product} orders yet`);
  }
}
