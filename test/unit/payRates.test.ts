import { describe, expect, it } from 'vitest';
import { payForTask, payRatesSchema } from '../../src/products/payRates.js';
import { draftEditRate, payForOpenedTask } from '../../src/orders/workPay.js';

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

describe('payForOpenedTask and draftEditRate (src/orders/workPay.ts)', () => {
  const rates = payRatesSchema.parse({ subtitles: { unit: 'minute', cents: 90, review_cents: 20, second_review_cents: 25 } });
  const order = { product: 'subtitles', params: { translate_from: 'english', translate_to: 'german' }, words: 0 };
  const span = { start: 0, end: 600 };

  it('pays a task by its minutes and stage; a task sent back to its worker is paid with the work it fixes', () => {
    expect(payForOpenedTask(rates, order, { stage: 'work', span, partNo: 0 })).toBe(900);
    expect(payForOpenedTask(rates, order, { stage: 'second_review', span, partNo: 0 })).toBe(250);
    expect(payForOpenedTask(rates, order, { stage: 'work', span, partNo: 0, assignedTo: 7 })).toBe(0);
  });

  it("measures the words people changed, not a transcript's marks and labels", () => {
    expect(draftEditRate('[00:00:01] Speaker 1: hello there world', '[00:00:05] Speaker 2: hello there world', 'transcript')).toBe(0);
    expect(draftEditRate('hello there world', 'hello here world', 'translation')).toBeCloseTo(1 / 3);
  });
});
