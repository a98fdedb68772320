// Uploads through the started service (issue 52, items 1–4): tus 1.0 by tus-js-client and by raw
// HTTP (creation, offsets, chunks, a connection dropped mid-PATCH and resumed, termination, the size
// limit, another account, both ways of sending the token), the one-shot raw POST, an upload's URL
// ordered by every product that takes media or documents (priced as the same bytes fetched over
// HTTP, refused before a charge when it cannot be ordered, kept as the order's media by a link),
// and expiry with a short TTL.
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { wavFile } from '../helpers/mediaServer.js';
import { blankPdf, docxOf, pdfOf, pngImage, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { startEngineServer, verboseJson, type EngineServer } from '../helpers/engineServer.js';
import { waitFor } from '../helpers/net.js';
import { startRangedServer, type RangedServer } from '../helpers/rangedServer.js';
import { accounts, orders, uploads } from '../../src/db/schema.js';
import { openAiCompatibleEngine } from '../../src/engines/openaiCompatible.js';
import type { InputFile } from '../../src/db/schema.js';
import { PRODUCT_LIST, PRODUCTS, type ProductKey } from '../../src/products/registry.js';
import { recordHistory } from '../helpers/histories.js';
import { uploadExpiryWorkflowId } from '../../src/contracts/uploads.js';

/**
 * The largest upload the test services take (MEDIA_MAX_BYTES): above the documents' limit of the test
 * service (10 MiB), as in production (5 GiB and 50 MiB), and small enough to send one over it.
 */
const MAX_BYTES = 12 * 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };

/** A WAV of `seconds` of noise: valid audio whose bytes no other upload of the run has. */
function noiseWav(seconds: number): Buffer {
  const wav = wavFile(seconds);
  randomBytes(wav.length - 44).copy(wav, 44);
  return wav;
}

/** The service's HTTP calls of an upload's client, by raw fetch: the answers are what is checked. */
function uploadClient(service: TestService) {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  return {
    /** tus creation of an upload `length` bytes long; its Location. */
    async create(token: string, length: number, headers: Record<string, string> = {}) {
      return fetch(`${service.baseUrl}/api/v4/uploads`, { method: 'POST', headers: { ...TUS, ...bearer(token), 'upload-length': String(length), ...headers } });
    },
    head: (url: string, token: string) => fetch(url, { method: 'HEAD', headers: { ...TUS, ...bearer(token) } }),
    patch: (url: string, token: string, offset: number, bytes: Uint8Array) =>
      fetch(url, {
        method: 'PATCH',
        headers: { ...TUS, ...bearer(token), 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(bytes),
      }),
    delete: (url: string, token: string) => fetch(url, { method: 'DELETE', headers: { ...TUS, ...bearer(token) } }),
    /** The one-shot upload: the raw body, no tus headers. */
    async whole(token: string, bytes: Uint8Array | string, contentType = 'application/octet-stream') {
      const res = await fetch(`${service.baseUrl}/api/v4/uploads`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': contentType },
        body: typeof bytes === 'string' ? bytes : new Uint8Array(bytes),
      });
      return { status: res.status, body: (await res.json()) as { url: string; size: number; expires_at: string; error?: string } };
    },
  };
}

const idOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

describeOnEachDatabase('uploads', (engine) => {
  let service: TestService;
  let docs: DocumentServer;
  let speech: EngineServer;
  let ranged: RangedServer;
  let client: ReturnType<typeof uploadClient>;

  beforeAll(async () => {
    [docs, speech, ranged] = await Promise.all([startDocumentServer(), startEngineServer(), startRangedServer()]);
    speech.behaviour = {
      kind: 'transcript',
      body: verboseJson([
        ['Hello', 0, 0.5],
        ['there.', 0.5, 1],
      ]),
    };
    // A speech engine: AI transcriptions are worked, and every human order's machine draft reads its
    // media as soon as it is placed (the kept copy, a link to the upload, is made then).
    service = await startService({
      engine,
      media: { maxBytes: MAX_BYTES },
      engines: { speech: openAiCompatibleEngine({ baseUrl: speech.url, model: 'whisper-test' }) },
    });
    client = uploadClient(service);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), docs?.close(), speech?.close(), ranged?.close()]);
  });

  const uploadPath = (id: string) => join(service.dataDir, 'files', 'uploads', id);
  const uploadRow = async (id: string) => (await service.database.db.select().from(uploads).where(eq(uploads.id, id)))[0];
  const balanceCents = async (accountId: number) => (await service.database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!.balanceCents;
  const uploadFiles = async () => readdir(join(service.dataDir, 'files', 'uploads')).catch(() => [] as string[]);

  /** A finished upload of `bytes` by the one-shot POST; its URL. */
  async function uploaded(token: string, bytes: Uint8Array | string, contentType?: string): Promise<string> {
    const { status, body } = await client.whole(token, bytes, contentType);
    expect(status, JSON.stringify(body)).toBe(201);
    return body.url;
  }

  describe('tus 1.0', () => {
    it('answers OPTIONS with its version, extensions and largest size, without a token', async () => {
      const res = await fetch(`${service.baseUrl}/api/v4/uploads`, { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('tus-version')!.split(',')).toContain('1.0.0');
      expect(res.headers.get('tus-extension')!.split(',')).toEqual(expect.arrayContaining(['creation', 'termination', 'expiration']));
      expect(res.headers.get('tus-max-size')).toBe(String(MAX_BYTES));
    });

    it('creates (201, Location, Upload-Expires), reports the offset, takes PATCHes in chunks and keeps the bytes exactly', async () => {
      const { token } = await service.createAccount(10);
      const bytes = randomBytes(300_000);
      const created = await client.create(token, bytes.length);
      expect(created.status).toBe(201);
      const url = created.headers.get('location')!;
      expect(url).toMatch(new RegExp(`^${service.baseUrl}/api/v4/uploads/[0-9a-f]{32}$`));
      const expires = Date.parse(created.headers.get('upload-expires')!);
      expect(Math.abs(expires - (Date.now() + 48 * 3_600_000))).toBeLessThan(60_000);

      let head = await client.head(url, token);
      expect([head.status, head.headers.get('upload-offset'), head.headers.get('upload-length')]).toEqual([200, '0', String(bytes.length)]);
      for (let offset = 0; offset < bytes.length; offset += 100_000) {
        const res = await client.patch(url, token, offset, bytes.subarray(offset, offset + 100_000));
        expect(res.status).toBe(204);
        expect(res.headers.get('upload-offset')).toBe(String(Math.min(offset + 100_000, bytes.length)));
        head = await client.head(url, token);
        expect(head.headers.get('upload-offset')).toBe(res.headers.get('upload-offset'));
      }
      expect((await readFile(uploadPath(idOf(url)))).equals(bytes)).toBe(true);
      expect((await uploadRow(idOf(url)))?.completedAt).toBeInstanceOf(Date);
      // A PATCH at a stale offset changes nothing.
      expect((await client.patch(url, token, 0, bytes.subarray(0, 10))).status).toBe(409);
    });

    it('keeps what arrived of a PATCH whose connection dropped half-way; HEAD says where to resume and the file ends byte-identical', async () => {
      const { token } = await service.createAccount(10);
      const bytes = randomBytes(600_000);
      const url = (await client.create(token, bytes.length)).headers.get('location')!;
      const path = uploadPath(idOf(url));
      const half = 300_000;
      // The whole length is announced; half is sent, then the connection is cut.
      const req = httpRequest(url, {
        method: 'PATCH',
        headers: {
          ...TUS,
          authorization: `Bearer ${token}`,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': bytes.length,
        },
      });
      req.on('error', () => undefined);
      req.write(bytes.subarray(0, half));
      await waitFor(async () => (await stat(path)).size >= half / 2, 'some of the PATCH on disk');
      req.destroy();

      const offset = await waitFor(async () => {
        const head = await client.head(url, token);
        return head.status === 200 && Number(head.headers.get('upload-offset'));
      }, 'HEAD after the dropped PATCH');
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThanOrEqual(half);
      const resumed = await client.patch(url, token, offset, bytes.subarray(offset));
      expect([resumed.status, resumed.headers.get('upload-offset')]).toEqual([204, String(bytes.length)]);
      expect((await readFile(path)).equals(bytes)).toBe(true);
    });

    it('uploads with tus-js-client in chunks, resumes an aborted upload from the server offset, and the URL is orderable', async () => {
      const { token } = await service.createAccount(10);
      const wav = noiseWav(40);
      const options = { endpoint: `${service.baseUrl}/api/v4/uploads`, headers: { authorization: `Bearer ${token}` }, chunkSize: 64 * 1024, retryDelays: [] };
      // The first attempt is stopped after its second chunk, as a closed laptop would.
      const first = await new Promise<string>((resolve, reject) => {
        let chunks = 0;
        const upload: tus.Upload = new tus.Upload(wav, {
          ...options,
          onError: reject,
          onChunkComplete: () => {
            if (++chunks === 2) void upload.abort().then(() => resolve(upload.url!));
          },
        });
        upload.start();
      });
      const before = Number((await client.head(first, token)).headers.get('upload-offset'));
      expect(before).toBe(2 * 64 * 1024);
      const sent: number[] = [];
      const url = await new Promise<string>((resolve, reject) => {
        const upload = new tus.Upload(wav, {
          ...options,
          uploadUrl: first,
          onError: reject,
          onProgress: (bytes) => sent.push(bytes),
          onSuccess: () => resolve(upload.url!),
        });
        upload.start();
      });
      expect(url).toBe(first);
      // Resumed where the server was, not from the start.
      expect(Math.min(...sent)).toBeGreaterThanOrEqual(before);
      expect((await readFile(uploadPath(idOf(url)))).equals(wav)).toBe(true);
      const quote = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'test', url, language: 'english' });
      expect(quote.status, JSON.stringify(quote.body)).toBe(200);
      expect(quote.body.seconds).toBe(40);
    });

    it('refuses an Upload-Length over MEDIA_MAX_BYTES with 413 and stores nothing', async () => {
      const { accountId, token } = await service.createAccount(10);
      const files = await uploadFiles();
      const res = await client.create(token, MAX_BYTES + 1);
      expect(res.status).toBe(413);
      expect(res.headers.get('location')).toBeNull();
      expect(await service.database.db.select().from(uploads).where(eq(uploads.accountId, accountId))).toEqual([]);
      expect(await uploadFiles()).toEqual(files);
      // The largest is taken.
      expect((await client.create(token, MAX_BYTES)).status).toBe(201);
    });

    it("is unknown to another account for every method, and another account's order naming it is refused", async () => {
      const [a, b] = await Promise.all([service.createAccount(10), service.createAccount(10)]);
      const wav = noiseWav(20);
      const url = (await client.create(a.token, wav.length)).headers.get('location')!;
      expect((await client.patch(url, a.token, 0, wav.subarray(0, 1000))).status).toBe(204);
      expect((await client.head(url, b.token)).status).toBe(404);
      expect((await client.patch(url, b.token, 1000, wav.subarray(1000))).status).toBe(404);
      expect((await client.delete(url, b.token)).status).toBe(404);
      // Nothing of B's reached it.
      expect(Number((await client.head(url, a.token)).headers.get('upload-offset'))).toBe(1000);
      expect((await client.patch(url, a.token, 1000, wav.subarray(1000))).status).toBe(204);
      for (const mode of ['test', 'live']) {
        const order = await service.post('/api/v4/transcriptions', { api_token: b.token, mode, url, language: 'english' });
        expect(order.status).toBe(400);
        expect(order.body.error).toMatch(/^url: no such upload/);
      }
      expect(await balanceCents(b.accountId)).toBe(1000);
      // A's own order is taken.
      expect((await service.post('/api/v4/transcriptions', { api_token: a.token, mode: 'test', url, language: 'english' })).status).toBe(200);
    });

    it('terminates: 204, then 404 for every method, its file gone, and an order naming it refused before a charge', async () => {
      const { accountId, token } = await service.createAccount(10);
      const url = await uploaded(token, noiseWav(20));
      const path = uploadPath(idOf(url));
      expect((await client.delete(url, token)).status).toBe(204);
      expect((await client.head(url, token)).status).toBe(404);
      expect((await client.patch(url, token, 0, Buffer.from('x'))).status).toBe(404);
      expect((await client.delete(url, token)).status).toBe(404);
      await expect(stat(path)).rejects.toThrow(/ENOENT/);
      expect(await uploadRow(idOf(url))).toMatchObject({ endedReason: 'terminated' });
      const order = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url, language: 'english' });
      expect(order.status).toBe(400);
      expect(order.body.error).toMatch(/^url: the upload was deleted/);
      expect(await balanceCents(accountId)).toBe(1000);
    });

    it('takes the token as a bearer header or as api_token in the query, and refuses a wrong one', async () => {
      const { token } = await service.createAccount(10);
      const bytes = randomBytes(5000);
      const inQuery = `${service.baseUrl}/api/v4/uploads?api_token=${token}`;
      const created = await fetch(inQuery, { method: 'POST', headers: { ...TUS, 'upload-length': String(bytes.length) } });
      expect(created.status).toBe(201);
      const url = created.headers.get('location')!;
      const withToken = `${url}?api_token=${token}`;
      const patched = await fetch(withToken, {
        method: 'PATCH',
        headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: bytes.subarray(0, 2000),
      });
      expect([patched.status, patched.headers.get('upload-offset')]).toEqual([204, '2000']);
      const head = await fetch(withToken, { method: 'HEAD', headers: TUS });
      expect([head.status, head.headers.get('upload-offset')]).toEqual([200, '2000']);
      expect((await client.patch(url, token, 2000, bytes.subarray(2000))).status).toBe(204);
      expect((await readFile(uploadPath(idOf(url)))).equals(bytes)).toBe(true);

      // Refused as every v4 call refuses a wrong token.
      const wrong = 'not-a-token-of-anyone';
      const refused = await service.get(`/api/v4/orders?api_token=${wrong}`);
      expect(refused.body.error).toBe('api_token: invalid token');
      const refusedCreation = await client.create(wrong, 10);
      expect([refusedCreation.status, ((await refusedCreation.json()) as { error: string }).error]).toEqual([refused.status, 'api_token: invalid token']);
      expect((await client.head(url, wrong)).status).toBe(refused.status);
      expect((await fetch(`${url}?api_token=${wrong}`, { method: 'HEAD', headers: TUS })).status).toBe(refused.status);
      expect((await client.patch(url, wrong, bytes.length, Buffer.from('x'))).status).toBe(refused.status);
      expect((await client.delete(url, wrong)).status).toBe(refused.status);
      expect((await client.whole(wrong, 'bytes')).body.error).toBe('api_token: invalid token');
      const without = await fetch(`${service.baseUrl}/api/v4/uploads`, { method: 'POST', body: 'bytes' });
      expect(((await without.json()) as { error: string }).error).toMatch(/^api_token: missing/);
      // Still there, whole.
      expect((await client.head(url, token)).headers.get('upload-offset')).toBe(String(bytes.length));
    });
  });

  describe("an upload's URL as an order's", () => {
    /** A file an order names: its bytes, and the name and type a web server would give it. */
    interface NamedFile {
      bytes: Buffer;
      name: string;
      type: string;
    }
    const file = (bytes: Buffer, name: string, type: string): NamedFile => ({ bytes, name, type });
    let inputs: Record<'audio' | 'longAudio' | 'docxTranscript' | 'plainText' | 'pdfDocument' | 'docxDocument' | 'image' | 'scan', NamedFile>;
    beforeAll(async () => {
      inputs = {
        audio: file(noiseWav(95), 'interview.wav', 'audio/wav'),
        // Larger than a document may be: what a document product is given, its head shows to be media.
        longAudio: file(noiseWav(1400), 'lecture.wav', 'audio/wav'),
        docxTranscript: file(
          await docxOf(['Hello there, this is the transcript.', 'It has two paragraphs.']),
          'transcript.docx',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        ),
        plainText: file(Buffer.from('Hello there, these are the words spoken.'), 'words.txt', 'text/plain'),
        pdfDocument: file(await pdfOf([['One two three four five six seven eight nine ten.'], ['Eleven twelve.']]), 'contract.pdf', 'application/pdf'),
        docxDocument: file(await docxOf(['Un deux trois.', 'Quatre cinq six sept.']), 'letter.docx', 'application/octet-stream'),
        image: file(pngImage(400, 300), 'page.png', 'image/png'),
        scan: file(await blankPdf(2), 'scan.pdf', 'application/pdf'),
      };
    });

    /** Each product that takes media or documents, with the files its order names. */
    const ORDERS: Array<[product: ProductKey, (i: typeof inputs) => Record<string, NamedFile | string>]> = [
      ['transcription', (i) => ({ url: i.audio, language: 'english' })],
      ['ai_transcription', (i) => ({ url: i.audio, language: 'english' })],
      ['transcription_proofreading', (i) => ({ audio_url: i.audio, transcription_url: i.docxTranscript, language: 'english' })],
      ['forced_alignment', (i) => ({ audio_url: i.audio, transcription_url: i.plainText, language: 'english' })],
      ['translation', (i) => ({ url: i.pdfDocument, translate_from: 'english', translate_to: 'french' })],
      ['translation', (i) => ({ url: i.docxDocument, translate_from: 'french', translate_to: 'english' })],
      ['translation', (i) => ({ url: i.longAudio, translate_from: 'english', translate_to: 'french' })],
      ['captions', (i) => ({ url: i.audio, language: 'english' })],
      ['subtitles', (i) => ({ url: i.audio, translate_from: 'english', translate_to: 'german' })],
      ['human_ocr', (i) => ({ url: i.image, language: 'english' })],
      ['human_ocr', (i) => ({ url: i.scan, language: 'english' })],
    ];
    const pathOf = (product: ProductKey) => PRODUCTS[product].path;

    it('covers every product', () => {
      expect(new Set(ORDERS.map(([product]) => product))).toEqual(new Set(PRODUCT_LIST.map((p) => p.key)));
    });

    it.each(ORDERS.map(([product, fields], n) => [`${product} #${n}`, product, fields] as const))(
      '%s: priced as the same bytes fetched over HTTP (never by name or type)',
      async (_title, product, fieldsOf) => {
        const { token } = await service.createAccount(100);
        const fetched: Record<string, string> = {};
        const fromUploads: Record<string, string> = {};
        for (const [field, value] of Object.entries(fieldsOf(inputs))) {
          if (typeof value === 'string') {
            fetched[field] = fromUploads[field] = value;
            continue;
          }
          fetched[field] = docs.serve(`/${randomBytes(4).toString('hex')}/${value.name}`, value.bytes, value.type);
          // Sent with a type that says nothing of what it is: only its bytes say.
          fromUploads[field] = await uploaded(token, value.bytes, 'text/plain');
        }
        const quote = (fields: Record<string, string>) => service.post(`/api/v4/${pathOf(product)}`, { api_token: token, mode: 'test', ...fields });
        const [overHttp, overUpload] = [await quote(fetched), await quote(fromUploads)];
        expect(overHttp.status, JSON.stringify(overHttp.body)).toBe(200);
        // The same answer, but for the moment it was given.
        const { delivery_estimate: _estimate, ...same } = overHttp.body as Record<string, unknown>;
        expect(overUpload.body).toEqual({ ...same, delivery_estimate: expect.any(String) });
        expect(Object.keys(same)).toEqual(expect.arrayContaining(['order_total', ...PRODUCTS[product].creationFields]));
      },
    );

    it('refuses an unfinished upload with a 400 naming the field, before any charge', async () => {
      const { accountId, token } = await service.createAccount(100);
      const audio = await uploaded(token, inputs.audio.bytes);
      const text = inputs.plainText.bytes;
      const partial = (await client.create(token, text.length)).headers.get('location')!;
      expect((await client.patch(partial, token, 0, text.subarray(0, 10))).status).toBe(204);
      const order = await service.post('/api/v4/forced-alignments', {
        api_token: token,
        mode: 'live',
        audio_url: audio,
        transcription_url: partial,
        language: 'english',
      });
      expect(order.status).toBe(400);
      expect(order.body.error).toBe(`transcription_url: the upload is not complete (10 of ${text.length} bytes received)`);
      const unfinishedAudio = (await client.create(token, 1000)).headers.get('location')!;
      const second = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: unfinishedAudio, language: 'english' });
      expect([second.status, second.body.error]).toEqual([400, 'url: the upload is not complete (0 of 1000 bytes received)']);
      expect(await balanceCents(accountId)).toBe(10_000);
      expect(await service.database.db.select().from(orders).where(eq(orders.accountId, accountId))).toEqual([]);
    });

    it('refuses a web page uploaded as a fetched web page is refused', async () => {
      const { accountId, token } = await service.createAccount(100);
      const page = Buffer.from('<!DOCTYPE html><html><head><title>Sign in</title></head><body><form><input name="user"></form></body></html>');
      const url = await uploaded(token, page, 'audio/wav');
      // The same bytes from a web server that answers ranges, as the upload's reader does.
      const overHttp = ranged.serve(`/${randomBytes(4).toString('hex')}/audio.wav`, uploadPath(idOf(url)), { contentType: 'text/html' });
      for (const path of ['transcriptions', 'human-ocr']) {
        const order = async (at: string) => service.post(`/api/v4/${path}`, { api_token: token, mode: 'live', url: at, language: 'english' });
        const [fetched, fromUpload] = [await order(overHttp), await order(url)];
        expect(fetched.status).toBe(400);
        expect(fetched.body.error).toMatch(/^url: /);
        expect(fromUpload.body).toEqual(fetched.body);
      }
      expect(await balanceCents(accountId)).toBe(10_000);
    });

    /** The kept copy of an order's media, once some work has read it. */
    const keptMedia = (orderId: number) =>
      waitFor(async () => {
        const [order] = await service.database.db.select().from(orders).where(eq(orders.id, orderId));
        return (order?.inputFiles as Record<string, InputFile> | undefined)?.media;
      }, `the media of order ${orderId} kept`);
    const keptPath = (key: string) => join(service.dataDir, 'files', key.slice(0, 2), key);

    it('an AI transcription of an upload keeps its media as a link to the upload (no copy) and finishes', async () => {
      const { token } = await service.createAccount(100);
      const wav = noiseWav(30);
      const url = await uploaded(token, wav);
      const placed = await service.post('/api/v4/ai-transcriptions', { api_token: token, mode: 'live', url, language: 'english' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const orderId = placed.body.order_id as number;
      const media = await keptMedia(orderId);
      const [kept, upload] = await Promise.all([stat(keptPath(media.key)), stat(uploadPath(idOf(url)))]);
      expect(kept.ino).toBe(upload.ino);
      expect(upload.nlink).toBe(2);
      const record = await waitFor(async () => {
        const got = await service.get(`/api/v4/orders/${orderId}?api_token=${token}&mode=live`);
        return got.body.data?.status === 'finished' && got.body.data;
      }, 'the AI transcription finished');
      const transcript = await service.get(`${record.transcription_url.replace(service.baseUrl, '')}&format=text`);
      expect(transcript.status).toBe(200);
      expect(transcript.bytes.toString()).toContain('Hello there.');
      // The engine was sent the upload's bytes.
      expect(speech.requests.some((r) => r.file?.size === wav.length)).toBe(true);
    });

    it('a transcription of an upload keeps its media as a link, is worked and completed', async () => {
      const { token } = await service.createAccount(100);
      const url = await uploaded(token, noiseWav(35));
      const placed = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url, language: 'english' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const orderId = placed.body.order_id as number;
      // The machine draft read the order's media: kept as a second name of the upload's file.
      const media = await keptMedia(orderId);
      expect((await stat(keptPath(media.key))).ino).toBe((await stat(uploadPath(idOf(url)))).ino);
      expect((await service.complete(orderId, 'result.txt', 'Speaker 1: Hello there.')).body).toMatchObject({ order_id: orderId, status: 'finished' });
      const record = await service.get(`/api/v4/orders/${orderId}?api_token=${token}&mode=live`);
      const result = await service.get(`${record.body.data.transcription_url.replace(service.baseUrl, '')}&format=text`);
      expect(result.bytes.toString()).toContain('Hello there.');
    });
  });

  describe('one-shot POST', () => {
    it.each([
      ['audio/wav', () => noiseWav(3)],
      ['application/octet-stream', () => randomBytes(10_000)],
      // Bodies the API's parsers would read: here they are the file, taken as they are.
      ['application/json', () => Buffer.from('{"api_token": "x", "mode": "live", "broken": ')],
      ['text/html', () => Buffer.from('<!doctype html><html><body><p>A page.</p></body></html>')],
      ['application/x-www-form-urlencoded', () => Buffer.from('api_token=x&mode=live')],
      ['multipart/form-data; boundary=x', () => Buffer.from('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n')],
    ])('takes a %s body as the file, byte for byte, and answers its url', async (contentType, make) => {
      const { token } = await service.createAccount(10);
      const bytes = make();
      const { status, body } = await client.whole(token, bytes, contentType);
      expect(status, JSON.stringify(body)).toBe(201);
      expect(body.url).toMatch(new RegExp(`^${service.baseUrl}/api/v4/uploads/[0-9a-f]{32}$`));
      expect(body.size).toBe(bytes.length);
      expect(Math.abs(Date.parse(body.expires_at) - (Date.now() + 48 * 3_600_000))).toBeLessThan(60_000);
      expect((await readFile(uploadPath(idOf(body.url)))).equals(bytes)).toBe(true);
      // It is a finished tus upload too.
      const head = await client.head(body.url, token);
      expect([head.status, head.headers.get('upload-offset')]).toEqual([200, String(bytes.length)]);
    });

    it('refuses a body over MEDIA_MAX_BYTES with 413, declared or streamed, and keeps nothing of it', async () => {
      const { accountId, token } = await service.createAccount(10);
      const files = await uploadFiles();
      // Declared: refused before the body is sent.
      const declared = httpRequest(`${service.baseUrl}/api/v4/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'content-length': MAX_BYTES + 1 },
      });
      declared.flushHeaders();
      const answer = await new Promise<IncomingMessage>((resolve, reject) => declared.on('response', resolve).on('error', reject));
      declared.destroy();
      expect(answer.statusCode).toBe(413);
      const over = randomBytes(MAX_BYTES + 1);
      // No Content-Length: counted as it arrives.
      const streamed = await fetch(`${service.baseUrl}/api/v4/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i <= MAX_BYTES; i += 256 * 1024) controller.enqueue(over.subarray(i, i + 256 * 1024));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(await uploadFiles()).toEqual(files);
      const rows = await service.database.db.select().from(uploads).where(eq(uploads.accountId, accountId));
      expect(rows.every((row) => row.endedAt && !row.completedAt)).toBe(true);
    });
  });

  describe('expiry', () => {
    // Long enough for a test to place an order (and play it) before its upload expires.
    const TTL_MS = 5000;
    let shortLived: TestService;
    let shortClient: ReturnType<typeof uploadClient>;
    beforeAll(async () => {
      // No speech engine: nothing reads an order's media before its upload expires, unless a test plays it.
      shortLived = await startService({ engine, media: { maxBytes: MAX_BYTES }, uploadTtlMs: TTL_MS });
      shortClient = uploadClient(shortLived);
    });
    afterAll(() => shortLived?.close());

    const pathIn = (id: string) => join(shortLived.dataDir, 'files', 'uploads', id);
    const rowOf = async (id: string) => (await shortLived.database.db.select().from(uploads).where(eq(uploads.id, id)))[0]!;
    const gone = (path: string) =>
      stat(path).then(
        () => false,
        (err: NodeJS.ErrnoException) => err.code === 'ENOENT',
      );
    /** Ended as expired, and (its orders' media kept first) its file removed. */
    const expired = (id: string) =>
      waitFor(async () => (await rowOf(id)).endedReason === 'expired' && (await gone(pathIn(id))), `upload ${id} expired`, 30_000);
    const mediaOf = async (orderId: number) =>
      ((await shortLived.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]!.inputFiles as Record<string, InputFile>).media;
    const keptPath = (key: string) => join(shortLived.dataDir, 'files', key.slice(0, 2), key);
    const liveOrder = async (token: string, url: string) => {
      const placed = await shortLived.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url, language: 'english' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      return placed.body.order_id as number;
    };

    /** The account area's session of `token` (the player's media is served to it). */
    async function signIn(token: string): Promise<string> {
      const form = await fetch(`${shortLived.baseUrl}/account/sign-in`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const pre = form.headers
        .getSetCookie()
        .find((c) => c.startsWith('order_sign_in='))!
        .split(';')[0]!;
      const signedIn = await fetch(`${shortLived.baseUrl}/account/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: pre },
        body: new URLSearchParams({ csrf, api_token: token }),
      });
      return signedIn.headers
        .getSetCookie()
        .find((c) => c.startsWith('order_session='))!
        .split(';')[0]!;
    }

    it('deletes an unused upload, whole or not, with its file; then it is unknown and no order can name it', async () => {
      const { accountId, token } = await shortLived.createAccount(100);
      const { body } = await shortClient.whole(token, noiseWav(10));
      const partial = (await shortClient.create(token, 5000)).headers.get('location')!;
      expect((await shortClient.patch(partial, token, 0, randomBytes(100))).status).toBe(204);
      for (const url of [body.url, partial]) {
        await expired(idOf(url));
        expect([404, 410]).toContain((await shortClient.head(url, token)).status);
      }
      const order = await shortLived.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: body.url, language: 'english' });
      expect(order.status).toBe(400);
      expect(order.body.error).toMatch(/^url: the upload expired at \S+; upload the file again$/);
      if (engine === 'pglite') await recordHistory(shortLived, 0, 'upload_expiry', uploadExpiryWorkflowId(idOf(body.url)));
      expect((await shortLived.database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!.balanceCents).toBe(10_000);
    });

    it("keeps an upload a live order used as that order's media: no copy while both existed, the upload's own name gone", async () => {
      const { token } = await shortLived.createAccount(100);
      const [played, unplayed] = [await shortClient.whole(token, noiseWav(12)), await shortClient.whole(token, noiseWav(13))];
      const [playedOrder, unplayedOrder] = [await liveOrder(token, played.body.url), await liveOrder(token, unplayed.body.url)];
      const inode = (await stat(pathIn(idOf(unplayed.body.url)))).ino;
      // The customer plays one order's media before the upload expires: its copy is kept then, as a second name of the upload's file.
      const player = await fetch(`${shortLived.baseUrl}/account/orders/${playedOrder}/media`, { headers: { cookie: await signIn(token) } });
      expect(player.status).toBe(200);
      expect(Buffer.from(await player.arrayBuffer()).equals(await readFile(pathIn(idOf(played.body.url))))).toBe(true);
      const playedMedia = (await mediaOf(playedOrder))!;
      const both = await stat(keptPath(playedMedia.key));
      expect([both.ino, both.nlink]).toEqual([(await stat(pathIn(idOf(played.body.url)))).ino, 2]);

      await Promise.all([expired(idOf(played.body.url)), expired(idOf(unplayed.body.url))]);
      const after = await stat(keptPath(playedMedia.key));
      expect([after.ino, after.nlink]).toEqual([both.ino, 1]);
      // The other was kept by the expiry itself, from the same file (the same inode: never copied).
      const unplayedMedia = (await mediaOf(unplayedOrder))!;
      const kept = await stat(keptPath(unplayedMedia.key));
      expect([kept.ino, kept.nlink]).toEqual([inode, 1]);
      // The order still plays.
      const again = await fetch(`${shortLived.baseUrl}/account/orders/${unplayedOrder}/media`, { headers: { cookie: await signIn(token) } });
      expect([again.status, Number(again.headers.get('content-length'))]).toEqual([200, kept.size]);
    });

    it("keeps an upload a live order used as that order's media when its owner deletes it", async () => {
      const { token } = await shortLived.createAccount(100);
      const { body } = await shortClient.whole(token, noiseWav(14));
      const orderId = await liveOrder(token, body.url);
      const inode = (await stat(pathIn(idOf(body.url)))).ino;
      expect(await mediaOf(orderId)).toBeUndefined();
      expect((await shortClient.delete(body.url, token)).status).toBe(204);
      expect(await gone(pathIn(idOf(body.url)))).toBe(true);
      const kept = await stat(keptPath((await mediaOf(orderId))!.key));
      expect([kept.ino, kept.nlink]).toEqual([inode, 1]);
    });
  });
});
