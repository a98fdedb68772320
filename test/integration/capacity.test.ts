// The service's own capacity, as a client written from the contract meets it: more large documents
// at once than the service has readers, from several accounts (so no per-account limit is what holds
// them back). Each is answered within the wait bound, by a 200 or by a 503 with Retry-After (a 5xx:
// the client retries), never by a 429 (a 4xx: the client would take it as its own mistake). A
// finished order's result file downloaded during the burst is served: renderings have their own reader.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { longContractPdf, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startService, type TestService } from '../helpers/service.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';

const QUEUE_WAIT_MS = 200;
let service: TestService;
let docs: DocumentServer;
let media: MediaServer;

beforeAll(async () => {
  [service, docs, media] = await Promise.all([
    startService({ sandbox: { children: 1, queueWaitMs: QUEUE_WAIT_MS } }),
    startDocumentServer(),
    startMediaServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([service?.close(), docs?.close(), media?.close()]);
});

it('more large documents than readers: 200s or 503s with Retry-After within the wait, never 429; a download meanwhile is served', async () => {
  // A finished order whose transcript is rendered as DOCX when downloaded.
  const owner = await service.createAccount(20);
  const { orderId } = await placeOrder(service, { token: owner.token, fields: englishAudio(media, 30) });
  expect((await service.complete(orderId, 'transcript.txt', 'Speaker 1: Finished before the burst.')).status).toBe(200);

  // Each document takes its reader a while: eight of them at once, one reader.
  const big = await longContractPdf(120);
  const accounts = await Promise.all(Array.from({ length: 8 }, () => service.createAccount(100)));
  const quote = async (token: string, n: number) => {
    const started = performance.now();
    const res = await service.post('/api/v4/translations', {
      api_token: token,
      mode: 'test',
      url: docs.serve(`/burst/contract-${n}.pdf`, big, 'application/pdf'),
      translate_from: 'english',
      translate_to: 'spanish',
    });
    return { res, ms: performance.now() - started };
  };
  const [quotes, download] = await Promise.all([
    Promise.all(accounts.map((a, n) => quote(a.token, n))),
    (async () => {
      await new Promise((r) => setTimeout(r, 100)); // the readers are taken by then
      return service.get(`/api/v4/orders/${orderId}/files/transcription?api_token=${owner.token}&format=docx`);
    })(),
  ]);

  for (const { res, ms } of quotes) {
    expect([200, 503], JSON.stringify(res.body)).toContain(res.status);
    if (res.status === 200) expect(res.body).toMatchObject({ status: 'success', words: expect.any(Number) });
    else {
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.body).toEqual({ mode: 'test', status: 'error', error: 'the service is reading many documents at once; retry in a few seconds' });
      // Told within the wait bound (and the time to fetch the file), not after the others' reading.
      expect(ms).toBeLessThan(QUEUE_WAIT_MS + 3_000);
    }
  }
  expect(quotes.filter((q) => q.res.status === 503).length, 'the burst went past the reader').toBeGreaterThan(0);
  expect(quotes.filter((q) => q.res.status === 200).length).toBeGreaterThan(0);
  expect(download.status).toBe(200);
  expect(download.bytes.subarray(0, 2).toString()).toBe('PK'); // a DOCX
});
