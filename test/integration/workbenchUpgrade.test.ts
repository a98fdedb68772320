// Deploying the workbench while orders run: an order placed and charged by the workflow code of the
// last commit before it (built from git), then finished by `order-ops complete` on the current code.
// The current code replays the old history (no `workbench` patch marker, no task) and goes on.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orderWorkflowId, statusQuery } from '../../src/contracts/orders.js';
import { tasksOfOrder } from '../../src/db/tasks.js';
import { BEFORE_WORKBENCH } from '../helpers/legCatalog.js';
import { describeNeeding } from '../helpers/legs.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { oldWorkflowCode, withOldWorker } from '../helpers/oldCode.js';
import { startService, type TestService } from '../helpers/service.js';

describeNeeding('gitHistory', 'an order placed before the workbench, finished after it', () => {
  let service: TestService;
  let media: MediaServer;
  let old: { code: string; remove(): Promise<void> };

  beforeAll(async () => {
    [old, service, media] = await Promise.all([oldWorkflowCode(BEFORE_WORKBENCH), startService({ inProcessWorker: false }), startMediaServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), old?.remove()]);
  });

  it('is charged by the old code and finished by the new one, with no task opened', async () => {
    const account = await service.createAccount(10);
    const orderId = await withOldWorker(service, old.code, async () => {
      const placed = await service.post('/api/v4/transcriptions', { api_token: account.token, mode: 'live', url: media.audio(30), language: 'english' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const id = placed.body.order_id as number;
      expect(await service.temporal.workflow.getHandle(orderWorkflowId(id)).query(statusQuery)).toMatchObject({ status: 'paid', workingOn: 'operator' });
      return id;
    });

    // The new code takes over the worker's task queue.
    await service.startWorker();
    const completed = await service.complete(orderId, 'done.txt', 'Speaker 1: finished on the new code.');
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body).toMatchObject({ status: 'finished' });
    const handle = service.temporal.workflow.getHandle(orderWorkflowId(orderId));
    await waitFor(async () => (await handle.describe()).status.name === 'COMPLETED', 'the workflow closed');
    const history = await handle.fetchHistory();
    // The patch markers the history holds (local activities' markers too): none is the workbench's.
    const markers = (history.events ?? []).flatMap((e) =>
      Object.values(e.markerRecordedEventAttributes?.details ?? {}).flatMap((p) =>
        (p.payloads ?? []).map((payload) => Buffer.from(payload.data ?? []).toString('utf8')),
      ),
    );
    expect(markers.some((m) => m.includes('charge-local-activity'))).toBe(true);
    expect(markers.some((m) => m.includes('workbench'))).toBe(false);
    expect(await tasksOfOrder(service.database.db, orderId)).toEqual([]);
    const record = await service.get(`/api/v4/orders/${orderId}?api_token=${account.token}&mode=live`);
    expect(record.body.data).toMatchObject({ id: orderId, finished_at: expect.any(String) });
  });
});
