// Every product end to end, table-driven over the registry: quote, live order, finish with the
// callback fields exactly as the spec lists them, refund and cancel. Real Temporal, real
// databases, loopback media, document and callback servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { eq } from 'drizzle-orm';
import { startService, type ServiceOptions, type TestService } from '../helpers/service.js';
import { startMediaServer } from '../helpers/mediaServer.js';
import { blankPdf, docxOf, pdfOf, startDocumentServer } from '../helpers/documents.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { recordHistory } from '../helpers/histories.js';
import { placeOrder } from '../helpers/orders.js';
import { accounts, ledgerEntries } from '../../src/db/schema.js';
import { PRODUCT_LIST, PRODUCTS, type ProductKey } from '../../src/products/registry.js';
import { RESULT_KIND_DEFINITIONS, type ResultKind } from '../../src/domain/resultKinds.js';

interface Inputs {
  audio: string;
  transcript: string;
  plainText: string;
  document: string;
  scan: string;
}

/** What the spec says of each product: its request, creation response fields and callback fields. */
const SPEC: Record<
  ProductKey,
  {
    request: (i: Inputs) => Record<string, unknown>;
    response: string[];
    kinds: string[];
    finished: string[];
    /** The refunded/canceled callback: the status shape of the product, or the spec's canceled shape. */
    withStatus: boolean;
    recordType: string;
  }
> = {
  transcription: {
    request: (i) => ({ url: i.audio, language: 'english' }),
    response: ['seconds'],
    kinds: ['transcription'],
    finished: ['mode', 'order_id', 'transcription_url', 'language'],
    withStatus: false,
    recordType: 'transcriptions',
  },
  ai_transcription: {
    request: (i) => ({ url: i.audio, language: 'english' }),
    response: ['seconds', 'ai_transcripts_minutes_left'],
    kinds: ['transcription', 'captions'],
    finished: ['mode', 'order_id', 'status', 'language', 'transcription_url', 'captions_url'],
    withStatus: true,
    recordType: 'transcriptions',
  },
  transcription_proofreading: {
    request: (i) => ({ audio_url: i.audio, transcription_url: i.transcript, language: 'english', captions: 'true' }),
    response: ['seconds'],
    kinds: ['proofread_transcription', 'proofread_captions'],
    finished: ['mode', 'order_id', 'status', 'was_retranscribed', 'retranscribed_order_id', 'proofread_transcription_url', 'proofread_captions_url'],
    withStatus: true,
    recordType: 'transcription_proofreadings',
  },
  forced_alignment: {
    request: (i) => ({ audio_url: i.audio, transcription_url: i.plainText, language: 'english' }),
    response: ['seconds'],
    kinds: ['forced_alignment'],
    finished: ['mode', 'order_id', 'status', 'language', 'forced_alignment_transcription_url'],
    withStatus: true,
    recordType: 'forced_alignments',
  },
  translation: {
    request: (i) => ({ url: i.document, translate_from: 'english', translate_to: 'french' }),
    response: ['seconds', 'words'],
    kinds: ['translation'],
    finished: ['mode', 'order_id', 'translation_url'],
    withStatus: false,
    recordType: 'translations',
  },
  captions: {
    request: (i) => ({ url: i.audio, language: 'english' }),
    response: ['seconds'],
    kinds: ['captions', 'transcription'],
    finished: ['mode', 'order_id', 'captions_url', 'transcription_url', 'language'],
    withStatus: false,
    recordType: 'captions',
  },
  subtitles: {
    request: (i) => ({ url: i.audio, translate_from: 'english', translate_to: 'german' }),
    response: ['seconds'],
    kinds: ['subtitles'],
    finished: ['mode', 'order_id', 'subtitles_url'],
    withStatus: false,
    recordType: 'subtitles',
  },
  human_ocr: {
    request: (i) => ({ url: i.scan, language: 'english' }),
    response: ['words'],
    kinds: ['human_ocr'],
    finished: ['mode', 'order_id', 'human_ocr_url'],
    withStatus: false,
    recordType: 'human_ocr',
  },
};

/** A file an operator may submit for each result kind. */
const RESULT_FILES: Record<string, [string, string]> = {
  transcription: ['result.txt', 'Ann: Hello there.\n\nBo: Hi, Ann.'],
  proofread_transcription: ['result.txt', 'Ann: Hello there.\n\nBo: Hi, Ann.'],
  translation: ['result.txt', 'Bonjour.'],
  human_ocr: ['result.txt', 'Typed text of the scan.'],
  captions: ['result.srt', '1\n00:00:00,000 --> 00:00:02,000\nHello there.\n'],
  proofread_captions: ['result.srt', '1\n00:00:00,000 --> 00:00:02,000\nHello there.\n'],
  subtitles: ['result.srt', '1\n00:00:00,000 --> 00:00:02,000\nHallo.\n'],
  forced_alignment: [
    'alignment.json',
    JSON.stringify({
      words: [
        { word: 'Hello', begin: 0, end: 0.4 },
        { word: 'there', begin: 0.4, end: 0.9 },
      ],
    }),
  ],
};

const CREATION_COMMON = ['mode', 'status', 'order_id', 'order_total', 'in_wallet', 'delivery_estimate'];

/** The service and the loopback servers a product's order needs: media, documents, a receiver. */
async function startWorld(options: ServiceOptions) {
  const [service, media, docs, receiver] = await Promise.all([startService(options), startMediaServer(), startDocumentServer(), startCallbackReceiver()]);
  const inputs: Inputs = {
    audio: media.audio(90),
    transcript: docs.serve('/ai-transcript.docx', await docxOf(['Hello there, this is the AI transcript.', 'It has two paragraphs.'])),
    plainText: docs.serve('/words.txt', 'Hello there.', 'text/plain'),
    document: docs.serve('/contract.pdf', await pdfOf([['One two three four five six seven eight nine ten.']])),
    scan: docs.serve('/scan.pdf', await blankPdf(2)),
  };
  return { service, receiver, inputs, close: () => Promise.all([service.close(), media.close(), docs.close(), receiver.close()]) };
}

describeOnEachDatabase('every product', (engine) => {
  let world: Awaited<ReturnType<typeof startWorld>>;
  let service: TestService;
  let receiver: CallbackReceiver;
  let inputs: Inputs;

  beforeAll(async () => {
    world = await startWorld({ engine });
    ({ service, receiver, inputs } = world);
  });
  afterAll(() => world?.close());

  const balanceOf = async (accountId: number) => (await service.database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!;
  const callbacksFor = (orderId: number) => receiver.received.filter((c) => c.fields.order_id === String(orderId));
  const order = (key: ProductKey, token: string, mode: 'test' | 'live') =>
    placeOrder(service, {
      token,
      path: PRODUCT_LIST.find((p) => p.key === key)!.path,
      mode,
      fields: SPEC[key].request(inputs),
      callbackUrl: `${receiver.url}/${key}`,
    });
  const completeAll = async (orderId: number, kinds: string[]) => {
    // No engine runs here: an engine product's order is handed to a person first.
    await waitFor(async () => (await service.ops('GET', `/ops/orders/${orderId}`)).body.working_on === 'operator', 'the order waiting for a person');
    const files = [];
    for (const kind of kinds) {
      const [fileName, content] = RESULT_FILES[kind]!;
      const upload = await service.ops('PUT', '/ops/files', undefined, Buffer.from(content));
      files.push({ kind, key: upload.body.key, file_name: fileName });
    }
    return service.ops('POST', `/ops/orders/${orderId}/complete`, { files });
  };

  describe.each(PRODUCT_LIST.map((p) => [p.key] as const))('%s', (key) => {
    const spec = SPEC[key];

    it('quotes in test mode with exactly its response fields and changes nothing', async () => {
      const { accountId, token } = await service.createAccount(100);
      const res = await order(key, token, 'test');
      expect(Object.keys(res.body).sort()).toEqual([...CREATION_COMMON.filter((f) => f !== 'order_id'), ...spec.response].sort());
      expect(res.body).toMatchObject({ mode: 'test', status: 'success', in_wallet: 100 });
      expect(res.body.order_total).toBeGreaterThan(0);
      expect((await balanceOf(accountId)).balanceCents).toBe(10_000);
      expect((await service.get(`/api/v4/orders?api_token=${token}&mode=live`)).body.orders).toEqual([]);
    });

    it('charges a live order once, finishes it, and calls back with exactly the spec fields', async () => {
      const { accountId, token } = await service.createAccount(100);
      const placed = await order(key, token, 'live');
      expect(Object.keys(placed.body).sort()).toEqual([...CREATION_COMMON, ...spec.response].sort());
      const id = placed.body.order_id as number;
      const charged = Math.round(placed.body.order_total * 100);
      expect((await balanceOf(accountId)).balanceCents).toBe(10_000 - charged);

      const done = await completeAll(id, spec.kinds);
      expect(done.body, JSON.stringify(done.body)).toMatchObject({ order_id: id, status: 'finished' });
      const [callback] = await waitFor(() => callbacksFor(id).length > 0 && callbacksFor(id), `the callback of ${key} order ${id}`);
      expect(callback!.path).toBe(`/${key}`);
      // This service has no speech engine: an engine product's order went to a person, and its
      // callback carries the new delivery estimate beside the spec's fields (docs/decisions/hand-off-delivery-estimate.md).
      const handedOver = PRODUCTS[key].fulfilment === 'engine';
      expect(Object.keys(callback!.fields).sort()).toEqual([...spec.finished, ...(handedOver ? ['delivery_estimate'] : [])].sort());
      expect(callback!.fields).toMatchObject({ mode: 'live', order_id: String(id), ...(spec.withStatus ? { status: 'finished' } : {}) });
      for (const field of spec.finished.filter((f) => f.endsWith('_url'))) {
        const file = await service.get(callback!.fields[field]!.replace(service.baseUrl, ''));
        expect(file.status, `${field} downloads`).toBe(200);
      }
      const record = await service.get(`/api/v4/orders/${id}?api_token=${token}&mode=live`);
      expect(record.body.data).toMatchObject({ id, type: spec.recordType, status: 'finished', price: placed.body.order_total });
      if (handedOver) expect(callback!.fields.delivery_estimate).toBe(record.body.data.delivery_estimate);
      for (const field of spec.finished.filter((f) => f.endsWith('_url'))) expect(record.body.data[field]).toBe(callback!.fields[field]);
      const ledger = await service.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, id));
      expect(ledger.map((e) => [e.kind, e.amountCents])).toEqual([['charge', -charged]]);
      await recordHistory(service, id, `${key}-finished`);
    });

    it.each(['refund', 'cancel'] as const)('%s returns the money and calls back with the status', async (action) => {
      const { accountId, token } = await service.createAccount(100);
      const placed = await order(key, token, 'live');
      const id = placed.body.order_id as number;
      const res = await service.ops('POST', `/ops/orders/${id}/${action}`, {});
      const status = action === 'refund' ? 'refunded' : 'canceled';
      expect(res.body).toMatchObject({ order_id: id, status });
      expect((await balanceOf(accountId)).balanceCents).toBe(10_000);
      const [callback] = await waitFor(() => callbacksFor(id).length > 0 && callbacksFor(id), `the ${status} callback`);
      // An engine product's order goes to a person here (no speech engine): settled after that, its
      // new estimate rides along; settled before, it does not.
      const fields = Object.keys(callback!.fields).filter((f) => !(PRODUCTS[key].fulfilment === 'engine' && f === 'delivery_estimate'));
      if (spec.withStatus) {
        expect(fields.sort()).toEqual(spec.finished.filter((f) => f !== 'proofread_captions_url').sort());
        for (const field of spec.finished.filter((f) => f.endsWith('_url') && f !== 'proofread_captions_url')) expect(callback!.fields[field]).toBe('');
      } else {
        expect(fields.sort()).toEqual(['mode', 'order_id', 'status']);
      }
      expect(callback!.fields).toMatchObject({ mode: 'live', order_id: String(id), status });
      await recordHistory(service, id, `${key}-${status}`);
    });
  });
});

describe('a quality check of every product (PGlite)', () => {
  let world: Awaited<ReturnType<typeof startWorld>>;
  let service: TestService;
  let receiver: CallbackReceiver;
  let inputs: Inputs;
  beforeAll(async () => {
    world = await startWorld({ qualityCheckProbability: 1 });
    ({ service, receiver, inputs } = world);
  });
  afterAll(() => world?.close());

  it.each(PRODUCT_LIST.map((p) => [p.key, p.path] as const))('%s: a fix replaces the file and repeats the finished callback', async (key, path) => {
    const spec = SPEC[key];
    const { token } = await service.createAccount(100);
    const { orderId: id } = await placeOrder(service, { token, path, fields: spec.request(inputs), callbackUrl: receiver.url });
    const upload = async (kind: string, content?: string) => {
      const [fileName, original] = RESULT_FILES[kind]!;
      return { kind, key: (await service.ops('PUT', '/ops/files', undefined, Buffer.from(content ?? original))).body.key, file_name: fileName };
    };
    const files = await Promise.all(spec.kinds.map((kind) => upload(kind)));
    await waitFor(async () => (await service.ops('GET', `/ops/orders/${id}`)).body.working_on === 'operator', 'the order waiting for a person');
    expect((await service.ops('POST', `/ops/orders/${id}/complete`, { files })).body).toEqual({ order_id: id, status: 'finished', quality_check: 'pending' });
    const [main] = spec.kinds;
    const fixedText =
      main === 'forced_alignment'
        ? JSON.stringify({ words: [{ word: 'Fixed', begin: 0, end: 0.5 }] })
        : RESULT_FILES[main!]![1].replace(/Hello there|Hallo|Bonjour|Typed text of the scan/, 'Fixed');
    const fix = await service.ops('POST', `/ops/orders/${id}/qc`, { fix: [await upload(main!, fixedText)] });
    expect(fix.body).toEqual({ order_id: id, status: 'finished', quality_check: 'fixed' });
    const [first, second] = await waitFor(() => {
      const got = receiver.received.filter((c) => c.fields.order_id === String(id));
      return got.length >= 2 && got;
    }, 'the finished and the quality-fix callbacks');
    expect(second!.fields).toEqual(first!.fields);
    const urlField = spec.finished.find((f) => f.endsWith('_url'))!;
    const formats = RESULT_KIND_DEFINITIONS[main as ResultKind].formats;
    const served = await service.get(`${second!.fields[urlField]!.replace(service.baseUrl, '')}&format=${formats.includes('text') ? 'text' : formats.at(-1)}`);
    expect(JSON.stringify(served.body)).toContain('Fixed');
  });
});
