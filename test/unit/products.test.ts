// Table-driven over the product registry: price, result kinds, record fields and the callback
// body of every event, exactly as the spec lists them (no more and no fewer).
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  orderResult,
  orderResultKinds,
  orderResults,
  PRODUCT_LIST,
  PRODUCTS,
  priceTableSchema,
  resultsNeedCues,
  workPlanOfOrder,
  type OrderParams,
  type ProductKey,
} from '../../src/products/registry.js';
import { languagesOf, orderPlan, productResults, resultLanguage } from '../../src/products/shared.js';
import { callbackFields, orderRecord, type RecordSource } from '../../src/products/records.js';
import { fixedPlanOf, type CallbackEvent, type OrderToPlace } from '../../src/contracts/orders.js';
import { ENUMS } from '../../src/domain/catalog.js';
import { SAMPLE_ORDERS } from '../../src/products/samples.js';
import { EXAMPLE_MEDIA_ORIGIN } from '../../src/products/examples.js';

const prices = priceTableSchema.parse(JSON.parse(readFileSync('config/prices.json', 'utf8'))) as Record<ProductKey, unknown>;
const url = (kind: string) => `http://svc/api/v4/orders/7/files/${kind}?api_token=T`;
const transcriptParams = { text_format: 'clean_verbatim', timestamping: 'not_required', turnaround_time: '5_days', number_of_speakers: '1_or_2' };

interface Case {
  params: Record<string, unknown>;
  measured: { seconds: number; words: number; params?: Record<string, unknown> };
  cents: number;
  kinds: string[];
  record: Record<string, unknown>;
  finished: Record<string, string>;
  refunded: Record<string, string>;
}

const CASES: Record<ProductKey, Case> = {
  transcription: {
    params: { language: 'french', ...transcriptParams, strict: false },
    measured: { seconds: 600, words: 0 },
    cents: 1250,
    kinds: ['transcription'],
    record: { type: 'transcriptions', language: 'french', ...transcriptParams, turnaround_time: 'days_5', transcription_url: url('transcription') },
    finished: { mode: 'live', order_id: '7', transcription_url: url('transcription'), language: 'french' },
    refunded: { mode: 'live', status: 'refunded', order_id: '7' },
  },
  ai_transcription: {
    params: { language: 'german' },
    measured: { seconds: 150, words: 0 },
    cents: 25,
    kinds: ['transcription', 'captions'],
    record: { type: 'transcriptions', language: 'german', transcription_url: url('transcription'), captions_url: url('captions') },
    finished: { mode: 'live', order_id: '7', status: 'finished', language: 'german', transcription_url: url('transcription'), captions_url: url('captions') },
    refunded: { mode: 'live', order_id: '7', status: 'refunded', language: 'german', transcription_url: '', captions_url: '' },
  },
  transcription_proofreading: {
    params: {
      language: 'english',
      text_format: 'clean_verbatim',
      timestamping: 'not_required',
      turnaround_time: '5_days',
      captions: true,
      auto_retranscribe: false,
    },
    measured: { seconds: 120, words: 300 },
    cents: 200,
    kinds: ['proofread_transcription', 'proofread_captions'],
    record: {
      type: 'transcription_proofreadings',
      language: 'english',
      text_format: 'clean_verbatim',
      timestamping: 'not_required',
      turnaround_time: 'days_5',
      captions: true,
      auto_retranscribe: false,
      was_retranscribed: false,
      retranscribed_order_id: null,
      proofread_transcription_url: url('proofread_transcription'),
      proofread_captions_url: url('proofread_captions'),
    },
    finished: {
      mode: 'live',
      order_id: '7',
      status: 'finished',
      was_retranscribed: 'false',
      retranscribed_order_id: '',
      proofread_transcription_url: url('proofread_transcription'),
      proofread_captions_url: url('proofread_captions'),
    },
    refunded: { mode: 'live', order_id: '7', status: 'refunded', was_retranscribed: 'false', retranscribed_order_id: '', proofread_transcription_url: '' },
  },
  forced_alignment: {
    params: { language: 'spanish' },
    measured: { seconds: 600, words: 900 },
    cents: 50,
    kinds: ['forced_alignment'],
    record: { type: 'forced_alignments', language: 'spanish', forced_alignment_transcription_url: url('forced_alignment') },
    finished: { mode: 'live', order_id: '7', status: 'finished', language: 'spanish', forced_alignment_transcription_url: url('forced_alignment') },
    refunded: { mode: 'live', order_id: '7', status: 'refunded', language: 'spanish', forced_alignment_transcription_url: '' },
  },
  translation: {
    params: { translate_from: 'english', translate_to: 'french', additional_review: true, source: 'document' },
    measured: { seconds: 0, words: 1000, params: { source: 'document' } },
    cents: 13000,
    kinds: ['translation'],
    record: { type: 'translations', translate_from: 'english', translate_to: 'french', translation_url: url('translation') },
    finished: { mode: 'live', order_id: '7', translation_url: url('translation') },
    refunded: { mode: 'live', status: 'refunded', order_id: '7' },
  },
  captions: {
    params: { language: 'english', ...transcriptParams },
    measured: { seconds: 60, words: 0 },
    cents: 150,
    kinds: ['captions', 'transcription'],
    record: {
      type: 'captions',
      language: 'english',
      ...transcriptParams,
      turnaround_time: 'days_5',
      captions_url: url('captions'),
      transcription_url: url('transcription'),
    },
    finished: { mode: 'live', order_id: '7', captions_url: url('captions'), transcription_url: url('transcription'), language: 'english' },
    refunded: { mode: 'live', status: 'refunded', order_id: '7' },
  },
  subtitles: {
    params: { translate_from: 'english', translate_to: 'german', additional_review: false },
    measured: { seconds: 120, words: 0 },
    cents: 1600,
    kinds: ['subtitles'],
    record: { type: 'subtitles', translate_from: 'english', translate_to: 'german', subtitles_url: url('subtitles') },
    finished: { mode: 'live', order_id: '7', subtitles_url: url('subtitles') },
    refunded: { mode: 'live', status: 'refunded', order_id: '7' },
  },
  human_ocr: {
    params: { language: 'english' },
    measured: { seconds: 0, words: 3000 },
    cents: 1500,
    kinds: ['human_ocr'],
    record: { type: 'human_ocr', language: 'english', human_ocr_url: url('human_ocr') },
    finished: { mode: 'live', order_id: '7', human_ocr_url: url('human_ocr') },
    refunded: { mode: 'live', status: 'refunded', order_id: '7' },
  },
};

const source = (product: ProductKey, status: string, extra: Partial<RecordSource> = {}): RecordSource => ({
  plan: fixedPlanOf(orderPlan(PRODUCTS[product], extra.params ?? CASES[product].params) as OrderToPlace),
  id: 7,
  product,
  status,
  priceCents: 1234,
  seconds: 60,
  words: 0,
  params: CASES[product].params,
  retranscribedOrderId: null,
  paidAt: new Date('2026-05-01T10:00:00Z'),
  deliveryEstimate: new Date('2026-05-04T10:00:00Z'),
  finishedAt: status === 'finished' ? new Date('2026-05-02T00:00:00Z') : null,
  ...extra,
});

describe('every product in the registry', () => {
  it('has a case here, so none escapes these tests', () => {
    expect(Object.keys(CASES).sort()).toEqual(PRODUCT_LIST.map((p) => p.key).sort());
  });

  describe.each(PRODUCT_LIST.map((p) => [p.key, p] as const))('%s', (key, product) => {
    const c = CASES[key];
    it('prices the measured order', () => expect(product.price(prices[key], c.params, c.measured)).toBe(c.cents));
    it('delivers its result kinds', () => expect(product.results(c.params).map((r) => r.kind)).toEqual(c.kinds));

    it('has the record fields of the spec, URLs once finished', () => {
      const common = {
        id: 7,
        status: 'finished',
        price: 12.34,
        paid_at: '2026-05-01 10:00:00',
        delivery_estimate: '2026-05-04 10:00:00',
        finished_at: '2026-05-02 00:00:00',
        comment: '',
        seconds: 60,
        words: 0,
      };
      expect(orderRecord(source(key, 'finished'), url)).toEqual({ ...common, ...c.record });
      const paid = orderRecord(source(key, 'paid'), url);
      for (const { field } of product.results(c.params)) expect(paid[field]).toBeNull();
    });

    it.each(['finished', 'quality_fix'] as CallbackEvent[])('sends the finished shape on %s', (event) => {
      expect(callbackFields(source(key, 'finished'), event, url)).toEqual(c.finished);
    });
    it('sends its refunded shape', () => expect(callbackFields(source(key, 'refunded'), 'refunded', url)).toEqual(c.refunded));
    it('sends a canceled shape with the status', () => {
      expect(callbackFields(source(key, 'canceled'), 'canceled', url)).toMatchObject({ mode: 'live', order_id: '7', status: 'canceled' });
    });
  });
});

describe('engine products declare their engine job', () => {
  it.each(PRODUCT_LIST.map((p) => [p.key, p] as const))('%s', (_key, product) => {
    // The engine activity reads the job, never the product's name (src/activities/engines.ts).
    expect(product.engineJob !== undefined).toBe(product.fulfilment === 'engine');
    if (!product.engineJob) return;
    const shape = (product.request as unknown as { shape: Record<string, unknown> }).shape;
    expect(Object.keys(shape)).toContain(product.engineJob.audioParam);
  });
});

describe('a product is its definition: the registry, its example and its samples read off it', () => {
  it("keys the registry by each definition's own key, one product a key", () => {
    expect(Object.keys(PRODUCTS)).toEqual(PRODUCT_LIST.map((p) => p.key));
    expect(new Set(PRODUCT_LIST.map((p) => p.path)).size).toBe(PRODUCT_LIST.length);
    for (const product of PRODUCT_LIST) expect(PRODUCTS[product.key]).toBe(product);
  });

  it.each(PRODUCT_LIST.map((p) => [p.key, p] as const))("%s: its OpenAPI example is a valid request, its files at the examples' origin", (_key, product) => {
    expect(product.request.safeParse(product.example).error).toBeUndefined();
    const urls = Object.values(product.example).filter((v) => typeof v === 'string' && v.includes('://'));
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(new RegExp(`^${EXAMPLE_MEDIA_ORIGIN}/`));
  });

  it('lists every sample order once, newest first, a finished one of each product', () => {
    const ids = PRODUCT_LIST.flatMap((p) => p.samples.map((s) => s.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(SAMPLE_ORDERS.map((o) => o.id)).toEqual([...ids].sort((a, b) => b - a));
    for (const product of PRODUCT_LIST)
      expect(
        product.samples.some((s) => s.status === 'finished'),
        product.key,
      ).toBe(true);
  });

  it('a retranscribed sample names a sample of the product it hands off to', () => {
    for (const product of PRODUCT_LIST) {
      for (const sample of product.samples.filter((s) => s.retranscribedOrderId !== undefined)) {
        expect(SAMPLE_ORDERS.find((o) => o.id === sample.retranscribedOrderId)?.product).toBe(product.handOff?.to);
      }
    }
  });
});

describe('product specifics', () => {
  it('human transcription cancellation is exactly {mode, status, order_id}', () => {
    expect(callbackFields(source('transcription', 'canceled'), 'canceled', url)).toEqual({ mode: 'live', status: 'canceled', order_id: '7' });
  });

  it('a retranscribed proofreading order names its replacement in record and callback', () => {
    const replaced = source('transcription_proofreading', 'retranscribed', { retranscribedOrderId: 99 });
    expect(orderRecord(replaced, url)).toMatchObject({ was_retranscribed: true, retranscribed_order_id: 99, proofread_transcription_url: null });
    expect(callbackFields(replaced, 'refunded', url)).toEqual({
      mode: 'live',
      order_id: '7',
      status: 'refunded',
      was_retranscribed: 'true',
      retranscribed_order_id: '99',
      proofread_transcription_url: '',
    });
  });

  it('proofreading without captions has no proofread_captions_url anywhere', () => {
    const plain = source('transcription_proofreading', 'finished', { params: { ...CASES.transcription_proofreading.params, captions: false } });
    expect(orderRecord(plain, url)).not.toHaveProperty('proofread_captions_url');
    expect(callbackFields(plain, 'finished', url)).not.toHaveProperty('proofread_captions_url');
  });

  it('translation of media is priced by the minute', () => {
    const media = { seconds: 120, words: 0, params: { source: 'media' as const } };
    expect(PRODUCTS.translation.price(prices.translation, { additional_review: false }, media)).toBe(1400);
    expect(PRODUCTS.translation.price(prices.translation, { additional_review: true }, media)).toBe(1800);
  });

  it('raises an unavailable turnaround unless strict, for every product with turnaround rules', () => {
    const t = PRODUCTS.transcription.settle!({ language: 'french', turnaround_time: '12_hours', strict: false });
    expect(t).toMatchObject({ turnaround_time: '3_days', requested_turnaround_time: '12_hours' });
    expect(() => PRODUCTS.transcription.settle!({ language: 'french', turnaround_time: '12_hours', strict: true })).toThrow(/not available for french/);
    expect(PRODUCTS.captions.settle!({ language: 'greek', turnaround_time: '1_days' })).toMatchObject({ turnaround_time: '5_days' });
    expect(PRODUCTS.transcription_proofreading.settle!({ language: 'dutch', turnaround_time: '1_days' })).toMatchObject({ turnaround_time: '3_days' });
  });
});

describe("an order's languages and its plan, one definition each", () => {
  it('names the source and the result language by role', () => {
    expect(languagesOf({ language: 'french' })).toEqual({ source: 'french', result: 'french' });
    expect(languagesOf({ translate_from: 'english', translate_to: 'german' })).toEqual({ source: 'english', result: 'german' });
    // An AI order whose engine heard another language than the one chosen: heard spanish, written in english.
    expect(languagesOf({ language: 'english', spoken_language: 'spanish' })).toEqual({ source: 'spanish', result: 'english' });
    expect(languagesOf({})).toEqual({ source: undefined, result: undefined });
    expect(resultLanguage({ translate_from: 'english', translate_to: 'german' })).toEqual({ language: 'de', direction: 'ltr' });
    // The direction is the result's: Arabic into English reads left to right, English into Hebrew right to left.
    expect(resultLanguage({ translate_from: 'arabic', translate_to: 'english' })).toEqual({ language: 'en', direction: 'ltr' });
    expect(resultLanguage({ translate_from: 'english', translate_to: 'hebrew' }).direction).toBe('rtl');
    expect(resultLanguage({ language: 'persian-farsi' }).direction).toBe('rtl');
    expect(resultLanguage({ language: 'urdu' })).toEqual({ language: 'ur', direction: 'rtl' });
  });

  it('reads the plan kept on the order, not what the product would make of its parameters today', () => {
    const params = { url: 'http://media/a.wav', translate_from: 'english', translate_to: 'german', additional_review: true };
    const placed = orderPlan(PRODUCTS.subtitles, params);
    expect(placed.work?.stages).toEqual(['work', 'review', 'second_review']);
    const kept = { ...placed.work!, stages: ['work' as const, 'review' as const] };
    const plan = { fulfilment: 'operator' as const, resultKinds: ['subtitles'], results: placed.results, turnaroundHours: 144, work: kept };
    expect(workPlanOfOrder({ product: 'subtitles', params, plan })).toBe(kept);
    expect(resultsNeedCues({ product: 'subtitles', params, plan })).toBe(true);
  });

  it('reads the results, their fields and formats from the plan; the record, the callback and the files follow it', () => {
    const params = { url: 'http://media/a.wav', language: 'english', output_format: 'text' };
    const placed = orderPlan(PRODUCTS.transcription, params);
    expect(placed.results).toEqual(productResults(PRODUCTS.transcription, params));
    // A plan that differs from what the product would work out today (as a product's rules change
    // after placement): every reader follows the plan, not the product.
    const plan = {
      fulfilment: 'operator' as const,
      resultKinds: ['transcription'],
      turnaroundHours: 120,
      results: [{ kind: 'transcription', field: 'transcription_url', formats: ['pdf'] }],
    };
    const order = { product: 'transcription', params, plan };
    expect(orderResult(order, 'transcription')?.formats).toEqual(['pdf']);
    expect(orderResultKinds({ ...order, plan: { ...plan, results: [] } })).toEqual([]);
    const source: RecordSource = {
      id: 7,
      product: 'transcription',
      status: 'finished',
      priceCents: 100,
      seconds: 60,
      words: 0,
      params,
      plan,
      paidAt: null,
      deliveryEstimate: null,
      finishedAt: null,
      retranscribedOrderId: null,
    };
    expect(orderRecord(source, (kind) => `file:${kind}`).transcription_url).toBe('file:transcription');
    expect(orderRecord({ ...source, plan: { ...plan, results: [] } }, (kind) => `file:${kind}`)).not.toHaveProperty('transcription_url');
  });

  it("types an order's parameters past placement by what the products declare, and what was learnt since", () => {
    const params: OrderParams = { language: 'english', timestamping: 'every_30_seconds', from: 5, spoken_language: 'spanish' };
    expectTypeOf(params.timestamping).toEqualTypeOf<(typeof ENUMS.timestamping)[number] | undefined>();
    expectTypeOf(params.from).toEqualTypeOf<number | undefined>();
    expectTypeOf(params.retranscription_of).toEqualTypeOf<number | undefined>();
    // @ts-expect-error no product declares such a parameter
    expect(params.no_such_parameter).toBeUndefined();
    expect(languagesOf(params)).toEqual({ source: 'spanish', result: 'english' });
  });

  it("declares each product's stages: the work first, a review, a second one for additional_review, the aligner for captions", () => {
    const stages = (key: ProductKey, params: Record<string, unknown>) => orderPlan(PRODUCTS[key], params).work?.stages;
    for (const product of PRODUCT_LIST) {
      const declared = stages(product.key, { url: 'http://media/a.wav', language: 'english', translate_from: 'english', translate_to: 'german' });
      if (declared) expect(declared[0], product.key).toBe('work');
      if (declared) expect(declared, product.key).toContain('review');
    }
    expect(stages('transcription', { language: 'english' })).toEqual(['work', 'review']);
    expect(stages('captions', { language: 'english' })).toEqual(['work', 'review', 'aligner_timing']);
    expect(stages('translation', { translate_from: 'english', translate_to: 'german', additional_review: true })).toEqual(['work', 'review', 'second_review']);
    expect(stages('translation', { translate_from: 'english', translate_to: 'german', additional_review: false })).toEqual(['work', 'review']);
  });
});
