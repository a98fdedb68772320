// The proofreading hand-off: a transcript too poor to correct is refunded, or with
// auto_retranscribe replaced by a human transcription order (a child workflow with its own id,
// record and callbacks). Every money movement happens once, also across worker restarts.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase, describeNeeding } from '../helpers/legs.js';
import { eq } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { docxOf, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { startWorkerProcess as startWorker } from '../helpers/workerProcess.js';
import { recordHistory } from '../helpers/histories.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { accounts, ledgerEntries, orders } from '../../src/db/schema.js';
import { orderWorkflowId, statusQuery } from '../../src/contracts/orders.js';

let media: MediaServer;
let docs: DocumentServer;
let receiver: CallbackReceiver;
let transcriptUrl: string;
beforeAll(async () => {
  [media, docs, receiver] = await Promise.all([startMediaServer(), startDocumentServer(), startCallbackReceiver()]);
  transcriptUrl = docs.serve('/ai.docx', await docxOf(['Speaker one: this transcript is poor.', 'It misses most words.']));
});
afterAll(async () => {
  await Promise.all([media?.close(), docs?.close(), receiver?.close()]);
});

// 120 s: proofreading at 5 days is $0.75/min → $1.50; human transcription $1.25/min → $2.50.
const PROOFREADING_CENTS = 150;
const HUMAN_CENTS = 250;

function helpers(get: () => TestService) {
  const callbacksFor = (orderId: number) => receiver.received.filter((c) => c.fields.order_id === String(orderId));
  return {
    callbacksFor,
    balance: async (accountId: number) => (await get().database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!.balanceCents,
    ledger: async (accountId: number) =>
      (await get().database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId)).orderBy(ledgerEntries.id)).map((e) => [
        e.kind,
        e.orderId,
        e.amountCents,
      ]),
    place: async (token: string, autoRetranscribe: boolean) => {
      const { orderId, body } = await placeOrder(get(), {
        token,
        path: 'transcription-proofreadings',
        fields: {
          audio_url: media.audio(120),
          transcription_url: transcriptUrl,
          language: 'english',
          auto_retranscribe: autoRetranscribe,
          comment: 'names: Ann',
        },
        callbackUrl: `${receiver.url}/proofreading`,
      });
      expect(body.order_total).toBe(PROOFREADING_CENTS / 100);
      return orderId;
    },
    firstCallback: (orderId: number) => waitFor(() => callbacksFor(orderId)[0], `the callback of order ${orderId}`),
  };
}

describeOnEachDatabase('proofreading hand-off', (engine) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ engine });
  });
  afterAll(() => service?.close());
  const h = helpers(() => service);

  it('keeps the supplied transcript for the proofreader', async () => {
    const { token } = await service.createAccount(10);
    const id = await h.place(token, false);
    const shown = await service.ops('GET', `/ops/orders/${id}`);
    expect(shown.body).toMatchObject({ status: 'paid', assignee: 'operator', result_kinds: ['proofread_transcription'], working_on: 'operator' });
    const kept = await service.database.db.select().from(orders).where(eq(orders.id, id));
    expect(kept[0]!.inputFiles.transcription?.fileName).toBe('document.docx');
  });

  it('without auto_retranscribe, a rejected transcript is refunded', async () => {
    const { accountId, token } = await service.createAccount(10);
    const id = await h.place(token, false);
    const rejected = await service.ops('POST', `/ops/orders/${id}/reject-transcript`, {});
    expect(rejected.body).toEqual({ order_id: id, status: 'refunded' });
    expect((await h.firstCallback(id)).fields).toEqual({
      mode: 'live',
      order_id: String(id),
      status: 'refunded',
      was_retranscribed: 'false',
      retranscribed_order_id: '',
      proofread_transcription_url: '',
    });
    expect(await h.balance(accountId)).toBe(1000);
    expect(await h.ledger(accountId)).toEqual([
      ['topup', null, 1000],
      ['charge', id, -PROOFREADING_CENTS],
      ['refund', id, PROOFREADING_CENTS],
    ]);
    await recordHistory(service, id, 'transcription_proofreading-rejected');
  });

  it('with auto_retranscribe, the fee is refunded and a human transcription order replaces it', async () => {
    const { accountId, token } = await service.createAccount(10);
    const id = await h.place(token, true);
    const rejected = await service.ops('POST', `/ops/orders/${id}/reject-transcript`, {});
    const childId = rejected.body.retranscribed_order_id as number;
    expect(rejected.body).toEqual({ order_id: id, status: 'retranscribed', retranscribed_order_id: childId });
    expect(childId).toBeGreaterThan(id);

    expect((await h.firstCallback(id)).fields).toEqual({
      mode: 'live',
      order_id: String(id),
      status: 'refunded',
      was_retranscribed: 'true',
      retranscribed_order_id: String(childId),
      proofread_transcription_url: '',
    });
    const parent = await service.get(`/api/v4/orders/${id}?api_token=${token}&mode=live`);
    expect(parent.body.data).toMatchObject({
      status: 'retranscribed',
      was_retranscribed: true,
      retranscribed_order_id: childId,
      proofread_transcription_url: null,
    });
    const child = await service.get(`/api/v4/orders/${childId}?api_token=${token}&mode=live`);
    expect(child.body.data).toMatchObject({
      type: 'transcriptions',
      status: 'paid',
      price: HUMAN_CENTS / 100,
      seconds: 120,
      language: 'english',
      comment: 'names: Ann',
    });
    expect(await h.balance(accountId)).toBe(1000 - HUMAN_CENTS);
    expect(await h.ledger(accountId)).toEqual([
      ['topup', null, 1000],
      ['charge', id, -PROOFREADING_CENTS],
      ['refund', id, PROOFREADING_CENTS],
      ['charge', childId, -HUMAN_CENTS],
    ]);

    // The child is an order of its own: a person finishes it, and it calls back to the same URL.
    expect((await service.ops('GET', '/ops/orders/pending?product=transcription')).body.orders.map((o: { order_id: number }) => o.order_id)).toContain(childId);
    expect((await service.complete(childId, 'a.txt', 'Ann: The full transcript.')).body).toEqual({ order_id: childId, status: 'finished' });
    const childCallback = await h.firstCallback(childId);
    expect(childCallback.path).toBe('/proofreading');
    expect(Object.keys(childCallback.fields).sort()).toEqual(['language', 'mode', 'order_id', 'transcription_url']);
    expect(await h.balance(accountId)).toBe(1000 - HUMAN_CENTS);
    await recordHistory(service, id, 'transcription_proofreading-retranscribed');
    await recordHistory(service, childId, 'transcription-retranscription');
  });

  it('when the wallet cannot pay the human rate, the order is only refunded', async () => {
    // $2.00: after the $1.50 refund the wallet holds $2.00 again, short of $2.50.
    const { accountId, token } = await service.createAccount(2);
    const id = await h.place(token, true);
    const rejected = await service.ops('POST', `/ops/orders/${id}/reject-transcript`, {});
    expect(rejected.body).toEqual({ order_id: id, status: 'refunded' });
    expect((await h.firstCallback(id)).fields).toMatchObject({ status: 'refunded', was_retranscribed: 'false', retranscribed_order_id: '' });
    expect(await h.balance(accountId)).toBe(200);
    expect(await h.ledger(accountId)).toEqual([
      ['topup', null, 200],
      ['charge', id, -PROOFREADING_CENTS],
      ['refund', id, PROOFREADING_CENTS],
    ]);
  });

  it('refuses reject-transcript for other products and settled orders', async () => {
    const { token } = await service.createAccount(10);
    const placed = await placeOrder(service, { token, fields: englishAudio(media) });
    expect((await service.ops('POST', `/ops/orders/${placed.body.order_id}/reject-transcript`, {})).body.error).toBe(
      `order ${placed.body.order_id} is not a proofreading order`,
    );
    const id = await h.place(token, false);
    await service.ops('POST', `/ops/orders/${id}/refund`, {});
    await waitFor(() => h.callbacksFor(id).length > 0, 'the refund callback');
    expect((await service.ops('POST', `/ops/orders/${id}/reject-transcript`, {})).status).toBe(400);
  });
});

describe('the hand-off across a worker restart (in process, PGlite)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service?.close());
  const h = helpers(() => service);

  it('a rejection sent while no worker runs is carried out once when one returns', async () => {
    const { accountId, token } = await service.createAccount(10);
    const id = await h.place(token, true);
    await service.stopWorker();
    const rejecting = service.ops('POST', `/ops/orders/${id}/reject-transcript`, {});
    await new Promise((r) => setTimeout(r, 500));
    await service.startWorker();
    const childId = (await rejecting).body.retranscribed_order_id as number;
    expect(childId).toEqual(expect.any(Number));
    await h.firstCallback(id);
    expect(await h.ledger(accountId)).toEqual([
      ['topup', null, 1000],
      ['charge', id, -PROOFREADING_CENTS],
      ['refund', id, PROOFREADING_CENTS],
      ['charge', childId, -HUMAN_CENTS],
    ]);
    expect(await service.temporal.workflow.getHandle(orderWorkflowId(childId)).query(statusQuery)).toMatchObject({ status: 'paid', workingOn: 'operator' });
  });
});

describeNeeding('workerProcess', 'the hand-off when the worker process is killed (PostgreSQL)', () => {
  let service: TestService;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    service = await startService({ engine: 'postgres', inProcessWorker: false });
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await service?.close();
  });
  const h = helpers(() => service);

  const startWorkerProcess = () => startWorker(service, children);

  it('SIGKILL as the hand-off commits: the next worker starts the child, money moves once', async () => {
    const first = await startWorkerProcess();
    const { accountId, token } = await service.createAccount(10);
    const id = await h.place(token, true);
    const rejecting = service.ops('POST', `/ops/orders/${id}/reject-transcript`, {});
    // Kill the worker the moment the hand-off's transaction is visible.
    await waitFor(async () => (await service.database.db.select().from(orders).where(eq(orders.parentOrderId, id))).length > 0, 'the child order row', 30_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    await startWorkerProcess();
    const childId = (await rejecting).body.retranscribed_order_id as number;
    expect(childId).toEqual(expect.any(Number));
    await h.firstCallback(id);
    expect(await h.ledger(accountId)).toEqual([
      ['topup', null, 1000],
      ['charge', id, -PROOFREADING_CENTS],
      ['refund', id, PROOFREADING_CENTS],
      ['charge', childId, -HUMAN_CENTS],
    ]);
    // The child confirms its charge when it starts, on the new worker.
    await waitFor(
      async () => (await service.temporal.workflow.getHandle(orderWorkflowId(childId)).query(statusQuery)).status === 'paid',
      'the child order paid',
    );
    expect((await service.complete(childId, 'a.txt', 'Done after a crash.')).body).toEqual({ order_id: childId, status: 'finished' });
    await h.firstCallback(childId);
  });
});
