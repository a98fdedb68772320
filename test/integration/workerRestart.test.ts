// Workers come and go; orders finish and wallets are charged exactly once.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { eq } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, liveTranscriptionInput, placeOrder } from '../helpers/orders.js';
import { startWorkerProcess as startWorker } from '../helpers/workerProcess.js';
import { ledgerEntries } from '../../src/db/schema.js';
import { orderWorkflowId } from '../../src/contracts/orders.js';
import { PaymentExpiredError } from '../../src/contracts/failures.js';
import { nextOrderId } from '../../src/db/wallet.js';
import { retryCharge, startAndPayOrder } from '../../src/orders/startOrder.js';

let media: MediaServer;
let receiver: CallbackReceiver;
beforeAll(async () => {
  [media, receiver] = await Promise.all([startMediaServer(), startCallbackReceiver()]);
});
afterAll(async () => {
  await Promise.all([media?.close(), receiver?.close()]);
});

async function expectChargedOnce(service: TestService, orderId: number) {
  const entries = await service.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, orderId));
  expect(entries.map((e) => e.kind)).toEqual(['charge']);
}

describe('a worker replaced in the middle of an order (in process, PGlite)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service?.close());

  it('pays and finishes the order once a new worker takes over', async () => {
    const { token } = await service.createAccount(10);
    await service.stopWorker();
    // Placed while no worker runs: the API waits for the charge.
    const placing = placeOrder(service, { token, fields: englishAudio(media), callbackUrl: receiver.url });
    await new Promise((r) => setTimeout(r, 500));
    await service.startWorker();
    const { orderId } = await placing;

    await service.stopWorker();
    const completing = service.complete(orderId, 'a.txt', 'Finished after a restart.');
    await new Promise((r) => setTimeout(r, 500));
    await service.startWorker();
    expect((await completing).body).toEqual({ order_id: orderId, status: 'finished' });
    await waitFor(() => receiver.received.some((c) => c.fields.order_id === String(orderId)), 'the callback');
    expect(await service.temporal.workflow.getHandle(orderWorkflowId(orderId)).result()).toMatchObject({ status: 'finished' });
    await expectChargedOnce(service, orderId);
  });
});

// Two processes share the database, so this needs PostgreSQL (the CI leg sets DATABASE_URL).
describeNeeding('workerProcess', 'a worker process killed with SIGKILL (PostgreSQL)', () => {
  let service: TestService;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    service = await startService({ engine: 'postgres', inProcessWorker: false });
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await service?.close();
  });

  const startWorkerProcess = () => startWorker(service, children);

  it('the order finishes on the next worker and is charged exactly once', async () => {
    const first = await startWorkerProcess();
    const { token } = await service.createAccount(10);
    const { orderId } = await placeOrder(service, { token, fields: englishAudio(media), callbackUrl: receiver.url });
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    await startWorkerProcess();
    const done = await service.complete(orderId, 'a.txt', 'Finished after a crash.');
    expect(done.body).toEqual({ order_id: orderId, status: 'finished' });
    await waitFor(() => receiver.received.some((c) => c.fields.order_id === String(orderId)), 'the callback');
    await expectChargedOnce(service, orderId);
  });
});

describe('a live order while no worker runs (PGlite)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ payment: { windowMs: 1000, graceMs: 1000 } });
  });
  afterAll(() => service?.close());

  it('answers 503 naming the order, and never charges it later', async () => {
    const { accountId, token } = await service.createAccount(10);
    await service.stopWorker();
    const started = Date.now();
    const res = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: media.audio(60), language: 'english' });
    expect(res.status).toBe(503);
    const orderId = Number(/^order (\d+) was not confirmed within 2 seconds/.exec(res.body.error)?.[1]);
    expect(res.body.error).toContain(`it is charged only if GET /api/v4/orders/${orderId} shows it`);
    expect(Date.now() - started).toBeLessThan(10_000);

    await service.startWorker(); // the workflow now sees the update after its payment window
    const result = await service.temporal.workflow.getHandle(orderWorkflowId(orderId)).result();
    expect(result).toEqual({ status: 'payment_failed', qualityCheck: 'none' });
    const entries = await service.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId));
    expect(entries.map((e) => e.kind)).toEqual(['topup']);
    expect((await service.get(`/api/v4/orders/${orderId}?api_token=${token}&mode=live`)).body.error).toBe(`order_id: order ${orderId} not found`);
  });
});

describe('a worker back after the payment window, while the API still waits (PGlite)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ payment: { windowMs: 1000, graceMs: 6000 } });
  });
  afterAll(() => service?.close());

  it("answers 503 with Retry-After, not the caller's 400: nothing was charged and nothing was wrong with the request", async () => {
    const { accountId, token } = await service.createAccount(10);
    await service.stopWorker();
    const placing = service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: media.audio(60), language: 'english' });
    await new Promise((r) => setTimeout(r, 2000)); // past the 1-second window, inside the API's wait
    await service.startWorker();
    const res = await placing;
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body).toMatchObject({
      mode: 'live',
      status: 'error',
      error: expect.stringMatching(/^order \d+ was not paid in time; nothing was charged: .*place it again$/),
    });
    const entries = await service.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId));
    expect(entries.map((e) => e.kind)).toEqual(['topup']);
  });

  it("refuses the same way when the workflow closed unpaid between two of the API's asks, or refused the charge itself", async () => {
    const { accountId } = await service.createAccount(10);
    const orderId = await nextOrderId(service.database.db);
    const input = liveTranscriptionInput({ orderId, accountId, url: media.audio(60) }, { payBy: new Date(Date.now() - 1000) });
    // Started after its window: the update's validator refuses to begin the charge.
    await expect(startAndPayOrder(service.temporal, service.taskQueue, input, 20_000)).rejects.toThrow(PaymentExpiredError);
    const handle = service.temporal.workflow.getHandle(orderWorkflowId(orderId));
    expect(await handle.result()).toMatchObject({ status: 'payment_failed' });
    // The API asking again once the workflow has closed (the server answers "workflow execution
    // already completed"): the same refusal, not a fault.
    const asked = retryCharge(handle, { orderId, placement: 'the-first-ask', waitMs: 20_000 }, () => true);
    await expect(asked).rejects.toThrow(PaymentExpiredError);
    await expect(asked).rejects.toThrow(`order ${orderId} was not paid in time; nothing was charged`);
    const entries = await service.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId));
    expect(entries.map((e) => e.kind)).toEqual(['topup']);
  });
});
