// Serving result files over HTTP: types, names, ETags, the render cache, quality fixes, errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mammoth from 'mammoth';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder, resultsOf, withResults } from '../helpers/orders.js';
import { chargeWalletForOrder, nextOrderId } from '../../src/db/wallet.js';
import { finishOrder } from '../../src/db/orders.js';
import { RESULT_KIND_DEFINITIONS, type ResultKind } from '../../src/domain/resultKinds.js';
import { orderResult } from '../../src/products/registry.js';
import { renderJson2 } from '../../src/domain/render/json.js';

const TRANSCRIPT = {
  segments: [
    {
      speaker: 'Ann',
      start: 0,
      end: 12,
      text: 'First part of the talk.',
      words: [
        { text: 'First', start: 0, end: 1 },
        { text: 'part', start: 1, end: 2 },
        { text: 'of', start: 2, end: 3 },
        { text: 'the', start: 3, end: 11 },
        { text: 'talk.', start: 11, end: 12 },
      ],
    },
    {
      speaker: 'Bo',
      start: 12,
      end: 20,
      text: 'Second part.',
      words: [
        { text: 'Second', start: 12, end: 15 },
        { text: 'part.', start: 15, end: 20 },
      ],
    },
  ],
};

describe('serving result files', () => {
  let service: TestService;
  let media: MediaServer;
  let token: string;
  let accountId: number;
  let orderId: number;
  const url = (kind: string, query = '') => `/api/v4/orders/${orderId}/files/${kind}?api_token=${token}${query}`;

  beforeAll(async () => {
    [service, media] = await Promise.all([startService({ qualityCheckProbability: 1 }), startMediaServer()]);
    ({ token, accountId } = await service.createAccount(100));
    ({ orderId } = await placeOrder(service, { token, fields: { url: media.audio(20), language: 'english', timestamping: 'every_10_seconds' } }));
    const done = await service.complete(orderId, 'transcript.json', renderJson2(TRANSCRIPT));
    expect(done.body.status).toBe('finished');
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  it('serves docx by default, with its type, a file name from the order, and the order timestamping', async () => {
    const res = await service.get(url('transcription'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="order-${orderId}-transcription.docx"`);
    const { value } = await mammoth.extractRawText({ buffer: res.bytes });
    expect(value.split('\n').filter(Boolean)).toEqual([
      `Order ${orderId} transcription`,
      '[00:00:00] Ann: First part of the [00:00:10] talk.',
      'Bo: Second part.',
    ]);
  });

  it.each([
    ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
    ['doc', 'application/msword', 'doc'],
    ['pdf', 'application/pdf', 'pdf'],
    ['text', 'text/plain; charset=utf-8', 'txt'],
    ['html', 'text/html; charset=utf-8', 'html'],
    ['json', 'application/json; charset=utf-8', 'json'],
    ['json2', 'application/json; charset=utf-8', 'json'],
  ])('format=%s is %s', async (format, contentType, extension) => {
    const res = await service.get(url('transcription', `&format=${format}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(contentType);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="order-${orderId}-transcription.${extension}"`);
    expect(res.bytes.length).toBeGreaterThan(50);
  });

  it('answers 304 to a matching ETag and keeps a rendering instead of rendering again', async () => {
    const first = await service.get(url('transcription', '&format=pdf'));
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    const conditional = await fetch(service.baseUrl + url('transcription', '&format=pdf'), { headers: { 'if-none-match': etag } });
    expect(conditional.status).toBe(304);
    // A PDF carries its creation time: equal bytes mean the cached rendering was served.
    await new Promise((r) => setTimeout(r, 1100));
    const again = await service.get(url('transcription', '&format=pdf'));
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect((await service.get(url('transcription', '&format=text'))).headers.get('etag')).not.toBe(etag);
  });

  it('serves the fixed version at the same URL after qc --fix, with a new ETag', async () => {
    const before = await service.get(url('transcription', '&format=text'));
    const fixed = await service.ops('PUT', '/ops/files', undefined, Buffer.from('Ann: First part of the talk, corrected.'));
    const qc = await service.ops('POST', `/ops/orders/${orderId}/qc`, { fix: [{ kind: 'transcription', key: fixed.body.key, file_name: 'fixed.txt' }] });
    expect(qc.body).toMatchObject({ status: 'finished', quality_check: 'fixed' });
    const after = await waitFor(async () => {
      const res = await service.get(url('transcription', '&format=text'));
      return res.body !== before.body && res;
    }, 'the fixed file');
    expect(after.body).toBe('Ann: First part of the talk, corrected.\n');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('names the allowed formats for a wrong one, and refuses wrong tokens and kinds', async () => {
    const wrong = await service.get(url('transcription', '&format=srt'));
    expect(wrong).toMatchObject({
      status: 400,
      body: { status: 'error', error: 'format: must be one of docx, doc, pdf, text, html, json, json2 for a transcription file, got "srt"' },
    });
    const noToken = await service.get(`/api/v4/orders/${orderId}/files/transcription`);
    expect(noToken.body.error).toBe('api_token: missing; send the account token');
    const badToken = await service.get(`/api/v4/orders/${orderId}/files/transcription?api_token=nope`);
    expect(badToken.body.error).toBe('api_token: invalid token');
    expect((await service.get(url('subtitles'))).body.error).toBe(`kind: order ${orderId} has no subtitles file (a transcription order)`);
    expect((await service.get(url('minutes'))).body.error).toMatch(/^kind: 'minutes' is not a result kind/);
  });

  it('refuses an unreadable or unfit result file when the operator submits it', async () => {
    const placed = await placeOrder(service, { token, fields: englishAudio(media, 20) });
    const upload = await service.ops('PUT', '/ops/files', undefined, Buffer.from('this is not a zip'));
    const res = await service.ops('POST', `/ops/orders/${placed.body.order_id}/complete`, {
      files: [{ kind: 'transcription', key: upload.body.key, file_name: 'broken.docx' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^transcription file: cannot read broken\.docx: it is not a readable \.docx file/);
    const record = await service.get(`/api/v4/orders/${placed.body.order_id}?api_token=${token}&mode=live`);
    expect(record.body.data.status).toBe('paid');
  });

  describe('files of the other result kinds', () => {
    /** A finished order of `product` with one stored file, written straight to the database. */
    const finishedOrder = async (product: string, kind: ResultKind, fileName: string, content: string) => {
      const id = await nextOrderId(service.database.db);
      await chargeWalletForOrder(
        service.database.db,
        withResults({
          id,
          accountId,
          product,
          priceCents: 100,
          seconds: 20,
          words: 0,
          params: {},
          callbackUrl: null,
          turnaroundHours: 120,
          fulfilment: 'operator',
          resultKinds: [kind],
        }),
      );
      const upload = await service.ops('PUT', '/ops/files', undefined, Buffer.from(content));
      await finishOrder(service.database.db, id, [{ kind, blobKey: upload.body.key, fileName }], null);
      return id;
    };

    it.each([
      ['captions', 'captions', 'srt', 'application/x-subrip; charset=utf-8'],
      ['subtitles', 'subtitles', 'srt', 'application/x-subrip; charset=utf-8'],
      ['translation', 'translation', 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['human_ocr', 'human_ocr', 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['forced_alignment', 'forced_alignment', 'json', 'application/json; charset=utf-8'],
    ] as Array<[string, ResultKind, string, string]>)(
      '%s: %s serves %s by default and each of its formats',
      async (product, kind, defaultFormat, contentType) => {
        const id = await finishedOrder(product, kind, 'result.json', renderJson2(TRANSCRIPT));
        const base = `/api/v4/orders/${id}/files/${kind}?api_token=${token}`;
        const res = await service.get(base);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(contentType);
        expect(res.headers.get('content-disposition')).toBe(`attachment; filename="order-${id}-${kind.replace(/_/g, '-')}.${defaultFormat}"`);
        // The formats this order offers: a document's translation has no subtitle formats.
        const { formats } = orderResult(
          { product, params: {}, plan: { fulfilment: 'operator', resultKinds: [kind], results: resultsOf(product), turnaroundHours: 120 } },
          kind,
        )!;
        expect(formats).toEqual(kind === 'translation' ? ['docx', 'pdf', 'text'] : RESULT_KIND_DEFINITIONS[kind].formats);
        for (const format of formats) expect((await service.get(`${base}&format=${format}`)).status).toBe(200);
        const wrong = await service.get(`${base}&format=json2`);
        expect(wrong.body.error).toBe(`format: must be one of ${formats.join(', ')} for a ${kind} file, got "json2"`);
      },
    );

    it('subtitles carry the delivered (translated) text', async () => {
      const id = await finishedOrder('subtitles', 'subtitles', 'subtitles.srt', '1\n00:00:01,000 --> 00:00:03,000\nBonjour tout le monde.\n');
      const vtt = await service.get(`/api/v4/orders/${id}/files/subtitles?api_token=${token}&format=vtt`);
      expect(vtt.body).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nBonjour tout le monde.\n');
    });
  });
});
