// The account area's order timeline (src/web/timeline.ts): what the engine found is shown in its place.
import { describe, expect, it } from 'vitest';
import { timelineEntries, timelineHtml } from '../../src/web/timeline.js';
import type { OrderRow } from '../../src/db/schema.js';

const at = (s: string) => new Date(`2026-11-25T${s}Z`);
const order = {
  id: 7,
  accountId: 1,
  product: 'ai_transcription',
  status: 'finished',
  assignee: 'engine',
  priceCents: 5,
  seconds: 60,
  words: 0,
  params: { language: 'english' },
  parentOrderId: null,
  retranscribedOrderId: null,
  qcStatus: null,
  lateAt: null,
  inputFiles: {},
  paidAt: at('10:00:00'),
  finishedAt: at('10:02:00'),
  draftEditRate: null,
  engineNote: "The file is spoken in spanish, the order asked for english: delivered as the engine's English translation.",
  engineNotedAt: at('10:01:00'),
} as unknown as OrderRow;

describe('the order timeline', () => {
  it("shows the engine's finding between the payment and the finishing", () => {
    const texts = timelineEntries(order, [], [], [], undefined).map((e) => String(timelineHtml([e])));
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain('Paid');
    expect(texts[1]).toContain('The file is spoken in spanish, the order asked for english: delivered as the engine&#39;s English translation.');
    expect(texts[2]).toContain('Finished');
  });

  it('shows none for an order without one', () => {
    const texts = timelineEntries({ ...order, engineNote: null, engineNotedAt: null }, [], [], [], undefined).map((e) => String(timelineHtml([e])));
    expect(texts.join(' ')).not.toContain('spoken');
  });

  it('says how much of the machine draft the people changed, beside the finishing', () => {
    const texts = timelineEntries({ ...order, engineNote: null, engineNotedAt: null, draftEditRate: 0.123 }, [], [], [], undefined).map((e) =>
      String(timelineHtml([e])),
    );
    expect(texts.findIndex((t) => t.includes("The people changed 12% of the machine draft's words"))).toBe(texts.findIndex((t) => t.includes('Finished')) - 1);
  });

  it('says why an engine order went to a person, and when it is due now', () => {
    const handed = {
      ...order,
      status: 'paid',
      finishedAt: null,
      engineNote: null,
      engineNotedAt: null,
      handedOverAt: at('10:01:30'),
      handedOverReason: 'no engine is configured',
      deliveryEstimate: new Date('2026-11-30T10:01:30Z'),
    } as OrderRow;
    const texts = timelineEntries(handed, [], [], [], undefined).map((e) => String(timelineHtml([e])));
    expect(texts.join(' ')).toMatch(/Handed to a person, as no speech engine could do it \(no engine is configured\); new delivery estimate .*2026/);
  });
});
