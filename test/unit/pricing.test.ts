import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { centsToUsd, splitSubscription, usdToCents } from '../../src/domain/pricing.js';
import { priceTableSchema } from '../../src/products/registry.js';
import { transcriptionPriceCents as price } from '../../src/products/transcription/index.js';

const table = priceTableSchema.parse(JSON.parse(readFileSync('config/prices.json', 'utf8'))) as any;
const plain = { text_format: 'clean_verbatim', timestamping: 'not_required', number_of_speakers: '1_or_2', turnaround_time: '5_days' } as const;
const transcriptionPriceCents = (t: unknown, o: (typeof plain & { seconds: number }) | Record<string, any>) => price(table.transcription, o as any, o.seconds);

describe('pricing', () => {
  it('bills per second at the per-minute rate of the turnaround', () => {
    expect(transcriptionPriceCents(table, { ...plain, seconds: 600 })).toBe(1250);
    expect(transcriptionPriceCents(table, { ...plain, seconds: 600, turnaround_time: '3_days' })).toBe(1500);
    expect(transcriptionPriceCents(table, { ...plain, seconds: 600, turnaround_time: '1_days' })).toBe(2000);
    expect(transcriptionPriceCents(table, { ...plain, seconds: 600, turnaround_time: '12_hours' })).toBe(3000);
  });

  it('adds each surcharge per minute', () => {
    expect(transcriptionPriceCents(table, { ...plain, seconds: 60, text_format: 'full_verbatim' })).toBe(150);
    expect(transcriptionPriceCents(table, { ...plain, seconds: 60, timestamping: 'change_of_speaker' })).toBe(150);
    expect(transcriptionPriceCents(table, { ...plain, seconds: 60, number_of_speakers: '3_or_more' })).toBe(150);
    expect(
      transcriptionPriceCents(table, {
        seconds: 60,
        text_format: 'full_verbatim',
        timestamping: 'every_10_seconds',
        number_of_speakers: '3_or_more',
        turnaround_time: '12_hours',
      }),
    ).toBe(375);
  });

  it('rounds up to the cent and never charges below the minimum', () => {
    expect(transcriptionPriceCents(table, { ...plain, seconds: 61 })).toBe(128); // 127.08 → 128
    expect(transcriptionPriceCents(table, { ...plain, seconds: 1 })).toBe(100);
    expect(transcriptionPriceCents(table, { ...plain, seconds: 0 })).toBe(100);
  });

  it('converts between cents and dollars without float drift', () => {
    expect(centsToUsd(1999)).toBe(19.99);
    expect(usdToCents(19.99)).toBe(1999);
    expect(usdToCents(0.1 + 0.2)).toBe(30);
    expect(() => usdToCents(1.005)).toThrow(RangeError);
  });

  it('lets AI subscription minutes pay whole minutes first, the wallet the seconds left', () => {
    expect(splitSubscription(150, 25, 0, 10)).toEqual({ minutesUsed: 0, cents: 25 });
    expect(splitSubscription(150, 25, 10, 10)).toEqual({ minutesUsed: 3, cents: 0 });
    expect(splitSubscription(150, 25, 2, 10)).toEqual({ minutesUsed: 2, cents: 5 }); // 30 s at 10¢/min
    expect(splitSubscription(150, 25, -1, 10)).toEqual({ minutesUsed: 0, cents: 25 });
  });

  it('refuses a price table with a missing turnaround or a missing product', () => {
    const withoutOcr = JSON.parse(readFileSync('config/prices.json', 'utf8'));
    delete withoutOcr.human_ocr;
    expect(priceTableSchema.safeParse(withoutOcr).success).toBe(false);
    const broken = JSON.parse(readFileSync('config/prices.json', 'utf8'));
    delete broken.transcription.per_minute_cents['12_hours'];
    expect(priceTableSchema.safeParse(broken).success).toBe(false);
  });
});
