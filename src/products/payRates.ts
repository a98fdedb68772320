// What people are paid (config/pay-rates.json): per product, cents per audio minute or per 1,000
// words, a language's own rate where it differs, a factor for faster turnarounds, and the
// reviewer's rate in the same unit (and the second reviewer's, where a product offers one). Pure:
// the activities credit what this computes on approval.
import { z } from 'zod';
import { ENUMS } from '../domain/catalog.js';
import { taskPayCents } from '../domain/humanWork/pay.js';
import type { ProductKey } from './registry.js';
import { STAGES, taskRowOf, type StageTable } from '../contracts/tasks.js';

const cents = z.number().int().nonnegative();
const productRates = z.strictObject({
  unit: z.enum(['minute', 'word']),
  cents,
  review_cents: cents,
  /** The second review an order with `additional_review` pays for; products that offer it set it. */
  second_review_cents: cents.optional(),
  languages: z.record(z.string(), cents).default({}),
  turnaround_factor: z.partialRecord(z.enum(ENUMS.turnaround_time), z.number().positive().max(10)).default({}),
});

export const payRatesSchema = z.partialRecord(z.string(), productRates);
export type PayRates = z.infer<typeof payRatesSchema>;

export interface PaidWork {
  product: ProductKey | string;
  stage: string;
  language: string;
  turnaround?: string;
  seconds: number;
  words: number;
}

/** The cents a task earns once approved (its stage's pay field); 0 for a product without rates. */
export function payForTask(rates: PayRates, work: PaidWork, stages: StageTable = STAGES): number {
  const rate = rates[work.product];
  const field = taskRowOf(work.stage, stages)?.pay;
  if (!rate || !field) return 0;
  const base = field === 'cents' ? (rate.languages[work.language] ?? rate.cents) : (rate[field] ?? rate.review_cents);
  const factor = work.turnaround ? (rate.turnaround_factor[work.turnaround as keyof typeof rate.turnaround_factor] ?? 1) : 1;
  return taskPayCents({ unit: rate.unit, cents: Math.round(base * factor) }, work);
}
