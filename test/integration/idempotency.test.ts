// Idempotency keys on order creation, and refused orders that leave nothing open.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding, describeOnEachDatabase } from '../helpers/legs.js';
import { and, eq } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startHeldMediaServer } from '../helpers/heldMediaServer.js';
import { freePort, waitFor } from '../helpers/net.js';
import { startRoleProcess } from '../helpers/workerProcess.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';
import { accounts, idempotencyKeys, ledgerEntries } from '../../src/db/schema.js';
import { topUpWallet } from '../../src/db/accounts.js';
import { orderWorkflowId, SEARCH_ATTRIBUTES } from '../../src/contracts/orders.js';

async function postForm(baseUrl: string, path: string, fields: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    headers,
    body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, bytes, body: JSON.parse(bytes.toString('utf8')), headers: response.headers };
}

describeOnEachDatabase('idempotency keys', (engine) => {
  let service: TestService;
  let media: MediaServer;
  beforeAll(async () => {
    [service, media] = await Promise.all([startService({ engine }), startMediaServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  const balanceOf = async (accountId: number) => (await service.database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!.balanceCents;
  const chargesOf = async (accountId: number) =>
    await service.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.kind, 'charge')));
  const order = (token: string, extra: Record<string, unknown> = {}) => ({
    api_token: token,
    mode: 'live',
    url: media.audio(60),
    language: 'english',
    ...extra,
  });

  it('the same key twice returns the first answer byte for byte and charges once', async () => {
    const { accountId, token } = await service.createAccount(10);
    const first = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token), { 'idempotency-key': 'order-a' });
    const again = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token), { 'idempotency-key': 'order-a' });
    expect(first.status).toBe(200);
    expect(first.body.order_id).toEqual(expect.any(Number));
    expect(again.status).toBe(200);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(await chargesOf(accountId)).toHaveLength(1);
    expect(await balanceOf(accountId)).toBe(1000 - 125);
  });

  it('the key as a field works like the header, and the two must agree', async () => {
    const { accountId, token } = await service.createAccount(10);
    const first = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token, { idempotency_key: 'field-key' }));
    const again = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token), { 'idempotency-key': 'field-key' });
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(await chargesOf(accountId)).toHaveLength(1);
    const disagree = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token, { idempotency_key: 'x' }), { 'idempotency-key': 'y' });
    expect(disagree.status).toBe(400);
    expect(disagree.body).toEqual({ mode: 'live', status: 'error', error: 'idempotency_key: the Idempotency-Key header and the idempotency_key field differ' });
    const tooLong = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token), { 'idempotency-key': 'k'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe('idempotency_key: must be 1 to 255 characters');
    const longest = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token), { 'idempotency-key': 'k'.repeat(255) });
    expect(longest.status).toBe(200);
  });

  it('the same key with other parameters is a 400 naming the key, and charges nothing more', async () => {
    const { accountId, token } = await service.createAccount(10);
    await postForm(service.baseUrl, '/api/v4/transcriptions', order(token), { 'idempotency-key': 'order-b' });
    const other = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token, { language: 'french' }), { 'idempotency-key': 'order-b' });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({
      mode: 'live',
      status: 'error',
      error: 'idempotency_key: this key was already used with other parameters; use a new key for a new order',
    });
    expect(await chargesOf(accountId)).toHaveLength(1);
  });

  it('an error answer is kept too: the same key gets the same error after a top-up', async () => {
    const { accountId, token } = await service.createAccount(1);
    const first = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token), { 'idempotency-key': 'poor' });
    expect(first.status).toBe(400);
    expect(first.body.error).toMatch(/^insufficient funds/);
    await topUpWallet(service.database.db, accountId, 10_000);
    const again = await postForm(service.baseUrl, '/api/v4/transcriptions', order(token), { 'idempotency-key': 'poor' });
    expect(again.status).toBe(400);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(await chargesOf(accountId)).toHaveLength(0);
  });

  it('while the first request with a key is in flight, the same key gets 409 with the error object; one charge', async () => {
    const { accountId, token } = await service.createAccount(10);
    // The first request's media fetch waits until released: that request is in flight for certain.
    const held = await startHeldMediaServer();
    try {
      const fields = order(token, { url: held.audio(60) });
      const send = () => postForm(service.baseUrl, '/api/v4/transcriptions', fields, { 'idempotency-key': 'burst' });
      const first = send();
      await waitFor(() => held.waiting === 1, 'the first request to be fetching its media');
      // Released before the live media deadline (2 s) ends the first request's fetch.
      const busy = await Promise.all(Array.from({ length: 4 }, send)).finally(() => held.release());
      for (const r of busy) {
        expect(r.status).toBe(409);
        expect(r.body).toEqual({
          mode: 'live',
          status: 'error',
          error: 'idempotency_key: a request with this key is still in progress; retry in a few seconds',
        });
      }
      // They were answered from the key alone: no second fetch, nothing charged yet.
      expect(held.requests).toBe(1);
      const answered = await first;
      expect(answered.status).toBe(200);
      expect(answered.body).toMatchObject({ mode: 'live', status: 'success', order_id: expect.any(Number), order_total: 1.25, in_wallet: 8.75 });
      expect(await chargesOf(accountId)).toHaveLength(1);
      // Once answered, every retry gets that answer, concurrent or not, and nothing more is charged.
      const later = await Promise.all(Array.from({ length: 4 }, send));
      for (const r of later) expect(r.bytes.equals(answered.bytes)).toBe(true);
      expect(held.requests).toBe(1);
      expect(await chargesOf(accountId)).toHaveLength(1);
      expect(await balanceOf(accountId)).toBe(1000 - 125);
    } finally {
      await held.close();
    }
  });

  it('keys belong to an account: another account may use the same key', async () => {
    const a = await service.createAccount(10);
    const b = await service.createAccount(10);
    const first = await postForm(service.baseUrl, '/api/v4/transcriptions', order(a.token), { 'idempotency-key': 'shared' });
    const second = await postForm(service.baseUrl, '/api/v4/transcriptions', order(b.token), { 'idempotency-key': 'shared' });
    expect(second.status).toBe(200);
    expect(second.body.order_id).not.toBe(first.body.order_id);
  });

  it('a live order the wallet clearly cannot pay starts no workflow; one refused by the charge closes payment_failed', async () => {
    const { accountId, token } = await service.createAccount(1.25);
    const refused = await Promise.all(Array.from({ length: 5 }, () => placeOrder(service, { token, fields: englishAudio(media, 600), expectStatus: 400 })));
    expect(refused.every((r) => /^insufficient funds/.test(r.body.error))).toBe(true);
    // Two orders race for a wallet that pays one: both pass the early check, the charge refuses one.
    const raced = await Promise.all([service.post('/api/v4/transcriptions', order(token)), service.post('/api/v4/transcriptions', order(token))]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 400]);
    const query = `${SEARCH_ATTRIBUTES.accountId.name} = ${accountId} AND TaskQueue = '${service.taskQueue}'`;
    const workflows = await waitFor(async () => {
      const list = [];
      for await (const wf of service.temporal.workflow.list({ query })) list.push(wf);
      const refusedOne = list.find((wf) => wf.workflowId !== orderWorkflowId(raced.find((r) => r.status === 200)!.body.order_id));
      // Visibility is eventually consistent: wait until it shows both orders past awaiting_payment.
      const settled = list.every((wf) => wf.typedSearchAttributes.get(SEARCH_ATTRIBUTES.status) !== 'awaiting_payment');
      return list.length === 2 && refusedOne?.status.name === 'COMPLETED' && settled ? list : undefined;
    }, 'the raced orders in visibility, both past awaiting_payment');
    const statuses = workflows.map((wf) => wf.typedSearchAttributes.get(SEARCH_ATTRIBUTES.status)).sort();
    expect(statuses).toEqual(['paid', 'payment_failed']);
  });
});

describeNeeding('workerProcess', 'a retry after the API was killed between the charge and its answer', () => {
  let service: TestService;
  let media: MediaServer;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    [service, media] = await Promise.all([startService({ engine: 'postgres', inProcessWorker: false }), startMediaServer()]);
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all([service?.close(), media?.close()]);
  });

  it('returns the order that was charged, charged once', async () => {
    const { accountId, token } = await service.createAccount(10);
    const port = await freePort();
    const api = await startRoleProcess(service, 'api', children, { PORT: String(port) });

    // No worker runs yet, so the charge cannot happen before the API is killed.
    const fields = { api_token: token, mode: 'live', url: media.audio(60), language: 'english' };
    const lost = postForm(`http://127.0.0.1:${port}`, '/api/v4/transcriptions', fields, { 'idempotency-key': 'lost-answer' }).catch((err: Error) => err);
    const orderId = await waitFor(async () => {
      const [row] = await service.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'lost-answer'));
      return row?.orderId ?? undefined;
    }, 'the order id of the key');
    await waitFor(
      async () =>
        service.temporal.workflow
          .getHandle(orderWorkflowId(orderId))
          .describe()
          .then(
            () => true,
            () => false,
          ),
      'the order workflow',
    );
    api.kill('SIGKILL');
    expect(await lost).toBeInstanceOf(Error);

    // The worker comes back and charges; the customer, who never got an answer, retries.
    await service.startWorker();
    const retried = await waitFor(
      async () => {
        const res = await postForm(service.baseUrl, '/api/v4/transcriptions', fields, { 'idempotency-key': 'lost-answer' });
        return res.status === 409 ? undefined : res;
      },
      'an answer to the retry',
      60_000,
    );
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ mode: 'live', status: 'success', order_id: orderId, order_total: 1.25, in_wallet: 8.75, seconds: 60 });
    expect(await chargesOf()).toHaveLength(1);
    const again = await postForm(service.baseUrl, '/api/v4/transcriptions', fields, { 'idempotency-key': 'lost-answer' });
    expect(again.bytes.equals(retried.bytes)).toBe(true);

    async function chargesOf() {
      return service.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.kind, 'charge')));
    }
  });
});
