// Prices in integer cents from a price table (config/prices.json, or PRICE_TABLE_PATH).
import { z } from 'zod';
import { ENUMS, type TurnaroundTime } from './catalog.js';

const perMinuteByTurnaround = z.object(
  Object.fromEntries(ENUMS.turnaround_time.map((t) => [t, z.number().int().nonnegative()])) as Record<TurnaroundTime, z.ZodNumber>,
);

export const priceTableSchema = z.object({
  transcription: z.object({
    per_minute_cents: perMinuteByTurnaround,
    surcharge_per_minute_cents: z.object({
      full_verbatim: z.number().int().nonnegative(),
      timestamping: z.number().int().nonnegative(),
      '3_or_more_speakers': z.number().int().nonnegative(),
    }),
    minimum_cents: z.number().int().nonnegative(),
  }),
});

export type PriceTable = z.infer<typeof priceTableSchema>;

export interface TranscriptionPriceInput {
  seconds: number;
  turnaround_time: TurnaroundTime;
  text_format: string;
  timestamping: string;
  number_of_speakers: string;
}

/** Per-second billing of a per-minute rate, rounded up to the cent, never below the minimum. */
export function transcriptionPriceCents(table: PriceTable, order: TranscriptionPriceInput): number {
  const t = table.transcription;
  let perMinute = t.per_minute_cents[order.turnaround_time];
  if (order.text_format === 'full_verbatim') perMinute += t.surcharge_per_minute_cents.full_verbatim;
  if (order.timestamping !== 'not_required') perMinute += t.surcharge_per_minute_cents.timestamping;
  if (order.number_of_speakers === '3_or_more') perMinute += t.surcharge_per_minute_cents['3_or_more_speakers'];
  return Math.max(t.minimum_cents, Math.ceil((order.seconds * perMinute) / 60));
}

export const centsToUsd = (cents: number): number => Math.round(cents) / 100;

/** USD amount as typed by an operator ("12.5") to cents, refusing fractions of a cent. */
export function usdToCents(usd: number): number {
  const cents = Math.round(usd * 100);
  if (!Number.isFinite(usd) || Math.abs(cents - usd * 100) > 1e-6) throw new RangeError(`not a whole number of cents: ${usd}`);
  return cents;
}
