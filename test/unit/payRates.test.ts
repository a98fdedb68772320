import { describe, expect, it } from 'vitest';
import { payForTask, payRatesSchema } from '../../src/products/payRates.js';

describe('payForTask', () => {
  const rates = payRatesSchema.parse({
    translation: { unit: 'word', cents: 6000, review_cents: 1500, second_review_cents: 2000 },
    transcription: { unit: 'minute', cents: 45, review_cents: 12, languages: { english: 40 }, turnaround_factor: { '1_days': 1.25 } },
  });
  const translation = { product: 'translation', language: 'french', seconds: 0, words: 2000 };

  it('pays the work, the review and the second review each at its own rate', () => {
    expect(payForTask(rates, { ...translation, stage: 'work' })).toBe(12_000);
    expect(payForTask(rates, { ...translation, stage: 'review' })).toBe(3_000);
    expect(payForTask(rates, { ...translation, stage: 'second_review' })).toBe(4_000);
  });

  it('pays a second review at the review rate where a product sets none, a language its own rate, a faster turnaround more', () => {
    const minutes = { product: 'transcription', seconds: 600, words: 0 };
    expect(payForTask(rates, { ...minutes, stage: 'second_review', language: 'french' })).toBe(120);
    expect(payForTask(rates, { ...minutes, stage: 'work', language: 'english' })).toBe(400);
    expect(payForTask(rates, { ...minutes, stage: 'work', language: 'french', turnaround: '1_days' })).toBe(Math.round(45 * 1.25) * 10);
    expect(payForTask(rates, { ...minutes, stage: 'work', language: 'french', product: 'captions' })).toBe(0);
  });
});
