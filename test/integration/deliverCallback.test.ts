// The callback services of the account pages (src/orders/deliverCallback.ts): resending an
// order's last callback (same webhook-id, recorded as the next attempt), sample callbacks of every
// product and event (verified by the independent `standardwebhooks` library, the real shape), the
// guard's check of a destination, API token rotation and the account's callback settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, withReceiver, type CallbackReceiver, type ReceivedCallback } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import {
  classifyAnswer,
  resendLastCallback,
  sampleCallbackFields,
  sampleOrder,
  sampleResultUrl,
  sendSampleCallback,
  SAMPLE_EVENTS,
  type CallbackDeliveryDeps,
} from '../../src/orders/deliverCallback.js';
import { callbackAttemptsOf } from '../../src/db/orders.js';
import { getAccount, rotateApiToken, setCallbackSettings } from '../../src/db/accounts.js';
import { RequestError, AccountNotFoundError } from '../../src/contracts/failures.js';
import { callbackFields } from '../../src/products/records.js';
import { PRODUCT_LIST } from '../../src/products/registry.js';
import { createOutboundClient, type Resolve } from '../../src/net/outbound.js';

const verify = (secret: string, call: ReceivedCallback) =>
  new Webhook(secret).verify(
    call.rawBody,
    {
      'webhook-id': call.headers['webhook-id'] as string,
      'webhook-timestamp': call.headers['webhook-timestamp'] as string,
      'webhook-signature': call.headers['webhook-signature'] as string,
    },
    { jsonParse: false },
  );

const depsOf = (service: TestService): CallbackDeliveryDeps => ({
  db: service.database.db,
  secretKey: service.secretKey,
  publicBaseUrl: service.baseUrl,
  outbound: service.outbound,
  callbacks: { timeoutMs: 2000 },
});

/** A client with a scripted resolver: each name answers its lists in turn (the last repeats). */
const scripted = (allowCidrs: string[], answers: Record<string, string[][]>) =>
  createOutboundClient({
    allowCidrs,
    log: () => undefined,
    lookup: (async (hostname) => {
      const list = answers[hostname];
      if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      const next = list.length > 1 ? list.shift()! : list[0]!;
      return next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    }) satisfies Resolve,
  });

describe('pure parts', () => {
  it('judges answers as delivery does', () => {
    expect(classifyAnswer(200, ' ok\n')).toBe('ok');
    expect(classifyAnswer(200, 'OK')).toBe('wrong_answer');
    expect(classifyAnswer(204, '')).toBe('wrong_answer');
    expect(classifyAnswer(410, 'ok')).toBe('gone');
    expect(classifyAnswer(302, 'ok')).toBe('http_error');
  });

  it('has a sample order for every product, in the state each event leaves it', () => {
    for (const product of PRODUCT_LIST) {
      for (const event of SAMPLE_EVENTS) {
        const order = sampleOrder(product.key, event);
        expect(order).toMatchObject({ product: product.key, status: event, retranscribedOrderId: null });
        // Finished: the product's result fields, each a sample URL of that sample order (mode=test, no real token).
        const fields = sampleCallbackFields('https://orders.example', product.key, event);
        if (event === 'finished') {
          for (const { kind, field } of product.results(order.params)) expect(fields[field]).toBe(sampleResultUrl('https://orders.example', order.id, kind));
        }
        expect(fields).toMatchObject({ mode: 'test', order_id: String(order.id) });
      }
    }
    expect(sampleResultUrl('https://orders.example', 3, 'transcription')).toBe('https://orders.example/api/v4/orders/3/files/transcription?mode=test');
  });

  it('checkDestination: http(s) only, every resolved address through the guard, OUTBOUND_ALLOW_CIDRS honoured', async () => {
    const strict = scripted([], { 'loop.example': [['127.0.0.1']], 'mixed.example': [['93.184.216.34', '10.1.2.3']], 'public.example': [['93.184.216.34']] });
    expect(await strict.checkDestination('http://127.0.0.1:8080/hook')).toMatch(/^refused 127\.0\.0\.1: a loopback address \(127\.0\.0\.0\/8\)/);
    expect(await strict.checkDestination('http://[::1]/hook')).toMatch(/^refused ::1: /);
    expect(await strict.checkDestination('https://loop.example/hook')).toMatch(/^refused 127\.0\.0\.1 \(loop\.example\): a loopback address/);
    expect(await strict.checkDestination('https://mixed.example/hook')).toMatch(/^refused 10\.1\.2\.3 \(mixed\.example\)/);
    expect(await strict.checkDestination('https://public.example/hook')).toBeUndefined();
    expect(await strict.checkDestination('http://93.184.216.34/hook')).toBeUndefined();
    expect(await strict.checkDestination('ftp://public.example/hook')).toBe('not an http or https URL');
    expect(await strict.checkDestination('not a url')).toBe('not an http or https URL');
    // A name that does not resolve (now) is not the guard's to refuse; each request is checked when it connects.
    expect(await strict.checkDestination('https://nowhere.example/hook')).toBeUndefined();
    await strict.close();

    const loopbackAllowed = scripted(['127.0.0.0/8', '::1/128'], { 'loop.example': [['127.0.0.1']] });
    expect(await loopbackAllowed.checkDestination('http://127.0.0.1:8080/hook')).toBeUndefined();
    expect(await loopbackAllowed.checkDestination('http://[::1]:8080/hook')).toBeUndefined();
    expect(await loopbackAllowed.checkDestination('https://loop.example/hook')).toBeUndefined();
    expect(await loopbackAllowed.checkDestination('http://10.0.0.1/hook')).toMatch(/^refused 10\.0\.0\.1: /);
    await loopbackAllowed.close();
  });
});

describeOnEachDatabase('callback services', (engine) => {
  let service: TestService;
  let media: MediaServer;
  let deps: CallbackDeliveryDeps;

  beforeAll(async () => {
    [service, media] = await Promise.all([startService({ engine }), startMediaServer()]);
    deps = depsOf(service);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  /** An account made the way order-ops makes one: its answer carries the signing secret. */
  const newAccount = async (extra: Record<string, unknown> = {}) => {
    const created = await service.ops('POST', '/ops/accounts', { name: 'pages', balance: 20, ...extra });
    expect(created.status).toBe(200);
    return created.body as { account_id: number; api_token: string; webhook_secret: string };
  };
  const attemptsOf = (orderId: number) => callbackAttemptsOf(service.database.db, orderId);
  /** The order's callback attempts once `n` are recorded. */
  const recorded = (orderId: number, n: number) =>
    waitFor(async () => {
      const rows = await attemptsOf(orderId);
      return rows.length >= n && rows;
    }, `${n} recorded callback attempts of order ${orderId}`);
  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RequestError);
    return err as RequestError;
  };
  const countAllAttempts = async () =>
    ((await service.database.db.execute(sql`SELECT count(*)::int AS n FROM callback_attempts`)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;

  it("resends a finished order's callback with the same webhook-id and shape, recorded as the next attempt", () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      const { orderId } = await placeOrder(service, { token: account.api_token, fields: englishAudio(media), callbackUrl: receiver.url });
      expect((await service.complete(orderId, 'a.txt', 'Speaker 1: Hello.')).status).toBe(200);
      const [first] = await recorded(orderId, 1);
      const original = receiver.received[0]!;
      const webhookId = original.headers['webhook-id'] as string;
      expect(webhookId).toMatch(new RegExp(`^msg_${orderId}_finished_[0-9a-f]{12}$`));
      // Every attempt now records the id it carried.
      expect(first).toMatchObject({ event: 'finished', attempt: 1, outcome: 'ok', webhookId });

      const outcome = await resendLastCallback(deps, account.account_id, orderId);
      expect(outcome).toMatchObject({ outcome: 'ok', statusCode: 200, answer: 'ok', webhookId, delivered: true, detail: null });
      expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
      expect(receiver.received).toHaveLength(2);
      const again = receiver.received[1]!;
      expect(again.headers['webhook-id']).toBe(webhookId);
      expect(() => verify(account.webhook_secret, original)).not.toThrow();
      expect(() => verify(account.webhook_secret, again)).not.toThrow();
      // Same fields, same values (the result URL carries the same token), in the same order.
      expect(Object.entries(again.fields)).toEqual(Object.entries(original.fields));
      expect(again.fields.transcription_url).toContain(`/api/v4/orders/${orderId}/files/transcription?api_token=`);

      const rows = await attemptsOf(orderId);
      expect(rows.map((r) => [r.event, r.attempt, r.outcome, r.webhookId, r.url])).toEqual([
        ['finished', 1, 'ok', webhookId, receiver.url],
        ['finished', 2, 'ok', webhookId, receiver.url],
      ]);

      // A failing receiver: the outcome says so and is recorded as the next attempt.
      receiver.answer = { status: 503, body: 'busy', headers: { 'retry-after': '7' } };
      const failed = await resendLastCallback(deps, account.account_id, orderId);
      expect(failed).toMatchObject({
        outcome: 'http_error',
        statusCode: 503,
        answer: 'busy',
        delivered: false,
        webhookId,
        retryAfterMs: 7000,
        detail: 'answered 503: "busy"',
      });
      expect((await attemptsOf(orderId)).map((r) => [r.attempt, r.outcome, r.webhookId])).toEqual([
        [1, 'ok', webhookId],
        [2, 'ok', webhookId],
        [3, 'http_error', webhookId],
      ]);
    }));

  it("refuses to resend another account's order, an order with no callback yet, and an order without a callback URL", () =>
    withReceiver(async (receiver) => {
      const owner = await newAccount();
      const stranger = await newAccount();
      const { orderId } = await placeOrder(service, { token: owner.api_token, fields: englishAudio(media), callbackUrl: receiver.url });
      // Paid, not settled: no callback yet.
      const none = await refusal(resendLastCallback(deps, owner.account_id, orderId));
      expect(none.status).toBe(400);
      expect(none.message).toMatch(/no callback yet/);

      await service.complete(orderId, 'a.txt', 'Speaker 1: Hello.');
      await recorded(orderId, 1);
      const foreign = await refusal(resendLastCallback(deps, stranger.account_id, orderId));
      const missing = await refusal(resendLastCallback(deps, owner.account_id, 999_999_999));
      // Another account's order reads exactly like one that does not exist.
      expect([foreign.status, foreign.message]).toEqual([404, `order_id: order ${orderId} not found`]);
      expect([missing.status, missing.message]).toEqual([404, 'order_id: order 999999999 not found']);
      expect(receiver.received).toHaveLength(1);
      expect(await attemptsOf(orderId)).toHaveLength(1);

      // The account-wide URL delivered the callback; once it is cleared there is nowhere to resend to.
      const viaAccount = await newAccount({ callback_url: receiver.url });
      const { orderId: accountOrder } = await placeOrder(service, { token: viaAccount.api_token, fields: englishAudio(media) });
      await service.complete(accountOrder, 'a.txt', 'Speaker 1: Hello.');
      await recorded(accountOrder, 1);
      await setCallbackSettings(service.database.db, viaAccount.account_id, { callbackUrl: null, canceledCallbacks: true });
      const nowhere = await refusal(resendLastCallback(deps, viaAccount.account_id, accountOrder));
      expect(nowhere.message).toMatch(/no callback URL|neither the order nor the account has a callback URL/);
      expect(await attemptsOf(accountOrder)).toHaveLength(1);
    }));

  it("sends sample callbacks of every product and event: signed, the product's exact shape, not recorded", () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      const row = (await getAccount(service.database.db, account.account_id))!;
      const before = await countAllAttempts();
      for (const product of PRODUCT_LIST) {
        for (const event of SAMPLE_EVENTS) {
          const outcome = await sendSampleCallback(deps, row, { product: product.key, event, url: `${receiver.url}/sample/${product.key}/${event}` });
          expect(outcome).toMatchObject({ outcome: 'ok', statusCode: 200, answer: 'ok', delivered: true });
          expect(outcome.webhookId).toMatch(/^msg_sample_[0-9a-f]{16}$/);
          const call = receiver.received.at(-1)!;
          expect(call.path).toBe(`/sample/${product.key}/${event}`);
          expect(call.headers['webhook-id']).toBe(outcome.webhookId);
          expect(() => verify(account.webhook_secret, call)).not.toThrow();
          // Exactly the fields the product's real callback for this event has, in its order.
          const order = sampleOrder(product.key, event);
          const real = callbackFields(order, event, () => 'https://orders.example/file');
          expect(Object.keys(call.fields)).toEqual(Object.keys(real));
          expect(call.fields).toEqual(sampleCallbackFields(service.baseUrl, product.key, event));
          for (const { field } of event === 'finished' ? product.results(order.params) : []) {
            expect(call.fields[field]).toMatch(new RegExp(`^${service.baseUrl}/api/v4/orders/${order.id}/files/\\w+\\?mode=test$`));
            // The URL downloads, as given: a sample file, no token needed.
            expect((await fetch(call.fields[field]!)).status).toBe(200);
          }
          // The account's token never goes into a sample.
          expect(call.rawBody.toString('utf8')).not.toContain(account.api_token);
        }
      }
      const ids = new Set(receiver.received.map((c) => c.headers['webhook-id']));
      expect(ids.size).toBe(PRODUCT_LIST.length * SAMPLE_EVENTS.length);
      expect(await countAllAttempts()).toBe(before);

      // A receiver answering something else than ok: not delivered, its answer shown.
      receiver.answer = { status: 200, body: 'thanks' };
      const wrong = await sendSampleCallback(deps, row, { product: 'transcription', event: 'finished', url: receiver.url });
      expect(wrong).toMatchObject({ outcome: 'wrong_answer', statusCode: 200, answer: 'thanks', delivered: false });
      // No URL, not a product, not an event.
      expect((await refusal(sendSampleCallback(deps, row, { product: 'transcription', event: 'finished', url: '  ' }))).message).toMatch(/^url: /);
      expect((await refusal(sendSampleCallback(deps, row, { product: 'telepathy' as never, event: 'finished', url: receiver.url }))).message).toMatch(
        /^product: /,
      );
      expect((await refusal(sendSampleCallback(deps, row, { product: 'transcription', event: 'quality_fix' as never, url: receiver.url }))).message).toMatch(
        /^event: /,
      );
      expect((await refusal(sendSampleCallback(deps, row, { product: 'transcription', event: 'finished', url: 'ftp://example.com/' }))).message).toBe(
        'url: not an http or https URL',
      );
    }));

  it("a sample has the field names of a real order's callback for each event (transcription)", () =>
    withReceiver(async (receiver) => {
      const account = await newAccount({ canceled_callbacks: true });
      const row = (await getAccount(service.database.db, account.account_id))!;
      const order = { token: account.api_token, fields: englishAudio(media) };
      const { orderId: finished } = await placeOrder(service, { ...order, callbackUrl: `${receiver.url}/real/finished` });
      const { orderId: refunded } = await placeOrder(service, { ...order, callbackUrl: `${receiver.url}/real/refunded` });
      const { orderId: canceled } = await placeOrder(service, { ...order, callbackUrl: `${receiver.url}/real/canceled` });
      await service.complete(finished, 'a.txt', 'Speaker 1: Hello.');
      expect((await service.ops('POST', `/ops/orders/${refunded}/refund`, {})).status).toBe(200);
      expect((await service.ops('POST', `/ops/orders/${canceled}/cancel`, {})).status).toBe(200);
      for (const event of SAMPLE_EVENTS) {
        const real = await waitFor(() => receiver.received.find((c) => c.path === `/real/${event}`), `the real ${event} callback`);
        await sendSampleCallback(deps, row, { product: 'transcription', event, url: `${receiver.url}/sample/${event}` });
        const sample = receiver.received.find((c) => c.path === `/sample/${event}`)!;
        expect(Object.keys(sample.fields)).toEqual(Object.keys(real.fields));
        expect(sample.fields.status ?? null).toBe(real.fields.status ?? null);
        // A sample says it is one: mode=test, where the real callback says live.
        expect([real.fields.mode, sample.fields.mode]).toEqual(['live', 'test']);
        expect(() => verify(account.webhook_secret, real)).not.toThrow();
        expect(() => verify(account.webhook_secret, sample)).not.toThrow();
      }
    }));

  it('signs samples with both secrets during a rotation window', () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      const rotated = await service.ops('POST', `/ops/accounts/${account.account_id}/webhook-secret/rotate`, {});
      const row = (await getAccount(service.database.db, account.account_id))!;
      await sendSampleCallback(deps, row, { product: 'captions', event: 'finished', url: receiver.url });
      const call = receiver.received[0]!;
      expect((call.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
      expect(() => verify(rotated.body.webhook_secret, call)).not.toThrow();
      expect(() => verify(account.webhook_secret, call)).not.toThrow();
    }));

  it('rotateApiToken: the old token is refused at once, the new one works', async () => {
    const { accountId, token } = await service.createAccount(5);
    expect((await service.get(`/api/v4/orders?api_token=${encodeURIComponent(token)}&mode=live`)).status).toBe(200);
    const { token: fresh } = await rotateApiToken(service.database.db, service.secretKey, accountId);
    expect(fresh).not.toBe(token);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const old = await service.get(`/api/v4/orders?api_token=${encodeURIComponent(token)}&mode=live`);
    // The API answers a wrong token like any caller's mistake (400, api_token named).
    expect([old.status, old.body.error]).toEqual([400, 'api_token: invalid token']);
    const now = await service.get(`/api/v4/orders?api_token=${encodeURIComponent(fresh)}&mode=live`);
    expect(now.status).toBe(200);
    expect(now.body).toEqual({ orders: [], next_page_url: null });
    await expect(rotateApiToken(service.database.db, service.secretKey, 999_999)).rejects.toThrow(AccountNotFoundError);
  });

  it('rotateApiToken: result URLs of later callbacks carry the new token', () =>
    withReceiver(async (receiver) => {
      const account = await newAccount();
      const { orderId } = await placeOrder(service, { token: account.api_token, fields: englishAudio(media), callbackUrl: receiver.url });
      await service.complete(orderId, 'a.txt', 'Speaker 1: Hello.');
      await recorded(orderId, 1);
      const { token: fresh } = await rotateApiToken(service.database.db, service.secretKey, account.account_id);
      await resendLastCallback(deps, account.account_id, orderId);
      const [before, after] = receiver.received;
      expect(before!.fields.transcription_url).toContain(`api_token=${encodeURIComponent(account.api_token)}`);
      expect(after!.fields.transcription_url).toContain(`api_token=${encodeURIComponent(fresh)}`);
      expect((await service.get(after!.fields.transcription_url!.replace(service.baseUrl, ''))).status).toBe(200);
    }));

  it('setCallbackSettings round-trips', async () => {
    const { accountId } = await service.createAccount(1);
    await setCallbackSettings(service.database.db, accountId, { callbackUrl: 'https://hooks.example/orders', canceledCallbacks: true });
    expect(await getAccount(service.database.db, accountId)).toMatchObject({ callbackUrl: 'https://hooks.example/orders', canceledCallbacks: true });
    await setCallbackSettings(service.database.db, accountId, { callbackUrl: null, canceledCallbacks: false });
    expect(await getAccount(service.database.db, accountId)).toMatchObject({ callbackUrl: null, canceledCallbacks: false });
    await expect(setCallbackSettings(service.database.db, 999_999, { callbackUrl: null, canceledCallbacks: false })).rejects.toThrow(AccountNotFoundError);
  });

  it("checkDestination of the service's client allows loopback, which the tests allow", async () => {
    expect(await service.outbound.checkDestination('http://127.0.0.1:9/hook')).toBeUndefined();
    expect(await service.outbound.checkDestination('http://10.0.0.1/hook')).toMatch(/^refused 10\.0\.0\.1: /);
  });
});

describe('callback services where OUTBOUND_ALLOW_CIDRS allows nothing', () => {
  let service: TestService;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    [service, receiver] = await Promise.all([startService({ outboundAllowCidrs: [] }), startCallbackReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), receiver?.close()]);
  });

  it('refuses a sample to a private address before sending it', async () => {
    const { accountId } = await service.createAccount(1);
    const account = (await getAccount(service.database.db, accountId))!;
    expect(await service.outbound.checkDestination(receiver.url)).toMatch(/^refused 127\.0\.0\.1: a loopback address/);
    const err = await sendSampleCallback(depsOf(service), account, { product: 'transcription', event: 'finished', url: receiver.url }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RequestError);
    // The person sees that the address is not public, not which address the name resolved to.
    expect((err as Error).message).toBe('url: the address is not a public one; samples are sent to public receivers only');
    expect(receiver.received).toHaveLength(0);
  });

  it('a name that passes the check and then rebinds to a private address is refused when connecting', async () => {
    const { accountId } = await service.createAccount(1);
    const account = (await getAccount(service.database.db, accountId))!;
    const port = new URL(receiver.url).port;
    const outbound = scripted([], { 'rebind.example': [['93.184.216.34'], ['127.0.0.1']] });
    try {
      const outcome = await sendSampleCallback({ ...depsOf(service), outbound }, account, {
        product: 'transcription',
        event: 'finished',
        url: `http://rebind.example:${port}/hook`,
      });
      expect(outcome).toMatchObject({ outcome: 'network_error', statusCode: null, answer: '', delivered: false });
      expect(outcome.detail).toMatch(/^refused 127\.0\.0\.1 \(rebind\.example\): a loopback address/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await outbound.close();
    }
  });
});
