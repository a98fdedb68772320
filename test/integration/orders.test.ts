// Operation 1 end to end: HTTP → Temporal workflow → database → callback receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { eq } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { accounts, ledgerEntries, orders } from '../../src/db/schema.js';
import { callbackAttemptsOf } from '../../src/db/orders.js';
import { orderWorkflowId, SEARCH_ATTRIBUTES, statusQuery } from '../../src/contracts/orders.js';
import { getTask } from '../../src/db/tasks.js';
import { patchMarkerIds } from '../helpers/histories.js';
import { PATCHES } from '../../src/workflows/patches.js';

describeOnEachDatabase('human transcription orders', (engine) => {
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    [service, media, receiver] = await Promise.all([startService({ engine }), startMediaServer(), startCallbackReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), receiver?.close()]);
  });

  const balanceOf = async (accountId: number) => (await service.database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!.balanceCents;
  const callbacksFor = (orderId: number) => receiver.received.filter((c) => c.fields.order_id === String(orderId));

  it('test mode prices the order and changes nothing', async () => {
    const { accountId, token } = await service.createAccount(50);
    const { body } = await placeOrder(service, { token, mode: 'test', fields: englishAudio(media, 120) });
    expect(body).toMatchObject({ mode: 'test', status: 'success', order_total: 2.5, seconds: 120, in_wallet: 50 });
    expect(body).not.toHaveProperty('order_id');
    expect(body.delivery_estimate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await balanceOf(accountId)).toBe(5000);
    expect(await service.database.db.select().from(orders).where(eq(orders.accountId, accountId))).toHaveLength(0);
  });

  it('live mode charges once and answers with the order id and the new balance', async () => {
    const { accountId, token } = await service.createAccount(20);
    const res = await placeOrder(service, { token, fields: { ...englishAudio(media, 600), turnaround_time: '1_days', comment: 'two speakers: Ann, Bo' } });
    expect(res.body).toMatchObject({ mode: 'live', status: 'success', order_total: 20, seconds: 600, in_wallet: 0 });
    expect(res.body.order_id).toEqual(expect.any(Number));
    expect(await balanceOf(accountId)).toBe(0);
    const ledger = await service.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, res.body.order_id));
    expect(ledger.map((e) => [e.kind, e.amountCents])).toEqual([['charge', -2000]]);
    const record = await service.get(`/api/v4/orders/${res.body.order_id}?api_token=${token}&mode=live`);
    expect(record.body.data).toMatchObject({
      id: res.body.order_id,
      type: 'transcriptions',
      price: 20,
      turnaround_time: 'days_1',
      comment: 'two speakers: Ann, Bo',
      finished_at: null,
      transcription_url: null,
    });
  });

  it('insufficient funds is a 400 error object and nothing is charged', async () => {
    const { accountId, token } = await service.createAccount(1);
    const res = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: media.audio(300), language: 'english' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ mode: 'live', status: 'error', error: 'insufficient funds: the order costs $6.25 and the wallet holds $1.00' });
    expect(await balanceOf(accountId)).toBe(100);
    expect(await service.database.db.select().from(orders).where(eq(orders.accountId, accountId))).toHaveLength(0);
  });

  it('20 concurrent orders on a wallet funded for 5: exactly 5 succeed', async () => {
    const { accountId, token } = await service.createAccount(5 * 1.25);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: media.audio(60), language: 'english' })),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(5);
    expect(results.filter((r) => r.status === 400).every((r) => /insufficient funds/.test(r.body.error))).toBe(true);
    expect(new Set(ok.map((r) => r.body.order_id)).size).toBe(5);
    expect(await balanceOf(accountId)).toBe(0);
    const charges = await service.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId));
    expect(charges.filter((e) => e.kind === 'charge')).toHaveLength(5);
  });

  it('complete → finished, and the receiver gets exactly the spec fields once it answers ok', async () => {
    const { token } = await service.createAccount(10);
    const { orderId } = await placeOrder(service, {
      token,
      fields: { url: media.audio(60), language: 'french', turnaround_time: '12_hours' },
      callbackUrl: `${receiver.url}/hook`,
    });
    const done = await service.complete(orderId, 'transcript.txt', 'Ann: Bonjour à tous.\n\nBo: Merci.');
    expect(done.body).toEqual({ order_id: orderId, status: 'finished' });
    const [callback] = await waitFor(() => callbacksFor(orderId).length > 0 && callbacksFor(orderId), 'the callback');
    expect(callback!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(Object.keys(callback!.fields).sort()).toEqual(['language', 'mode', 'order_id', 'transcription_url']);
    expect(callback!.fields).toMatchObject({ mode: 'live', order_id: String(orderId), language: 'french' });
    expect(callback!.fields.transcription_url).toBe(`${service.baseUrl}/api/v4/orders/${orderId}/files/transcription?api_token=${token}`);

    const text = await service.get(`/api/v4/orders/${orderId}/files/transcription?api_token=${token}&format=text`);
    expect(text.body).toBe('Ann: Bonjour à tous.\n\nBo: Merci.\n');
    const record = await service.get(`/api/v4/orders/${orderId}?api_token=${token}&mode=live`);
    // French is in group T35: 12_hours was raised to 3_days, and the record says so.
    expect(record.body.data).toMatchObject({ status: 'finished', turnaround_time: 'days_3', transcription_url: callback!.fields.transcription_url });
    expect(record.body.data.finished_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // Recorded once the receiver's answer is in, which may be just after the receiver has it.
    const attempts = await waitFor(async () => {
      const rows = await callbackAttemptsOf(service.database.db, orderId);
      return rows.length > 0 ? rows : undefined;
    }, 'the recorded attempt');
    expect(attempts.map((a) => [a.event, a.outcome, a.statusCode])).toEqual([['finished', 'ok', 200]]);
  });

  it('uses the account-wide callback URL when the order has none, and sends none when neither exists', async () => {
    const withHook = await service.createAccount(10, { callbackUrl: `${receiver.url}/account-hook` });
    const a = await placeOrder(service, { token: withHook.token, fields: englishAudio(media, 30) });
    await service.complete(a.body.order_id, 't.txt', 'Hello.');
    const [callback] = await waitFor(() => callbacksFor(a.body.order_id).length > 0 && callbacksFor(a.body.order_id), 'the account-wide callback');
    expect(callback!.path).toBe('/account-hook');

    const without = await service.createAccount(10);
    const b = await placeOrder(service, { token: without.token, fields: englishAudio(media, 30) });
    await service.complete(b.body.order_id, 't.txt', 'Hello.');
    const handle = service.temporal.workflow.getHandle(orderWorkflowId(b.body.order_id));
    expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
    expect(await callbackAttemptsOf(service.database.db, b.body.order_id)).toEqual([]);
  });

  it("keeps no stack traces in a waiting order's workflow (src/temporal/workflowBundle.ts)", async () => {
    const { token } = await service.createAccount(10);
    const placed = await placeOrder(service, { token, fields: englishAudio(media, 30) });
    const handle = service.temporal.workflow.getHandle(orderWorkflowId(placed.body.order_id));
    expect((await handle.query(statusQuery)).status).toBe('paid');
    // With the SDK's stack traces on, this lists each waiting promise's frames ("at orderWorkflow (…)").
    expect(await handle.query<string>('__stack_trace')).not.toMatch(/\bat \S+/);
  });

  it('records the markers of the patches since 1.0 a new order passes, and no other (src/workflows/patches.ts)', async () => {
    const { token } = await service.createAccount(10);
    const placed = await placeOrder(service, { token, fields: englishAudio(media, 30) });
    const orderId = placed.body.order_id as number;
    await waitFor(async () => (await getTask(service.database.db, `task-${orderId}-work`))?.status === 'waiting', 'the work task');
    const history = await service.temporal.workflow.getHandle(orderWorkflowId(orderId)).fetchHistory();
    // Its draft was asked for on the drafts' queue: the one patch since 1.0.
    expect(patchMarkerIds(history)).toEqual([PATCHES.draftsQueue.id]);
    // The order's status, upserted at payment, is the only search attribute it writes; the SDK
    // writes the patch's (TemporalChangeVersion) beside it.
    const upserted = (history.events ?? []).flatMap((e) => Object.keys(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}));
    expect(upserted).toEqual(['OrderStatus', 'TemporalChangeVersion']);
  });

  it('refund restores the wallet and tells the receiver', async () => {
    const { accountId, token } = await service.createAccount(10);
    const placed = await placeOrder(service, { token, fields: englishAudio(media, 120), callbackUrl: receiver.url });
    expect(await balanceOf(accountId)).toBe(750);
    const refund = await service.ops('POST', `/ops/orders/${placed.body.order_id}/refund`, { reason: 'audio is silent' });
    expect(refund.body).toEqual({ order_id: placed.body.order_id, status: 'refunded' });
    expect(await balanceOf(accountId)).toBe(1000);
    const [callback] = await waitFor(() => callbacksFor(placed.body.order_id).length > 0 && callbacksFor(placed.body.order_id), 'the refund callback');
    expect(callback!.fields).toEqual({ mode: 'live', status: 'refunded', order_id: String(placed.body.order_id) });
    const again = await service.ops('POST', `/ops/orders/${placed.body.order_id}/refund`, {});
    expect(again.status).toBe(400);
    expect(await balanceOf(accountId)).toBe(1000);
  });

  it('cancel sends the canceled callback only to accounts that have it enabled', async () => {
    const recent = await service.createAccount(10, { createdAt: new Date('2026-03-30T00:00:00Z') });
    const old = await service.createAccount(10, { createdAt: new Date('2026-03-29T23:59:59Z') });
    const placedRecent = await placeOrder(service, { token: recent.token, fields: englishAudio(media), callbackUrl: receiver.url });
    const placedOld = await placeOrder(service, { token: old.token, fields: englishAudio(media), callbackUrl: receiver.url });
    for (const placed of [placedRecent, placedOld]) {
      const res = await service.ops('POST', `/ops/orders/${placed.body.order_id}/cancel`);
      expect(res.body).toEqual({ order_id: placed.body.order_id, status: 'canceled' });
    }
    const [callback] = await waitFor(
      () => callbacksFor(placedRecent.body.order_id).length > 0 && callbacksFor(placedRecent.body.order_id),
      'the canceled callback',
    );
    expect(callback!.fields).toEqual({ mode: 'live', status: 'canceled', order_id: String(placedRecent.body.order_id) });
    await service.temporal.workflow.getHandle(orderWorkflowId(placedOld.body.order_id)).result();
    expect(callbacksFor(placedOld.body.order_id)).toEqual([]);
    expect(await balanceOf(old.accountId)).toBe(1000);
    const record = await service.get(`/api/v4/orders/${placedOld.body.order_id}?api_token=${old.token}&mode=live`);
    expect(record.body.data.status).toBe('canceled');
  });

  it('operator mistakes are clear errors: completing twice, unknown orders, wrong kinds', async () => {
    const { token } = await service.createAccount(10);
    const placed = await placeOrder(service, { token, fields: englishAudio(media) });
    const orderId = placed.body.order_id;
    const upload = await service.ops('PUT', '/ops/files', undefined, Buffer.from('text'));
    const wrongKind = await service.ops('POST', `/ops/orders/${orderId}/complete`, {
      files: [{ kind: 'subtitles', key: upload.body.key, file_name: 'a.txt' }],
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error).toBe('subtitles is not a result of this order (it delivers transcription)');
    expect((await service.complete(orderId, 'a.txt', 'Done.')).status).toBe(200);
    const twice = await service.complete(orderId, 'a.txt', 'Done again.');
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatch(new RegExp(`^order ${orderId} is finished`));
    const unknown = await service.ops('POST', '/ops/orders/999999/cancel');
    expect(unknown).toMatchObject({ status: 400, body: { error: 'order 999999 not found' } });
    const noAuth = await fetch(`${service.baseUrl}/ops/orders/pending`);
    expect(noAuth.status).toBe(401);
  });

  it('pending lists paid orders awaiting work', async () => {
    const { token } = await service.createAccount(10);
    const placed = await placeOrder(service, { token, fields: { ...englishAudio(media), comment: 'pending one' } });
    const pending = await service.ops('GET', '/ops/orders/pending?product=transcription');
    const mine = pending.body.orders.find((o: { order_id: number }) => o.order_id === placed.body.order_id);
    expect(mine).toMatchObject({ product: 'transcription', seconds: 60, params: { url: media.audio(60), comment: 'pending one', language: 'english' } });
    await service.ops('POST', `/ops/orders/${placed.body.order_id}/cancel`);
    const after = await service.ops('GET', '/ops/orders/pending');
    expect(after.body.orders.some((o: { order_id: number }) => o.order_id === placed.body.order_id)).toBe(false);
  });

  it('the workflow answers its status query and keeps the API token out of its history', async () => {
    const { token } = await service.createAccount(10);
    const placed = await placeOrder(service, { token, fields: englishAudio(media), callbackUrl: receiver.url });
    const handle = service.temporal.workflow.getHandle(orderWorkflowId(placed.body.order_id));
    expect(await handle.query(statusQuery)).toEqual({ status: 'paid', qualityCheck: 'none', workingOn: 'operator' });
    await service.complete(placed.body.order_id, 'a.txt', 'Done.');
    await handle.result();
    // Operators filter by these in the Temporal UI.
    const { typedSearchAttributes } = await handle.describe();
    expect([
      typedSearchAttributes.get(SEARCH_ATTRIBUTES.orderId),
      typedSearchAttributes.get(SEARCH_ATTRIBUTES.product),
      typedSearchAttributes.get(SEARCH_ATTRIBUTES.mode),
      typedSearchAttributes.get(SEARCH_ATTRIBUTES.status),
    ]).toEqual([placed.body.order_id, 'transcription', 'live', 'finished']);
    const history = JSON.stringify(await handle.fetchHistory());
    expect(history).toContain('placeOrder');
    expect(history).not.toContain(token);
  });
});
