// The order record of operations 9 and 10.
import { PRODUCTS, type ProductKey, type ResultKind, type TurnaroundTime } from './catalog.js';
import { recordTurnaround } from './turnaround.js';
import { formatUtc } from './time.js';

export interface RecordSource {
  id: number;
  product: string;
  status: string;
  priceCents: number;
  seconds: number;
  words: number;
  params: Record<string, unknown>;
  paidAt: Date | null;
  deliveryEstimate: Date | null;
  finishedAt: Date | null;
}

const PASSED_THROUGH = ['language', 'translate_from', 'translate_to', 'text_format', 'timestamping', 'number_of_speakers', 'captions', 'auto_retranscribe'];

export function orderRecord(order: RecordSource, fileUrl: (kind: ResultKind) => string): Record<string, unknown> {
  const product = PRODUCTS[order.product as ProductKey];
  const record: Record<string, unknown> = {
    id: order.id,
    type: product.recordType,
    status: order.status,
    price: order.priceCents / 100,
    paid_at: order.paidAt ? formatUtc(order.paidAt) : null,
    delivery_estimate: order.deliveryEstimate ? formatUtc(order.deliveryEstimate) : null,
    finished_at: order.finishedAt ? formatUtc(order.finishedAt) : null,
    comment: typeof order.params.comment === 'string' ? order.params.comment : '',
    seconds: order.seconds,
    words: order.words,
  };
  for (const field of PASSED_THROUGH) {
    if (field in product.params && order.params[field] !== undefined) record[field] = order.params[field];
  }
  if ('turnaround_time' in product.params && order.params.turnaround_time) {
    record.turnaround_time = recordTurnaround(order.params.turnaround_time as TurnaroundTime);
  }
  for (const kind of product.resultKinds) {
    // Result URLs are served once the order is finished; null until then.
    record[`${kind}_url`] = order.status === 'finished' ? fileUrl(kind) : null;
  }
  return record;
}
