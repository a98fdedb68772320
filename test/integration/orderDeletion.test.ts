// Customers' data deleted when they say so (issue 53), through the started service, on each database:
// a finished AI order deleted through the API (every file it added to the data directory gone, its
// result and share-link URLs 404/410, its record kept for the bill with deleted_at and without its
// URL, its Temporal history no longer there to decode), an order in work refused and going on,
// another account's order unknown, `delete_after_seconds`, the account's rule, an order whose
// quality-check window is still open (closed first, the answer says so, nothing left to replay),
// an upload only deleted orders used going with them, and `order-ops delete`.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Client, WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, wavFile, type MediaServer } from '../helpers/mediaServer.js';
import { startEngineServer, verboseJson, type EngineServer } from '../helpers/engineServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { placeOrder } from '../helpers/orders.js';
import { WorkerSession } from '../helpers/workerSession.js';
import { recordHistory } from '../helpers/histories.js';
import { openAiCompatibleEngine } from '../../src/engines/openaiCompatible.js';
import { recognitionAligner } from '../../src/engines/aligners.js';
import { orderWorkflowId } from '../../src/contracts/orders.js';
import { orderDeletionWorkflowId } from '../../src/contracts/deletion.js';
import { accounts, callbackAttempts, orderBlobs, orders, uploads } from '../../src/db/schema.js';
import { getOrder } from '../../src/db/orders.js';

const SPOKEN: Array<[string, number, number]> = [
  ['Welcome', 0.0, 0.5],
  ['to', 0.5, 0.7],
  ['the', 0.7, 0.9],
  ['lighthouse.', 0.9, 1.6],
];
const COMMENT = 'Speakers: Wilhelmina Quarrington';

/** Every file under `dir`, by path. */
async function filesUnder(dir: string): Promise<Set<string>> {
  const found = new Set<string>();
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else found.add(path);
    }
  };
  await walk(dir);
  return found;
}

/** Every payload in a history. */
function payloadsIn(value: unknown, out: Payload[] = []): Payload[] {
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) return out;
  const metadata = (value as Payload).metadata;
  if (metadata && typeof metadata === 'object' && ArrayBuffer.isView(metadata.encoding)) out.push(value as Payload);
  else for (const v of Object.values(value)) payloadsIn(v, out);
  return out;
}

let media: MediaServer;
let engine: EngineServer;
let receiver: CallbackReceiver;
beforeAll(async () => {
  [media, engine, receiver] = await Promise.all([startMediaServer(), startEngineServer(), startCallbackReceiver()]);
  engine.behaviour = { kind: 'transcript', body: verboseJson(SPOKEN, { language: 'english' }) };
});
afterAll(async () => {
  await Promise.all([media?.close(), engine?.close(), receiver?.close()]);
});

describeOnEachDatabase("an order's data deleted", (databaseEngine) => {
  let service: TestService;
  /** The same service with every finished order picked for a quality check (its window stays open). */
  let checked: TestService;
  beforeAll(async () => {
    const speech = openAiCompatibleEngine({ baseUrl: engine.url, model: 'whisper-test' });
    [service, checked] = await Promise.all([
      startService({ engine: databaseEngine, engines: { speech, alignment: recognitionAligner(speech) } }),
      startService({ engine: databaseEngine, qualityCheckProbability: 1 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), checked?.close()]);
  });

  const record = (on: TestService, token: string, id: number) => on.get(`/api/v4/orders/${id}?api_token=${token}&mode=live`);
  const remove = (on: TestService, token: string, id: number, mode = 'live') =>
    fetch(`${on.baseUrl}/api/v4/orders/${id}?api_token=${token}&mode=${mode}`, { method: 'DELETE' }).then(async (res) => ({
      status: res.status,
      body: await res.json(),
    }));
  /** Decodes a history's payloads through the service's codec endpoint, as the Temporal UI does. */
  async function decodedHistory(on: TestService, workflowId: string): Promise<string> {
    const plain = new Client({ connection: on.temporal.connection, namespace: 'default' });
    const history = await plain.workflow.getHandle(workflowId).fetchHistory();
    const json = (p: Payload) => ({
      metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
      data: Buffer.from(p.data ?? []).toString('base64'),
    });
    const res = await fetch(`${on.baseUrl}/codec/decode`, {
      method: 'POST',
      headers: { authorization: `Bearer ${on.opsToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ payloads: payloadsIn(history).map(json) }),
    });
    const { payloads } = (await res.json()) as { payloads: Array<{ metadata: Record<string, string>; data?: string }> };
    return payloads
      .map((p) => {
        const payload = {
          metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
          data: Buffer.from(p.data ?? '', 'base64'),
        };
        return JSON.stringify(defaultPayloadConverter.fromPayload(payload));
      })
      .join('\n');
  }
  /** Until the history of `workflowId` is gone (the server deletes a closed one within seconds). */
  const historyGone = (on: TestService, workflowId: string) =>
    waitFor(
      () =>
        on.temporal.workflow
          .getHandle(workflowId)
          .describe()
          .then(
            () => false,
            (err: unknown) => err instanceof WorkflowNotFoundError,
          ),
      `the history of ${workflowId} to be deleted`,
      90_000,
    );

  it('a finished AI order: files, result and share URLs, history gone; the record kept for the bill', async () => {
    const { token } = await service.createAccount(20);
    const before = await filesUnder(join(service.dataDir, 'files'));
    const url = media.audio(60);
    const { orderId, body: placed } = await placeOrder(service, {
      token,
      path: 'ai-transcriptions',
      fields: { url, language: 'english', vocabulary: 'Quarrington, Wilhelmina' },
      callbackUrl: receiver.url,
    });
    const finished = await waitFor(async () => {
      const r = (await record(service, token, orderId)).body.data;
      return r.status === 'finished' && r;
    }, 'the AI order to finish');
    await service.temporal.workflow.getHandle(orderWorkflowId(orderId)).result();
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    await customer.request('GET', `/account/orders/${orderId}`);
    expect((await customer.request('POST', `/account/orders/${orderId}/share`, { expires_in_days: '' })).status).toBe(303);
    const link = service.baseUrl + /\/shared\/[\w-]{32}/.exec((await customer.request('GET', `/account/orders/${orderId}`)).text)![0];
    expect((await fetch(`${finished.transcription_url}&format=text`)).status).toBe(200);
    expect((await fetch(link)).status).toBe(200);
    expect(await decodedHistory(service, orderWorkflowId(orderId))).toContain(url);
    const added = [...(await filesUnder(join(service.dataDir, 'files')))].filter((f) => !before.has(f));
    expect(added.length).toBeGreaterThanOrEqual(2); // the kept media and the result at least
    expect((await getOrder(service.database.db, orderId))!.params).toMatchObject({ url, vocabulary: ['Quarrington', 'Wilhelmina'] });
    const deletedByCustomers = async () =>
      [...(await (await fetch(`${service.baseUrl}/metrics`)).text()).matchAll(/^orders_deleted_total\{[^}]*by="customer"[^}]*\} (\d+)$/gm)].reduce(
        (sum, m) => sum + Number(m[1]),
        0,
      );
    const countedBefore = await deletedByCustomers();

    const deleted = await remove(service, token, orderId);
    expect(deleted.status).toBe(200);
    expect(deleted.body.note).toBeUndefined(); // its workflow had ended: nothing to stop
    expect(deleted.body.data).toMatchObject({
      id: orderId,
      status: 'finished',
      price: placed.order_total,
      seconds: 60,
      paid_at: finished.paid_at,
      finished_at: finished.finished_at,
      deleted_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      transcription_url: null,
      captions_url: null,
    });
    for (const file of added) await expect(stat(file), file).rejects.toThrow();
    expect((await fetch(`${finished.transcription_url}&format=text`)).status).toBe(410);
    expect((await fetch(link)).status).toBe(404);
    expect((await fetch(`${link}/media`)).status).toBe(404);
    const row = (await getOrder(service.database.db, orderId))!;
    expect(row.params).toEqual({ language: 'english' }); // its URL and vocabulary gone
    expect(await deletedByCustomers()).toBe(countedBefore + 1);
    expect(row.inputFiles).toEqual({});
    expect(JSON.stringify(await service.database.db.select().from(callbackAttempts).where(eq(callbackAttempts.orderId, orderId)))).not.toContain(receiver.url);
    expect(await service.database.db.select().from(orderBlobs).where(eq(orderBlobs.orderId, orderId))).toEqual([]);
    await historyGone(service, orderWorkflowId(orderId));
    // Deleting again answers the same.
    const again = await remove(service, token, orderId);
    expect(again).toEqual({ status: 200, body: { data: deleted.body.data } });
    expect((await record(service, token, orderId)).body.data).toEqual(deleted.body.data);
  });

  it('refuses an order in work, naming its status, and the order goes on; another account reads no order', async () => {
    const { token } = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token, fields: { url: media.audio(30), language: 'english', comment: COMMENT } });
    const refused = await remove(service, token, orderId);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('the order is paid; its data can be deleted once it is finished, refunded or canceled');
    const other = await service.createAccount(20);
    const stranger = await remove(service, other.token, orderId);
    expect(stranger).toEqual({ status: 400, body: { mode: 'live', status: 'error', error: `order_id: order ${orderId} not found` } });
    expect((await remove(service, token, orderId, 'test')).status).toBe(400);
    expect((await service.complete(orderId, 'done.txt', 'Welcome.')).status).toBe(200);
    expect((await record(service, token, orderId)).body.data).toMatchObject({ status: 'finished', comment: COMMENT });
    expect((await getOrder(service.database.db, orderId))!.deletedAt).toBeNull();
  });

  it('`delete_after_seconds` deletes the data that long after the order settles; the record says when', async () => {
    const { token } = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token, fields: { url: media.audio(30), language: 'english', delete_after_seconds: 2 } });
    expect((await record(service, token, orderId)).body.data).toMatchObject({ delete_after_seconds: 2, delete_at: null });
    expect((await service.complete(orderId, 'done.txt', 'Welcome.')).status).toBe(200);
    const settled = await waitFor(async () => {
      const r = (await record(service, token, orderId)).body.data;
      return r.status === 'finished' && r;
    }, 'the order to finish');
    expect(Date.parse(`${settled.delete_at}Z`) - Date.parse(`${settled.finished_at}Z`)).toBe(2000);
    const gone = await waitFor(async () => (await record(service, token, orderId)).body.data.deleted_at, 'the data to be deleted', 60_000);
    if (databaseEngine === 'pglite') await recordHistory(service, orderId, 'order_deletion', orderDeletionWorkflowId(orderId));
    expect(Date.parse(`${gone}Z`)).toBeGreaterThanOrEqual(Date.parse(`${settled.delete_at}Z`));
    const placedBadly = await service.post('/api/v4/transcriptions', {
      api_token: token,
      mode: 'test',
      url: media.audio(30),
      language: 'english',
      delete_after_seconds: -1,
    });
    expect(placedBadly.body.error).toBe('delete_after_seconds: must be a whole number of seconds');
    const tooLong = await service.post('/api/v4/transcriptions', {
      api_token: token,
      mode: 'test',
      url: media.audio(30),
      language: 'english',
      delete_after_seconds: 10 ** 10,
    });
    expect(tooLong.body.error).toMatch(/^delete_after_seconds: is more than \d+ \(about ten years\)$/);
  });

  it("the account's rule applies to orders placed from then on", async () => {
    const { token, accountId } = await service.createAccount(20);
    const { orderId: before } = await placeOrder(service, { token, fields: { url: media.audio(30), language: 'english' } });
    await service.database.db.update(accounts).set({ deleteAfterDays: 30 }).where(eq(accounts.id, accountId));
    const { orderId: after } = await placeOrder(service, { token, fields: { url: media.audio(30), language: 'english' } });
    const { orderId: own } = await placeOrder(service, { token, fields: { url: media.audio(30), language: 'english', delete_after_seconds: 60 } });
    expect((await record(service, token, before)).body.data.delete_after_seconds).toBeUndefined();
    expect((await record(service, token, after)).body.data.delete_after_seconds).toBe(30 * 86_400);
    expect((await record(service, token, own)).body.data.delete_after_seconds).toBe(60);
  });

  it('an order whose quality-check window is still open: closed first, the answer says so, nothing left to replay', async () => {
    const { token } = await checked.createAccount(20);
    const { orderId } = await placeOrder(checked, { token, fields: { url: media.audio(30), language: 'english' }, callbackUrl: receiver.url });
    expect((await checked.complete(orderId, 'done.txt', 'Welcome.')).status).toBe(200);
    await waitFor(() => receiver.received.find((c) => c.fields.order_id === String(orderId)), 'the finished callback');
    const handle = checked.temporal.workflow.getHandle(orderWorkflowId(orderId));
    expect((await handle.describe()).status.name).toBe('RUNNING'); // the quality-check window
    const deleted = await remove(checked, token, orderId);
    expect(deleted.status).toBe(200);
    expect(deleted.body.note).toMatch(/still open .* no further callback will be sent/);
    await historyGone(checked, orderWorkflowId(orderId));
    // A worker started afresh replays what is open: nothing of this order, and no task fails.
    await checked.stopWorker();
    await checked.startWorker();
    const { orderId: next } = await placeOrder(checked, { token, fields: { url: media.audio(30), language: 'english' } });
    expect((await checked.complete(next, 'done.txt', 'Welcome.')).status).toBe(200);
    expect(checked.logged.filter((l) => /workflow task failed/i.test(l.message))).toEqual([]);
  });

  it('an upload only deleted orders used goes with them; operators delete with order-ops', async () => {
    const { token } = await service.createAccount(20);
    const upload = await fetch(`${service.baseUrl}/api/v4/uploads?api_token=${token}`, { method: 'POST', body: new Uint8Array(wavFile(30)) }).then((r) =>
      r.json(),
    );
    const [first, second] = [
      (await placeOrder(service, { token, fields: { url: upload.url, language: 'english' } })).orderId,
      (await placeOrder(service, { token, fields: { url: upload.url, language: 'english' } })).orderId,
    ];
    const uploadId = upload.url.split('/').pop();
    const uploadFile = join(service.dataDir, 'files', 'uploads', uploadId);
    for (const id of [first, second]) expect((await service.complete(id, 'done.txt', 'Welcome.')).status).toBe(200);
    // Finished, so the operator's deletion has no workflow to close (the answer says so).
    for (const id of [first, second]) await service.temporal.workflow.getHandle(orderWorkflowId(id)).result();
    expect((await remove(service, token, first)).status).toBe(200);
    // The other order still uses it.
    expect((await stat(uploadFile)).size).toBeGreaterThan(0);
    const byOperator = await service.ops('DELETE', `/ops/orders/${second}`);
    expect(byOperator.status).toBe(200);
    expect(byOperator.body).toMatchObject({ order_id: second, deleted_at: expect.any(String), closed_workflow: false });
    await expect(stat(uploadFile)).rejects.toThrow();
    expect((await service.database.db.select().from(uploads).where(eq(uploads.id, uploadId)))[0]).toMatchObject({ endedReason: 'terminated', info: null });
    expect((await service.ops('GET', `/ops/orders/${second}`)).body.deleted_at).toEqual(byOperator.body.deleted_at);
    await expect(service.temporal.workflow.getHandle(orderDeletionWorkflowId(first)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect((await service.database.db.select().from(orders).where(eq(orders.id, second)))[0]!.callbackUrl).toBeNull();
  });
});
