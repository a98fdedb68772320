// Late orders (docs/operations.md, Late orders): `late_at` is set once, only on a paid order, and
// `order-ops pending` (GET /ops/orders/pending) lists late orders first with `late: true`. The
// activity the workflow calls, `markOrderLate`, counts the order in `orders_late_total` and logs
// `order is late` once; and end to end, a real worker marks an order whose delivery estimate is a
// few seconds away: search attribute OrderLate, both warnings, the counter and `late_at`, once.
// The timer's own logic is tested on the time-skipping server (test/workflow/orderWorkflow.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import type { Info } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { Runtime } from '@temporalio/worker';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startService, type TestService } from '../helpers/service.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, liveTranscriptionInput, placeOrder } from '../helpers/orders.js';
import { getOrder, markOrderLate } from '../../src/db/orders.js';
import { nextOrderId } from '../../src/db/wallet.js';
import { createOrderActivities } from '../../src/activities/orders.js';
import type { ActivityDeps } from '../../src/activities/deps.js';
import { startAndPayOrder } from '../../src/orders/startOrder.js';
import { orderWorkflowId, SEARCH_ATTRIBUTES } from '../../src/contracts/orders.js';
import { createLogger } from '../../src/log.js';
import { ordersLate } from '../../src/metrics.js';
import { installTemporalRuntime, PinoTemporalLogger } from '../../src/temporal/runtime.js';

/** Warnings and errors of this process (the SDK runtime's logger, as main.ts installs it), parsed. */
const lines: Array<Record<string, unknown>> = [];
const capture = createLogger({
  level: 'warn',
  destination: {
    write: (line: string) => {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  },
});
const ACTIVITY_LINE = 'order is late';
const WORKFLOW_LINE = 'order is late: still open at its delivery estimate';
const linesAbout = (orderId: number, msg: string) => lines.filter((l) => l.orderId === orderId && l.msg === msg);

/** orders_late_total{product} now (one registry per process, as the worker's). */
const lateCount = async (product = 'transcription') => (await ordersLate.get()).values.find((v) => v.labels.product === product)?.value ?? 0;

describeOnEachDatabase('late orders', (engine) => {
  let service: TestService;
  let media: MediaServer;
  beforeAll(async () => {
    // Before the service's worker and connections (startService then keeps this runtime). The SDK
    // drops its runtime when the previous engine's service closed its last worker: install it again.
    if (!Runtime._instance) installTemporalRuntime({ logger: capture });
    [service, media] = await Promise.all([startService({ engine }), startMediaServer()]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close()]);
  });

  const place = async (token: string) => (await placeOrder(service, { token, fields: englishAudio(media) })).orderId;

  it('marks a paid order once, lists late orders first, never marks a settled one', async () => {
    const { token } = await service.createAccount(50);
    const [first, second, third] = [await place(token), await place(token), await place(token)];

    const marked = await markOrderLate(service.database.db, second);
    expect(marked).toMatchObject({ id: second, status: 'paid', lateAt: expect.any(Date) });
    expect(await markOrderLate(service.database.db, second)).toBeUndefined();
    expect((await getOrder(service.database.db, second))!.lateAt).toEqual(marked!.lateAt);

    const pending = await service.ops('GET', '/ops/orders/pending');
    expect(pending.status).toBe(200);
    const listed = (pending.body.orders as Array<{ order_id: number; late: boolean; late_at?: string }>).filter((o) =>
      [first, second, third].includes(o.order_id),
    );
    expect(listed.map((o) => [o.order_id, o.late])).toEqual([
      [second, true],
      [first, false],
      [third, false],
    ]);
    expect(listed[0]!.late_at).toEqual(expect.any(String));

    expect((await service.complete(first, 'first.txt', 'Done.')).status).toBe(200);
    expect(await markOrderLate(service.database.db, first)).toBeUndefined();
    expect((await getOrder(service.database.db, first))!.lateAt).toBeNull();
  });

  it('the markOrderLate activity counts and logs a paid order once, a settled one never', async () => {
    const { token, accountId } = await service.createAccount(50);
    const [open, settled] = [await place(token), await place(token)];
    expect((await service.complete(settled, 'settled.txt', 'Done.')).status).toBe(200);
    // The activity as the worker registers it; it reads and writes only the database.
    const { markOrderLate: activity } = createOrderActivities({ db: service.database.db } as unknown as ActivityDeps);
    const run = (orderId: number) =>
      new MockActivityEnvironment(
        { activityType: 'markOrderLate', workflowExecution: { workflowId: orderWorkflowId(orderId), runId: 'late-test' } } as Partial<Info>,
        { logger: new PinoTemporalLogger(capture) },
      ).run(activity, { orderId });
    const before = await lateCount();

    expect(await run(open)).toEqual({ marked: true });
    const row = (await getOrder(service.database.db, open))!;
    expect(row.lateAt).toEqual(expect.any(Date));
    expect((await lateCount()) - before).toBe(1);
    expect(linesAbout(open, ACTIVITY_LINE)).toEqual([
      expect.objectContaining({
        level: 'warn',
        orderId: open,
        accountId,
        workflowId: orderWorkflowId(open),
        deliveryEstimate: row.deliveryEstimate!.toISOString(),
      }),
    ]);

    // Once: a second call (a retried activity) changes nothing, counts nothing, logs nothing.
    expect(await run(open)).toEqual({ marked: false });
    expect((await getOrder(service.database.db, open))!.lateAt).toEqual(row.lateAt);
    expect(await run(settled)).toEqual({ marked: false });
    expect((await getOrder(service.database.db, settled))!.lateAt).toBeNull();
    expect((await lateCount()) - before).toBe(1);
    expect(linesAbout(open, ACTIVITY_LINE)).toHaveLength(1);
    expect(linesAbout(settled, ACTIVITY_LINE)).toEqual([]);
  });

  it('a real worker marks an order still open at its delivery estimate, once', async () => {
    const { accountId } = await service.createAccount(50);
    const before = await lateCount();
    // Placed as the API places a live order (Update-with-Start, the charge in the workflow), with a
    // turnaround of 2 seconds instead of the products' hours.
    const orderId = await nextOrderId(service.database.db);
    const placed = await startAndPayOrder(
      service.temporal,
      service.taskQueue,
      liveTranscriptionInput({ orderId, accountId, url: media.audio(60) }, { payBy: new Date(Date.now() + 15_000), turnaroundHours: 2 / 3600 }),
      20_000,
    );
    const estimate = Date.parse(placed.deliveryEstimate);
    expect(estimate - Date.parse(placed.paidAt)).toBe(2000);
    expect((await getOrder(service.database.db, orderId))!.lateAt).toBeNull();

    // The activity logs last (after late_at and the counter).
    await waitFor(() => linesAbout(orderId, ACTIVITY_LINE).length > 0, 'the late order marked by its workflow', 30_000);
    const row = (await getOrder(service.database.db, orderId))!;
    expect(row).toMatchObject({ status: 'paid', lateAt: expect.any(Date) });
    expect(row.lateAt!.getTime()).toBeGreaterThanOrEqual(estimate);
    expect((await lateCount()) - before).toBe(1);
    const handle = service.temporal.workflow.getHandle(orderWorkflowId(orderId));
    expect((await handle.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.late)).toBe(true);
    const ids = { orderId, accountId, workflowId: orderWorkflowId(orderId) };
    expect(linesAbout(orderId, WORKFLOW_LINE)).toEqual([expect.objectContaining({ level: 'warn', ...ids, deliveryEstimate: placed.deliveryEstimate })]);
    expect(linesAbout(orderId, ACTIVITY_LINE)).toEqual([expect.objectContaining({ level: 'warn', ...ids, activityType: 'markOrderLate' })]);

    // Still open, so completed as usual; it stays marked, and is neither counted nor logged again.
    expect((await service.complete(orderId, 'late.txt', 'Late, but done.')).status).toBe(200);
    expect(await getOrder(service.database.db, orderId)).toMatchObject({ status: 'finished', lateAt: row.lateAt });
    expect((await lateCount()) - before).toBe(1);
    expect(linesAbout(orderId, WORKFLOW_LINE)).toHaveLength(1);
    expect(linesAbout(orderId, ACTIVITY_LINE)).toHaveLength(1);
  });
});
