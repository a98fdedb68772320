// Sample orders answered to `mode=test` on operations 9 and 10 (spec, listing rule 1): every
// product, every state an order can be in, a finished one of each product, each product's in its
// own definition (`samples`); and the sample transcript their result files are rendered from, so
// a client can try the whole read path.
import { fixedPlanOf, type OrderToPlace } from '../contracts/orders.js';
import type { Transcript } from '../domain/transcript.js';
import type { RecordSource } from './records.js';
import { PRODUCT_LIST } from './registry.js';
import { orderPlan } from './shared.js';
import type { ProductDefinition, SampleOrder } from './types.js';

const day = (d: number, h = 10) => new Date(Date.UTC(2026, 0, d, h));

/** A product's sample as an order: paid on day `id` of January 2026, estimated 5 days later, finished 3 days after it was paid. */
const sampleOrder = (product: ProductDefinition, sample: SampleOrder): RecordSource => ({
  id: sample.id,
  product: product.key,
  plan: fixedPlanOf(orderPlan(product, sample.params) as OrderToPlace),
  status: sample.status,
  priceCents: sample.priceCents,
  seconds: sample.seconds,
  words: sample.words,
  params: sample.params,
  retranscribedOrderId: sample.retranscribedOrderId ?? null,
  paidAt: day(sample.id),
  deliveryEstimate: day(sample.id + 5),
  finishedAt: sample.status === 'finished' ? day(sample.id + 3, 16) : null,
});

/** Every product's samples (their definitions' `samples`), the newest first. */
export const SAMPLE_ORDERS: readonly RecordSource[] = PRODUCT_LIST.flatMap((p) => p.samples.map((sample) => sampleOrder(p, sample))).sort(
  (a, b) => b.id - a.id,
);

/** A sample order by id, or undefined. */
export const sampleOrderById = (id: number): RecordSource | undefined => SAMPLE_ORDERS.find((o) => o.id === id);

/** The ids of the sample orders, for messages: "1–14". */
export const SAMPLE_ID_RANGE = `${Math.min(...SAMPLE_ORDERS.map((o) => o.id))}–${Math.max(...SAMPLE_ORDERS.map((o) => o.id))}`;

const words = (text: string, start: number, end: number) => {
  const list = text.split(' ');
  const step = (end - start) / list.length;
  return list.map((w, i) => ({ text: w, start: +(start + i * step).toFixed(2), end: +(start + (i + 1) * step).toFixed(2) }));
};

/** What every sample result file holds, rendered in the format asked for (speakers, times, word timings). */
export const SAMPLE_TRANSCRIPT: Transcript = {
  segments: [
    {
      speaker: 'Ann',
      start: 0,
      end: 4.2,
      text: 'Welcome to the sample order of this service.',
      words: words('Welcome to the sample order of this service.', 0, 4.2),
    },
    {
      speaker: 'Bo',
      start: 4.6,
      end: 9.8,
      text: 'Every result URL of a sample downloads a file like this one.',
      words: words('Every result URL of a sample downloads a file like this one.', 4.6, 9.8),
    },
  ],
};
