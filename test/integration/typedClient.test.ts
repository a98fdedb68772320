// The typed client (clients/typescript, generated from the OpenAPI document) against the live
// service: a quote (mode=test) and a live order, read back with GET /api/v4/orders/{id}; local
// files uploaded by its upload() helper (tus) and ordered by their URL.
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderClient, DEFAULT_CHUNK_SIZE, orThrow, OrderServiceError, type OrderClient } from '../../clients/typescript/src/index.js';
import { openApiDocument } from '../../src/api/openapi/document.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, wavFile, type MediaServer } from '../helpers/mediaServer.js';
import { longContractPdf, startDocumentServer } from '../helpers/documents.js';

describe('typed client', () => {
  let service: TestService;
  let media: MediaServer;
  let client: OrderClient;
  let token: string;
  /** Local files to upload, and each test's resume store. */
  let scratch: string;

  beforeAll(async () => {
    service = await startService();
    media = await startMediaServer();
    client = createOrderClient(service.baseUrl);
    ({ token } = await service.createAccount(100));
    scratch = await mkdtemp(join(tmpdir(), 'typed-client-uploads-'));
  });
  afterAll(async () => {
    await media?.close();
    await service?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('quotes an order (mode=test) with typed parameters and answer', async () => {
    const { data, error, response } = await client.POST('/api/v4/transcriptions', {
      body: { mode: 'test', api_token: token, url: media.audio(120), language: 'english', turnaround_time: '3_days' },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    const seconds: number = data!.seconds;
    expect(seconds).toBe(120);
    expect(data).toMatchObject({ mode: 'test', status: 'success', in_wallet: 100 });
    expect(data!.order_id).toBeUndefined();
  });

  it('places a live order and reads it back', async () => {
    const placed = await client.POST('/api/v4/ai-transcriptions', {
      body: { mode: 'live', api_token: token, url: media.audio(60), language: 'english', vocabulary: ['Siobhan', 'Zyphrex'] },
      headers: { 'Idempotency-Key': `typed-client-${Date.now()}` },
    });
    expect(placed.error).toBeUndefined();
    const orderId = placed.data!.order_id!;
    expect(orderId).toBeGreaterThan(0);
    expect(placed.data).toMatchObject({ mode: 'live', status: 'success', seconds: 60 });

    const read = await client.GET('/api/v4/orders/{id}', {
      params: { path: { id: String(orderId) }, query: { mode: 'live', api_token: token } },
    });
    expect(read.error).toBeUndefined();
    expect(read.data!.data).toMatchObject({ id: orderId, seconds: 60 });
    const vocabulary: string[] | undefined = read.data!.data.vocabulary;
    expect(vocabulary).toEqual(['Siobhan', 'Zyphrex']);

    const list = await client.GET('/api/v4/orders', { params: { query: { mode: 'live', api_token: token, per_page: 10 } } });
    expect(list.data!.orders.map((o) => o.id)).toContain(orderId);
  });

  it("downloads a finished order's result file in a documented media type", async () => {
    const placed = await client.POST('/api/v4/transcriptions', {
      body: { mode: 'live', api_token: token, url: media.audio(60), language: 'english' },
    });
    const orderId = placed.data!.order_id!;
    expect((await service.complete(orderId, 'result.txt', 'Hello there.')).status).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await client.GET('/api/v4/orders/{id}', {
              params: { path: { id: String(orderId) }, query: { mode: 'live', api_token: token } },
            })
          ).data?.data.status,
        { timeout: 20_000 },
      )
      .toBe('finished');
    const file = await client.GET('/api/v4/orders/{id}/files/{kind}', {
      params: { path: { id: String(orderId), kind: 'transcription' }, query: { api_token: token, format: 'text' } },
      parseAs: 'text',
    });
    expect(file.response.status).toBe(200);
    expect(file.data).toContain('Hello there.');
    const documented = Object.keys((openApiDocument() as any).paths['/api/v4/orders/{id}/files/{kind}'].get.responses[200].content);
    expect(documented).toContain(file.response.headers.get('content-type')!.split(';')[0]);
  });

  it('gives the error object typed on a refusal', async () => {
    const { data, error, response } = await client.POST('/api/v4/transcriptions', {
      body: { mode: 'test', api_token: token, url: media.audio(60), language: 'klingon' as 'english' },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ mode: 'test', status: 'error', error: expect.stringContaining('language') });
    // As one typed error: the status, the error object and its message.
    const thrown = await orThrow(
      client.POST('/api/v4/transcriptions', { body: { mode: 'test', api_token: token, url: media.audio(60), language: 'klingon' as 'english' } }),
    ).catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(OrderServiceError);
    expect(thrown).toMatchObject({ status: 400, retryable: false, retryAfterSeconds: undefined, body: { status: 'error' } });
    expect((thrown as Error).message).toMatch(/^language: /);
  });

  it('gives a body too large (413) and a charset it does not take (415) as the same typed error', async () => {
    const tooLarge = await orThrow(
      client.POST('/api/v4/transcriptions', {
        body: { mode: 'test', api_token: token, url: media.audio(60), language: 'english', comment: 'x'.repeat(1_100_000) },
      }),
    ).catch((err: unknown) => err);
    expect(tooLarge).toBeInstanceOf(OrderServiceError);
    expect(tooLarge).toMatchObject({ status: 413, retryable: false, body: { status: 'error' } });
    expect((tooLarge as Error).message).toMatch(/larger than/);
    const latin1 = await orThrow(
      client.POST('/api/v4/transcriptions', {
        body: { mode: 'test', api_token: token, url: media.audio(60), language: 'english' },
        headers: { 'content-type': 'application/json; charset=iso-8859-1' },
      }),
    ).catch((err: unknown) => err);
    expect(latin1).toBeInstanceOf(OrderServiceError);
    expect(latin1).toMatchObject({ status: 415, retryable: false, body: { status: 'error' } });
    expect((latin1 as Error).message).toMatch(/charset/);
  });

  it('gives the service at its capacity (503) as a retryable error with Retry-After', async () => {
    // One document reader that lets nothing wait, and three long documents at once.
    const [small, docs] = await Promise.all([startService({ sandbox: { children: 1, queueWaitMs: 1 } }), startDocumentServer()]);
    try {
      const api = createOrderClient(small.baseUrl);
      const { token: own } = await small.createAccount(10);
      const url = docs.serve('/long.pdf', await longContractPdf(40), 'application/pdf');
      const quote = () =>
        orThrow(api.POST('/api/v4/translations', { body: { mode: 'test', api_token: own, url, translate_from: 'english', translate_to: 'spanish' } })).then(
          () => null,
          (err: unknown) => err,
        );
      const outcomes = await Promise.all([quote(), quote(), quote()]);
      const busy = outcomes.find((o) => o instanceof OrderServiceError && o.status === 503);
      expect(busy, String(outcomes)).toBeInstanceOf(OrderServiceError);
      expect(busy).toMatchObject({ retryable: true, body: { status: 'error' } });
      expect((busy as OrderServiceError).retryAfterSeconds).toBeGreaterThan(0);
      expect((busy as Error).message).toMatch(/many documents at once/);
    } finally {
      await Promise.all([small.close(), docs.close()]);
    }
  });

  it("exposes Retry-After on the token's rate limit (429), as a retryable error", async () => {
    const limited = await startService({ rateLimits: { readsPerMinute: 2 } });
    try {
      const api = createOrderClient(limited.baseUrl);
      const { token: own } = await limited.createAccount(10);
      const list = () => orThrow(api.GET('/api/v4/orders', { params: { query: { api_token: own, mode: 'test' } } }));
      await list();
      await list();
      const thrown = await list().catch((err: unknown) => err);
      expect(thrown).toBeInstanceOf(OrderServiceError);
      expect(thrown).toMatchObject({ status: 429, retryable: true });
      expect((thrown as OrderServiceError).retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  /** A live AI transcription of `url`, its seconds as the service measured them from the bytes. */
  async function orderedSeconds(url: string): Promise<number> {
    const placed = await orThrow(client.POST('/api/v4/ai-transcriptions', { body: { mode: 'live', api_token: token, url, language: 'english' } }));
    expect(placed.order_id).toBeGreaterThan(0);
    return placed.seconds;
  }

  it('uploads a local file by tus in chunks of 8 MiB and orders it by the URL it answers', async () => {
    const path = join(scratch, 'twenty minutes.wav');
    const bytes = wavFile(1200); // 9.6 MB: a whole chunk and a part
    await writeFile(path, bytes);
    const accepted: number[] = [];
    const url = await client.upload(path, { apiToken: token, resumeStore: join(scratch, 'chunks.json'), onChunk: (offset) => accepted.push(offset) });
    expect(url).toMatch(new RegExp(`^${service.baseUrl}/api/v4/uploads/[0-9a-f]{32}$`));
    expect(accepted).toEqual([DEFAULT_CHUNK_SIZE, bytes.length]);
    expect(DEFAULT_CHUNK_SIZE).toBe(8 * 1024 * 1024);
    expect(await orderedSeconds(url)).toBe(1200);
  });

  it('resumes an interrupted upload of the same file where the service left it, and forgets it once done', async () => {
    const path = join(scratch, 'interrupted.wav');
    await writeFile(path, wavFile(90)); // 720 KB in chunks of 64 KiB
    const store = join(scratch, 'resume.json');
    const chunkSize = 64 * 1024;
    const stop = new AbortController();
    const first = client.upload(path, {
      apiToken: token,
      resumeStore: store,
      chunkSize,
      onChunk: (offset) => offset >= 2 * chunkSize && stop.abort(new Error('interrupted')),
      signal: stop.signal,
    });
    await expect(first).rejects.toThrow('interrupted');
    const remembered = Object.values(JSON.parse(await readFile(store, 'utf8')) as Record<string, { uploadUrl: string }>);
    expect(remembered).toHaveLength(1);
    const held = await fetch(remembered[0]!.uploadUrl, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${token}` } });
    const offset = Number(held.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(2 * chunkSize);

    const sent: number[] = [];
    const url = await client.upload(path, { apiToken: token, resumeStore: store, chunkSize, onProgress: (bytesSent) => sent.push(bytesSent) });
    // The same upload, continued from the service's offset: no byte before it was sent again.
    expect(url).toBe(remembered[0]!.uploadUrl);
    expect(Math.min(...sent)).toBeGreaterThanOrEqual(offset);
    expect(JSON.parse(await readFile(store, 'utf8'))).toEqual({});
    expect(await orderedSeconds(url)).toBe(90);
  });

  it('uploads bytes (a Buffer) and a stream of unknown length, each ordered by its URL', async () => {
    const fromBuffer = await client.upload(wavFile(45), { apiToken: token, resumeStore: false });
    expect(await orderedSeconds(fromBuffer)).toBe(45);
    // A stream of unknown length: its length is sent with its last chunk (tus creation-defer-length).
    const stream = Readable.from([wavFile(75)]);
    const fromStream = await client.upload(stream, { apiToken: token, resumeStore: false, chunkSize: 100_000 });
    expect(await orderedSeconds(fromStream)).toBe(75);
    // A file's stream is read as its path is.
    const path = join(scratch, 'streamed.wav');
    await writeFile(path, wavFile(15));
    const fromFileStream = await client.upload(createReadStream(path), { apiToken: token, resumeStore: false });
    expect(await orderedSeconds(fromFileStream)).toBe(15);
    expect(new Set([fromBuffer, fromStream, fromFileStream]).size).toBe(3);
  });

  it("gives the upload's refusals as OrderServiceError: a wrong token (the error object), a file over the limit (tus's text)", async () => {
    const wrongToken = await client.upload(wavFile(5), { apiToken: 'not-a-token', resumeStore: false }).catch((err: unknown) => err);
    expect(wrongToken).toBeInstanceOf(OrderServiceError);
    expect(wrongToken).toMatchObject({ status: 400, retryable: false, body: { status: 'error' } });
    expect((wrongToken as Error).message).toBe('api_token: invalid token');

    const small = await startService({ media: { maxBytes: 100_000 } });
    try {
      const { token: own } = await small.createAccount(10);
      const tooLarge = await createOrderClient(small.baseUrl)
        .upload(wavFile(60), { apiToken: own, resumeStore: false })
        .catch((err: unknown) => err);
      expect(tooLarge).toBeInstanceOf(OrderServiceError);
      expect(tooLarge).toMatchObject({ status: 413, retryable: false, body: undefined });
      expect((tooLarge as Error).message).toMatch(/^Maximum size exceeded/);
    } finally {
      await small.close();
    }
  });
});
