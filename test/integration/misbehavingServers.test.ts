// Customer media servers that end or garble their answers in every way HTTP servers do (issue 51):
// no answer may take the service down. An AI transcription placed on each, through the service as
// `npm start` runs it (its own process, the local engine), is worked or refused with a 400 naming
// the field, never charged for nothing; the service answers throughout. The same servers behind a
// share link's and the account's media (kept on the first play of an order an operator completed):
// the media plays, or that one request fails with 502, and nothing else. A server that goes bad after
// the quote: the engine's last attempt at the order's media refuses it (an AI order is refunded).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { MANNERS, WHOLE, startMisbehavingServer, type Manner, type MisbehavingServer } from '../helpers/misbehavingServer.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/serviceProcess.js';
import { startService, type TestService } from '../helpers/service.js';
import { speak } from '../helpers/speech.js';
import { waitFor } from '../helpers/net.js';
import { placeOrder } from '../helpers/orders.js';
import { WorkerSession } from '../helpers/workerSession.js';
import type { Info } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { engineWork, MEDIA_REFUSED } from '../../src/activities/engineWork.js';
import { getOrder } from '../../src/db/orders.js';
import { FetchError } from '../../src/net/outbound.js';

const SAID = 'The quick brown fox jumps over the lazy dog. Today we talk about whales and the sea.';
/** What a quote may take here, and the window in which a download must make progress: a dribbling server is given up on after it. */
const MEDIA_TIMEOUT_MS = 1_500;

/** Polls `/healthz` until stopped: every answer it did not get. */
function watchHealth(baseUrl: string) {
  const missed: string[] = [];
  let checks = 0;
  const timer = setInterval(() => {
    checks += 1;
    fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
      (res) => (res.ok ? undefined : missed.push(`HTTP ${res.status}`)),
      (err: Error) => missed.push(err.message),
    );
  }, 250);
  return {
    stop: () => {
      clearInterval(timer);
      return { missed, checks };
    },
  };
}

let speech: Buffer;
let server: MisbehavingServer;
beforeAll(async () => {
  speech = (await speak(SAID)).wav;
  server = await startMisbehavingServer(speech);
});
afterAll(async () => server?.close());

describeNeeding('localEngine', 'AI orders on media servers that end or garble their answers', () => {
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await startServiceProcess({
      MEDIA_TIMEOUT_MS: String(MEDIA_TIMEOUT_MS),
      QUOTE_PROBE_TIMEOUT_MS: String(MEDIA_TIMEOUT_MS),
      // The test reads its orders' records as often as it likes.
      RATE_LIMIT_READS_PER_MINUTE: '100000',
    });
  });
  afterAll(async () => {
    if (service) expect(await service.stop()).toBe(0);
  });

  const post = (path: string, body: object) =>
    fetch(`${service.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (res) => ({
      status: res.status,
      body: await res.json(),
    }));
  const record = (id: number) =>
    fetch(`${service.baseUrl}/api/v4/orders/${id}?api_token=${service.apiToken}&mode=live`)
      .then((res) => res.json())
      .then((res) => res.data as { status: string; price: number; transcription_url: string | null });
  const inWallet = async () =>
    (await post('/api/v4/transcriptions', { api_token: service.apiToken, mode: 'test', url: server.url('http10-close'), language: 'english' })).body
      .in_wallet as number;

  it('each order is worked or refused naming url; nothing is charged for nothing and the service answers throughout', async () => {
    const health = watchHealth(service.baseUrl);
    const startBalance = await inWallet();
    const placed = new Map<Manner, { status: number; body: { order_id?: number; order_total?: number; error?: string } }>();
    for (const manner of MANNERS) {
      placed.set(manner, await post('/api/v4/ai-transcriptions', { api_token: service.apiToken, mode: 'live', url: server.url(manner), language: 'english' }));
    }
    const outcomes = new Map<Manner, string>();
    let charged = 0;
    for (const manner of MANNERS) {
      const answer = placed.get(manner)!;
      if (answer.status === 400) {
        expect(answer.body.error, manner).toMatch(/^url: /);
        outcomes.set(manner, 'refused');
        continue;
      }
      expect(answer.status, `${manner}: ${JSON.stringify(answer.body)}`).toBe(200);
      const settled = await waitFor(
        async () => {
          const shown = await record(answer.body.order_id!);
          return ['finished', 'refunded'].includes(shown.status) && shown;
        },
        `the ${manner} order to settle`,
        240_000,
      );
      outcomes.set(manner, settled.status);
      if (settled.status === 'finished') {
        charged += answer.body.order_total!;
        const text = await fetch(`${settled.transcription_url}&format=text`).then((res) => res.text());
        expect(text.toLowerCase(), manner).toContain('fox');
      }
    }
    // The whole file arrives (however framed): worked. A small file whose transfer breaks is read to
    // its end at the quote, so it is refused there; a dribble ends at the quote's deadline.
    for (const manner of MANNERS) expect(outcomes.get(manner), manner).toBe(WHOLE.has(manner) ? 'finished' : 'refused');
    expect(await inWallet()).toBeCloseTo(startBalance - charged, 2);
    const { missed, checks } = health.stop();
    expect(missed).toEqual([]);
    expect(checks).toBeGreaterThan(10);
    expect(service.child.exitCode).toBeNull();
    expect(service.output()).not.toMatch(/uncaught|AssertionError/i);
  }, 420_000);
});

describe("a share link's and the account's media on those servers", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ media: { timeoutMs: MEDIA_TIMEOUT_MS } });
  });
  afterAll(async () => service?.close());

  it('plays the media where the file arrives whole; elsewhere that one request answers 502, and the service answers throughout', async () => {
    const { token } = await service.createAccount(50);
    // Placed while the server behaves; it goes bad before anybody plays the media (kept on first play).
    server.honest = true;
    const orders = new Map<Manner, number>();
    for (const manner of MANNERS) {
      const { orderId } = await placeOrder(service, { token, path: 'transcriptions', fields: { url: server.url(manner), language: 'english' } });
      expect((await service.complete(orderId, 'done.txt', 'Some words.')).status).toBe(200);
      orders.set(manner, orderId);
    }
    server.honest = false;
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    const links = new Map<Manner, string>();
    for (const [manner, orderId] of orders) {
      await customer.request('GET', `/account/orders/${orderId}`);
      expect((await customer.request('POST', `/account/orders/${orderId}/share`, { expires_in_days: '' })).status, manner).toBe(303);
      links.set(manner, /\/shared\/[\w-]+/.exec((await customer.request('GET', `/account/orders/${orderId}`)).text)![0]);
    }
    const health = watchHealth(service.baseUrl);
    await Promise.all(
      MANNERS.map(async (manner) => {
        // The share link's first play keeps the media (or fails); the owner's play then reads that copy, or fetches again.
        for (const path of [`${links.get(manner)}/media`, `/account/orders/${orders.get(manner)}/media`]) {
          const played = await fetch(service.baseUrl + path, { headers: path.startsWith('/account') ? { cookie: customer.cookieHeader() } : {} });
          const bytes = Buffer.from(await played.arrayBuffer());
          if (WHOLE.has(manner)) {
            expect(played.status, `${manner} ${path}`).toBe(200);
            expect(played.headers.get('content-type'), manner).toBe('audio/wav');
            expect(bytes.length, manner).toBeGreaterThan(speech.length / 2);
          } else {
            expect(played.status, `${manner} ${path}`).toBe(502);
            expect(bytes.toString(), manner).toContain('The media cannot be read from the customer');
          }
        }
      }),
    );
    const { missed } = health.stop();
    expect(missed).toEqual([]);
  }, 180_000);

  it("a server gone bad after the quote: an engine's media request fails to be retried, and on its last attempt refuses the media", async () => {
    const { token } = await service.createAccount(50);
    server.honest = true;
    const { orderId } = await placeOrder(service, { token, path: 'transcriptions', fields: { url: server.url('reset-mid-body'), language: 'english' } });
    server.honest = false;
    const order = (await getOrder(service.database.db, orderId))!;
    const request = (attempt: number) =>
      new MockActivityEnvironment({ attempt, retryPolicy: { maximumAttempts: 4 } } as Partial<Info>).run(async () =>
        engineWork(service.activityDeps).mediaRequest(order, 'test')!(),
      );
    await expect(request(1)).rejects.toThrow(new FetchError('url: the file could not be fetched'));
    const last = await request(4).catch((err: unknown) => err);
    expect(last).toBeInstanceOf(ApplicationFailure);
    expect(last).toMatchObject({
      type: MEDIA_REFUSED,
      nonRetryable: true,
      message: "the customer's media could not be fetched (url: the file could not be fetched)",
    });
    // Three tries within each attempt.
    expect(server.requests.get('reset-mid-body')).toBeGreaterThanOrEqual(6);
  }, 60_000);
});
