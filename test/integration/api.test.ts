// The HTTP contract around orders: validation, media checks, records, auth and result files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mammoth from 'mammoth';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { RESULT_KIND_DEFINITIONS, SUBTITLE_FORMATS } from '../../src/domain/resultKinds.js';

describe('order API (PGlite)', () => {
  let service: TestService;
  let media: MediaServer;
  let token: string;

  beforeAll(async () => {
    [service, media] = await Promise.all([startService(), startMediaServer()]);
    ({ token } = await service.createAccount(100));
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  const order = (fields: Record<string, unknown>) =>
    service.post('/api/v4/transcriptions', { api_token: token, mode: 'test', url: media.audio(90), language: 'english', ...fields });

  describe('validation names the field', () => {
    it.each([
      [{ language: 'klingon' }, "language: 'klingon' is not supported for human transcription (GET /api/v4/languages lists the supported values)"],
      [{ mode: 'demo' }, 'mode: must be test or live, got "demo"'],
      [{ mode: undefined }, 'mode: is required (test or live)'],
      [{ url: undefined }, 'url: is required'],
      [{ url: 'ftp://example.com/a.wav' }, 'url: must be an http or https URL, got "ftp://example.com/a.wav"'],
      [{ text_format: 'verbatim' }, 'text_format: must be one of clean_verbatim, full_verbatim, got "verbatim"'],
      [
        { timestamping: 'every_minute' },
        'timestamping: must be one of not_required, every_10_seconds, every_30_seconds, every_2_minutes, change_of_speaker, got "every_minute"',
      ],
      [{ turnaround_time: '2_days' }, 'turnaround_time: must be one of 12_hours, 1_days, 3_days, 5_days, got "2_days"'],
      [{ number_of_speakers: '4' }, 'number_of_speakers: must be one of 1_or_2, 3_or_more, got "4"'],
      [{ strict: 'yes' }, 'strict: must be true, false, 1 or 0, got "yes"'],
      [{ from: '1.5' }, 'from: must be a whole number of seconds'],
      [{ till: '-3' }, 'till: must be a whole number of seconds'],
      [{ from: 30, till: 30 }, 'till: must be greater than from (30): from 30 to till 30 leaves nothing'],
      [{ till: 0 }, 'till: must be greater than 0: till 0 leaves nothing'],
      [{ from: 90 }, 'from: 90 is not within the media (90 seconds long), which leaves nothing to transcribe'],
      [{ from: 120, till: 3600 }, 'from: 120 is not within the media (90 seconds long), which leaves nothing to transcribe'],
      [{ lanugage: 'english' }, 'unknown parameter: lanugage'],
      [
        { language: 'greek', turnaround_time: '3_days', strict: 'true' },
        "turnaround_time: '3_days' is not available for greek (available: 5_days); send strict=false to get the nearest available turnaround",
      ],
    ] as Array<[Record<string, unknown>, string]>)('%j → %s', async (fields, message) => {
      const res = await order(fields);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        mode: typeof fields.mode === 'string' ? fields.mode : fields.mode === undefined && 'mode' in fields ? '' : 'test',
        status: 'error',
        error: message,
      });
    });

    it('takes a till past the end as the end: the order covers, charges and records what exists', async () => {
      // A client's fixed till=3600 for "the first hour", of a 90-second file.
      expect((await order({ till: 3600 })).body).toMatchObject({ status: 'success', seconds: 90 });
      expect((await order({ from: 30, till: 3600 })).body).toMatchObject({ status: 'success', seconds: 60 });
      const placed = await order({ mode: 'live', till: 3600 });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      expect(placed.body.seconds).toBe(90);
      const record = await service.get(`/api/v4/orders/${placed.body.order_id}?api_token=${token}&mode=live`);
      // The record says what the order covers and what was asked.
      expect(record.body.data).toMatchObject({ id: placed.body.order_id, seconds: 90, price: placed.body.order_total, till: 90, requested_till: 3600 });
      // What the order covers is its till; the one asked for is kept beside it.
      expect((await service.ops('GET', `/ops/orders/${placed.body.order_id}`)).body.params).toMatchObject({ till: 90, requested_till: 3600 });
    });

    it('applies the defaults and bills only from..till', async () => {
      const res = await order({ from: '30', till: 60 });
      expect(res.body).toMatchObject({ status: 'success', seconds: 30, order_total: 1 }); // the $1.00 minimum
      const full = await order({
        text_format: 'full_verbatim',
        timestamping: 'every_30_seconds',
        number_of_speakers: '3_or_more',
        turnaround_time: '12_hours',
      });
      expect(full.body).toMatchObject({ seconds: 90, order_total: 5.63 }); // 90 s at $3.75/min, rounded up to the cent
    });

    it('raises an unavailable turnaround without strict and reports the effective delivery', async () => {
      const res = await order({ language: 'dutch', turnaround_time: '12_hours', strict: '0' });
      expect(res.status).toBe(200);
      const hours = (Date.parse(res.body.delivery_estimate.replace(' ', 'T') + 'Z') - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(71.9);
      expect(hours).toBeLessThanOrEqual(72);
      expect(res.body.order_total).toBe(2.25); // priced at 3_days
    });

    it('accepts JSON and multipart bodies as well as urlencoded', async () => {
      const json = await fetch(`${service.baseUrl}/api/v4/transcriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_token: token, mode: 'test', url: media.audio(60), language: 'english', strict: true, from: 10 }),
      });
      expect(await json.json()).toMatchObject({ status: 'success', seconds: 50 });
      const form = new FormData();
      for (const [k, v] of Object.entries({ api_token: token, mode: 'test', url: media.audio(60), language: 'english' })) form.append(k, v);
      const multipart = await fetch(`${service.baseUrl}/api/v4/transcriptions`, { method: 'POST', body: form });
      expect(await multipart.json()).toMatchObject({ status: 'success', seconds: 60 });
      const broken = await fetch(`${service.baseUrl}/api/v4/transcriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"mode": "test",',
      });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toEqual({ mode: '', status: 'error', error: 'the request body is not valid JSON' });
    });
  });

  describe('media URLs are measured for real', () => {
    it.each([
      // One neutral message for every fetch failure (the detail is logged): no port scanning through it.
      ['/missing.wav', 'url: the file could not be fetched'],
      ['/notes.txt', 'url: the file is not a recognised audio or video file'],
      ['/hang', 'url: the file could not be fetched'],
    ])('%s → %s', async (path, message) => {
      const res = await order({ url: media.url + path });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });

    it('follows redirects and refuses unreachable hosts', async () => {
      expect((await order({ url: `${media.url}/redirect` })).body).toMatchObject({ status: 'success', seconds: 90 });
      const closed = await order({ url: 'http://127.0.0.1:9/a.wav' });
      expect(closed.body.error).toBe('url: the file could not be fetched');
    });
  });

  describe('authentication', () => {
    it.each([
      ['POST create', async (t?: string) => service.post('/api/v4/transcriptions', { api_token: t, mode: 'live', url: media.audio(60), language: 'english' })],
      ['GET list', async (t?: string) => service.get(`/api/v4/orders?mode=live${t === undefined ? '' : `&api_token=${t}`}`)],
      ['GET order', async (t?: string) => service.get(`/api/v4/orders/1?mode=live${t === undefined ? '' : `&api_token=${t}`}`)],
      ['GET file', async (t?: string) => service.get(`/api/v4/orders/1/files/transcription${t === undefined ? '' : `?api_token=${t}`}`)],
    ])('%s: missing or wrong token is a 400 error object', async (_name, call) => {
      const missing = await call(undefined);
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('api_token: missing; send the account token');
      const wrong = await call('not-a-token');
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ status: 'error', error: 'api_token: invalid token' });
    });
  });

  describe('records', () => {
    it('lists newest first across pages linked by next_page_url, null on the last page', async () => {
      const mine = await service.createAccount(100);
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const { orderId } = await placeOrder(service, { token: mine.token, fields: { ...englishAudio(media), comment: `order ${i}` } });
        ids.push(orderId);
      }
      const seen: number[] = [];
      let next: string | null = `${service.baseUrl}/api/v4/orders?mode=live&per_page=2`;
      let pages = 0;
      while (next) {
        // Followed as given: the page link carries the token and the mode.
        const url = new URL(next);
        if (pages === 0) url.searchParams.set('api_token', mine.token);
        else expect(url.searchParams.get('api_token')).toBe(mine.token);
        const page = await service.get(url.pathname + url.search);
        expect(page.status).toBe(200);
        expect(page.body.orders.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.orders.map((o: { id: number }) => o.id));
        next = page.body.next_page_url;
        pages++;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual([...ids].reverse());
    });

    it('keeps accounts apart', async () => {
      const a = await service.createAccount(10);
      const b = await service.createAccount(10);
      const { orderId: id } = await placeOrder(service, { token: a.token, fields: englishAudio(media) });
      expect((await service.get(`/api/v4/orders/${id}?api_token=${a.token}&mode=live`)).body.data.id).toBe(id);
      const other = await service.get(`/api/v4/orders/${id}?api_token=${b.token}&mode=live`);
      expect(other).toMatchObject({ status: 400, body: { mode: 'live', status: 'error', error: `order_id: order ${id} not found` } });
      expect((await service.get(`/api/v4/orders?api_token=${b.token}&mode=live`)).body).toEqual({ orders: [], next_page_url: null });
      const file = await service.get(`/api/v4/orders/${id}/files/transcription?api_token=${b.token}`);
      expect(file.body.error).toBe(`order_id: order ${id} not found`);
    });

    it('mode=test returns the fixed sample orders', async () => {
      const list = await service.get(`/api/v4/orders?api_token=${token}&mode=test`);
      expect(list.body.orders.map((o: { id: number }) => o.id)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
      // A sample of every product, including the proofreading order handed to a human transcription.
      expect(new Set(list.body.orders.map((o: { type: string }) => o.type))).toEqual(
        new Set(['transcriptions', 'transcription_proofreadings', 'forced_alignments', 'translations', 'captions', 'subtitles', 'human_ocr']),
      );
      expect(list.body.orders.find((o: { id: number }) => o.id === 5)).toMatchObject({ was_retranscribed: true, retranscribed_order_id: 11 });
      expect(list.body.orders.find((o: { id: number }) => o.id === 3)).toMatchObject({ type: 'transcriptions', turnaround_time: 'days_5', status: 'finished' });
      expect(list.body.next_page_url).toBeNull();
      // Retrieval by a sample's id returns that sample; another id is no sample.
      for (const sample of list.body.orders as Array<{ id: number }>) {
        expect((await service.get(`/api/v4/orders/${sample.id}?api_token=${token}&mode=test`)).body.data).toEqual(sample);
      }
      expect((await service.get(`/api/v4/orders/42?api_token=${token}&mode=test`)).body.error).toBe(
        'order_id: 42 is not a sample order (mode=test: the sample orders are 1–14)',
      );
      // Every status, and a finished order of every product.
      const orders = list.body.orders as Array<{ type: string; status: string }>;
      expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['paid', 'finished', 'refunded', 'canceled', 'retranscribed']));
      expect((await service.get(`/api/v4/orders?api_token=${token}`)).body.error).toBe('mode: is required (test or live)');
      expect((await service.get(`/api/v4/orders?api_token=${token}&mode=live&cursor=abc`)).body.error).toBe('cursor: not a cursor from next_page_url');
    });
  });

  describe('result files', () => {
    it('serves docx by default, text and json on request, with ETag and a file name', async () => {
      const { token: t } = await service.createAccount(10);
      const { orderId: id } = await placeOrder(service, { token: t, fields: englishAudio(media) });
      const base = `/api/v4/orders/${id}/files/transcription?api_token=${t}`;
      expect((await service.get(base)).body.error).toBe(`order ${id} has no transcription file yet (the order is paid)`);
      const source = JSON.stringify([
        { speaker: 'Ann', start_ms: 0, end_ms: 4000, text: 'Hello there.' },
        { speaker: 'Bo', start: 4, end: 6, text: 'Hi.', confidence: 0.9 },
      ]);
      await service.complete(id, 'transcript.json', source);

      const docx = await service.get(base);
      expect(docx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(docx.headers.get('content-disposition')).toBe(`attachment; filename="order-${id}-transcription.docx"`);
      const { value } = await mammoth.extractRawText({ buffer: docx.bytes });
      expect(value.trim().split(/\n+/)).toEqual([`Order ${id} transcription`, 'Ann: Hello there.', 'Bo: Hi.']);

      const json = await service.get(`${base}&format=json`);
      expect(json.body).toEqual({
        segments: [
          { speaker: 'Ann', start: 0, end: 4, text: 'Hello there.' },
          { speaker: 'Bo', start: 4, end: 6, text: 'Hi.' },
        ],
      });

      const etag = docx.headers.get('etag')!;
      const cached = await fetch(service.baseUrl + base, { headers: { 'if-none-match': etag } });
      expect(cached.status).toBe(304);
      const bad = await service.get(`${base}&format=odt`);
      expect(bad.body.error).toBe('format: must be one of docx, doc, pdf, text, html, json, json2 for a transcription file, got "odt"');
    });
  });

  it('lists languages per product without a token', async () => {
    const all = await service.get('/api/v4/languages');
    expect(Object.keys(all.body)).toEqual([
      'transcription',
      'ai_transcription',
      'transcription_proofreading',
      'forced_alignment',
      'translation',
      'captions',
      'subtitles',
    ]);
    expect(all.body.transcription).toContainEqual({ slug: 'english-uk', name: 'English (UK)' });
    const one = await service.get('/api/v4/languages?product=ai_transcription');
    expect(Object.keys(one.body)).toEqual(['ai_transcription']);
    expect(one.body.ai_transcription).toHaveLength(32);
  });

  describe('test mode, end to end', () => {
    it('a client that only follows the URLs it is given gets 200 everywhere: list, pages, records, every result file in every format', async () => {
      let next: string | null = `/api/v4/orders?api_token=${token}&mode=test`;
      const results: Array<{ url: string; formats: readonly string[] }> = [];
      let products = 0;
      while (next) {
        const page = await service.get(next.replace(service.baseUrl, ''));
        expect(page.status).toBe(200);
        for (const order of page.body.orders as Array<Record<string, unknown> & { id: number; status: string }>) {
          const record = await service.get(`/api/v4/orders/${order.id}?api_token=${token}&mode=test`);
          expect(record.status).toBe(200);
          for (const [field, value] of Object.entries(record.body.data as Record<string, unknown>)) {
            if (!field.endsWith('_url') || field === 'callback_url' || value === null) continue;
            const kind = new URL(value as string).pathname.split('/').at(-1) as keyof typeof RESULT_KIND_DEFINITIONS;
            // The sample translation is of a document: the subtitle formats are a subtitle file's.
            const formats = RESULT_KIND_DEFINITIONS[kind].formats.filter((f) => kind !== 'translation' || !(SUBTITLE_FORMATS as readonly string[]).includes(f));
            results.push({ url: value as string, formats });
          }
          if (order.status === 'finished') products++;
        }
        next = page.body.next_page_url;
      }
      expect(products).toBeGreaterThanOrEqual(8); // a finished sample of every product
      expect(new Set(results.map((r) => new URL(r.url).pathname.split('/').at(-1)))).toEqual(new Set(Object.keys(RESULT_KIND_DEFINITIONS)));
      for (const { url, formats } of results) {
        for (const format of [undefined, ...formats]) {
          const file = await service.get(`${url.replace(service.baseUrl, '')}${format ? `&format=${format}` : ''}`);
          expect(file.status, `${url} ${format ?? ''}`).toBe(200);
          expect(file.bytes.length, `${url} ${format ?? ''}`).toBeGreaterThan(0);
        }
      }
    });
  });
});
