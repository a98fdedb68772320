// The order workflow on the time-skipping test server with mocked activities: the timers
// (quality-check window, payment window, callback and engine retry pauses) that tests cannot wait for.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { Context } from '@temporalio/activity';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import {
  Client,
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateStage,
  type WorkflowHandle,
} from '@temporalio/client';
import type { createActivities } from '../../src/activities/index.js';
import type { EngineOutcome } from '../../src/contracts/handOver.js';
import type { orderWorkflow } from '../../src/workflows/order.js';
import { callbackPauseMs, callbackWindowMs } from '../../src/domain/callbackSchedule.js';
import {
  cancelUpdate,
  completeUpdate,
  orderWorkflowId,
  placeOrderUpdate,
  qualityCheckUpdate,
  refundUpdate,
  rejectTranscriptUpdate,
  SEARCH_ATTRIBUTES,
  engineTaskQueue,
  startSearchAttributes,
  statusQuery,
  type OrderToPlace,
  type OrderWorkflowInput,
  type PlacedOrder,
  type ResultFile,
} from '../../src/contracts/orders.js';
import type { OrderParams } from '../../src/products/registry.js';
import { waitFor } from '../helpers/net.js';
import { startTimeSkipping } from '../helpers/timeSkipping.js';
import { decodePayloads, ENCRYPTED_ENCODING, payloadDataConverter } from '../../src/temporal/payloadCodec.js';

type Activities = ReturnType<typeof createActivities>;
type Calls = { [K in keyof Activities]: Array<Parameters<Activities[K]>[0] & { at: number; attempt: number }> };
type Handle = WorkflowHandle<typeof orderWorkflow>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const file = (kind: string, blobKey = `blob-${kind}`): ResultFile => ({ kind, blobKey, fileName: `${kind}.txt` });

let env: TestWorkflowEnvironment;
/** The service's payload codec, on the test environment's client and the workers alike. */
const dataConverter = payloadDataConverter([{ id: 'workflow-test', key: randomBytes(32) }]);
/** Its `result()` does not skip time: skipping jumps to the next timer of ANY open workflow (e.g. a 10-year run timeout). */
let noSkip: Client;
let seq = 0;
let nextOrderId = 7_000;

/**
 * An order input; ids step by 10 so that a child order (id + 1) never collides. `payBy` is
 * measured from the test server's clock, which runs far ahead of the real one once time was skipped.
 */
async function newInput(
  order: Partial<OrderToPlace<OrderParams>> = {},
  rest: Partial<Omit<OrderWorkflowInput, 'order'>> = {},
  payByInMs = HOUR,
): Promise<OrderWorkflowInput<OrderParams>> {
  nextOrderId += 10;
  const payBy = new Date((await env.currentTimeMs()) + payByInMs).toISOString();
  return {
    order: {
      id: nextOrderId,
      accountId: 42,
      product: 'transcription',
      priceCents: 125,
      seconds: 60,
      words: 0,
      params: { language: 'english' },
      callbackUrl: 'http://receiver.test/hook',
      turnaroundHours: 48,
      fulfilment: 'operator',
      resultKinds: ['transcription'],
      results: [{ kind: 'transcription', field: 'transcription_url', formats: ['docx'] }],
      ...order,
    },
    payment: { by: 'customer', payBy },
    qualityCheckProbability: 0,
    qualityCheckWindowMs: 72 * HOUR,
    workbench: { leaseMs: HOUR, partSeconds: 360 },
    ...rest,
  };
}

interface Behaviour {
  engine?: (attempt: number) => Promise<EngineOutcome>;
  /** Called before the activity's work; throwing fails that attempt. */
  fails?: Partial<Record<'refundOrder' | 'applyQualityFix' | 'handToOperator', (attempt: number) => void>>;
  /** Called with the attempt and the call as recorded (its input and the server's time). */
  callback?: (attempt: number, call: Calls['deliverCallback'][number]) => void;
  retranscribe?: (orderId: number) => OrderToPlace | null;
  /** Awaited inside closeQualityCheck after it is recorded: the test holds the activity running. */
  closing?: () => Promise<void>;
  /** Awaited inside every settling activity (finish, refund, quality fix, retranscribe) after it is recorded: a change held running. */
  settling?: () => Promise<void>;
}

/** Activities with the real names and signatures; each call is recorded with its server time and attempt. */
function mockActivities(behaviour: Behaviour = {}): { calls: Calls; activities: Activities } {
  const calls: Calls = {
    chargeWallet: [],
    finishOrder: [],
    refundOrder: [],
    retranscribe: [],
    applyQualityFix: [],
    closeQualityCheck: [],
    deliverCallback: [],
    fulfilByEngine: [],
    handToOperator: [],
    markOrderLate: [],
    reestimateForPeople: [],
    // The workbench's (test/workflow/workbench.test.ts runs them for real); these orders carry no work plan.
    openTask: [],
    openWork: [],
    workerEnabled: [],
    recordTaskClaim: [],
    recordTaskRelease: [],
    taskLease: [],
    recordTaskOutcome: [],
    closeTask: [],
    creditWorkers: [],
    deliverWork: [],
    timeWork: [],
    timeTypedWords: [],
    checkSuppliedTranscript: [],
    expireUpload: [],
    deleteOrderData: [],
  };
  // `at` is the test server's clock when the attempt ran (the test server reports an attempt's
  // scheduled time as the moment the previous attempt failed, before the retry pause).
  const record = async <K extends keyof Activities>(name: K, input: Parameters<Activities[K]>[0]) => {
    const { attempt } = Context.current().info;
    calls[name].push({ ...input, at: await env.currentTimeMs(), attempt } as Calls[K][number]);
    return attempt;
  };
  /** Records the call, then lets the test's hook fail it. */
  const failable = async <K extends 'refundOrder' | 'applyQualityFix' | 'handToOperator'>(name: K, input: Parameters<Activities[K]>[0]) => {
    const attempt = await record(name, input);
    behaviour.fails?.[name]?.(attempt);
  };
  const activities: Activities = {
    async chargeWallet(order): Promise<PlacedOrder> {
      await record('chargeWallet', order);
      // Paid on the test server's clock, which runs ahead of the real one once time was skipped.
      const paidAt = await env.currentTimeMs();
      return {
        orderId: order.id,
        chargedCents: order.priceCents,
        balanceCents: 10_000 - order.priceCents,
        aiMinutesLeft: 0,
        paidAt: new Date(paidAt).toISOString(),
        deliveryEstimate: new Date(paidAt + order.turnaroundHours * HOUR).toISOString(),
      };
    },
    async finishOrder(input) {
      await record('finishOrder', input);
      await behaviour.settling?.();
    },
    async refundOrder(input) {
      await failable('refundOrder', input);
      await behaviour.settling?.();
      return { balanceCents: 10_000 };
    },
    async retranscribe(input) {
      await record('retranscribe', input);
      await behaviour.settling?.();
      return behaviour.retranscribe?.(input.orderId) ?? null;
    },
    async applyQualityFix(input) {
      await failable('applyQualityFix', input);
      await behaviour.settling?.();
    },
    async closeQualityCheck(input) {
      await record('closeQualityCheck', input);
      await behaviour.closing?.();
    },
    async deliverCallback(input) {
      const attempt = await record('deliverCallback', input);
      behaviour.callback?.(attempt, calls.deliverCallback.at(-1)!);
      return { delivered: true, attempt };
    },
    async fulfilByEngine(input) {
      const attempt = await record('fulfilByEngine', input);
      return behaviour.engine ? behaviour.engine(attempt) : { outcome: 'unavailable' };
    },
    async handToOperator(input) {
      await failable('handToOperator', input);
    },
    async reestimateForPeople(input) {
      await record('reestimateForPeople', input);
      // A person's work: five days from the hand-off, on the test server's clock.
      return { deliveryEstimate: new Date((await env.currentTimeMs()) + 120 * HOUR).toISOString() };
    },
    async markOrderLate(input) {
      await record('markOrderLate', input);
      return { marked: true };
    },
    async openTask(input) {
      await record('openTask', input);
      return { leaseMs: input.leaseMs };
    },
    async openWork(input) {
      await record('openWork', input);
      return { draft: '', leaseMs: input.tasks[0]!.leaseMs };
    },
    async workerEnabled(input) {
      await record('workerEnabled', input);
      return true;
    },
    async recordTaskClaim(input) {
      await record('recordTaskClaim', input);
    },
    async recordTaskRelease(input) {
      await record('recordTaskRelease', input);
    },
    async taskLease(input) {
      await record('taskLease', input);
      return { saves: 0, msSinceSave: 0 };
    },
    async recordTaskOutcome(input) {
      await record('recordTaskOutcome', input);
    },
    async closeTask(input) {
      await record('closeTask', input);
    },
    async creditWorkers(input) {
      await record('creditWorkers', input);
      return { credited: 0 };
    },
    async deliverWork(input) {
      await record('deliverWork', input);
      return [];
    },
    async timeWork(input) {
      await record('timeWork', input);
      return null;
    },
    async timeTypedWords(input) {
      await record('timeTypedWords', input);
      return null;
    },
    async checkSuppliedTranscript(input) {
      await record('checkSuppliedTranscript', input);
      return { verdict: 'unavailable' as const };
    },
    async expireUpload(input) {
      await record('expireUpload', input);
    },
    async deleteOrderData(input) {
      await record('deleteOrderData', input);
    },
  };
  return { calls, activities };
}

/** Runs `body` while a fresh worker (own task queue) polls with `activities`. */
async function withWorker<T>(activities: Activities, body: (taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = `order-wf-test-${++seq}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    activities,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    dataConverter,
  });
  // Engine work has its own task queue, as src/temporal/worker.ts sets it up.
  const engines = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: engineTaskQueue(taskQueue),
    activities: { fulfilByEngine: activities.fulfilByEngine },
    dataConverter,
  });
  return engines.runUntil(worker.runUntil(body(taskQueue)));
}

/** Update-with-Start as src/orders/startOrder.ts does it: the update names the placement of the input. */
function startWithPayment(input: OrderWorkflowInput, taskQueue: string, placement = 'placement-1') {
  const start = new WithStartWorkflowOperation<typeof orderWorkflow>('orderWorkflow', {
    workflowId: orderWorkflowId(input.order.id),
    taskQueue,
    args: [input.payment.by === 'customer' ? { ...input, payment: { ...input.payment, placement: 'placement-1' } } : input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    typedSearchAttributes: startSearchAttributes(input.order),
  });
  const placed = env.client.workflow.executeUpdateWithStart(placeOrderUpdate, { args: [placement], startWorkflowOperation: start });
  const handle = start.workflowHandle() as Promise<Handle>;
  handle.catch(() => undefined); // a failed start is reported through `placed`
  return { placed, handle };
}

async function placeOrder(input: OrderWorkflowInput, taskQueue: string): Promise<Handle> {
  const { placed, handle } = startWithPayment(input, taskQueue);
  expect(await placed).toMatchObject({ orderId: input.order.id, chargedCents: input.order.priceCents });
  return handle;
}

/** The failure an update was refused with (validator or handler). */
async function refusal(update: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await update.then(
    () => {
      throw new Error('the update was accepted');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  const cause = (err as WorkflowUpdateFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  return cause as ApplicationFailure;
}

const events = (calls: Calls, orderId: number) => calls.deliverCallback.filter((c) => c.orderId === orderId).map((c) => c.event);
const complete = (handle: Handle, files: ResultFile[]) => handle.executeUpdate(completeUpdate, { args: [{ files }] });

beforeAll(async () => {
  env = await startTimeSkipping(dataConverter);
  noSkip = new Client({ connection: env.connection, dataConverter });
});

afterAll(async () => {
  await env?.teardown();
});

describe('order workflow on the time-skipping test server', () => {
  it('marks an order still open at its delivery estimate late, once, without settling it', async () => {
    const { calls, activities } = mockActivities();
    const input = await newInput({ turnaroundHours: 48 });
    await withWorker(activities, async (taskQueue) => {
      const handle = await placeOrder(input, taskQueue);
      const paidAt = calls.chargeWallet[0]!.at;
      await env.sleep('47 hours');
      expect(calls.markOrderLate).toEqual([]);
      expect((await handle.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.late)).toBeUndefined();
      await env.sleep('2 hours');
      await waitFor(() => calls.markOrderLate.length === 1, 'the late mark');
      expect(calls.markOrderLate).toMatchObject([{ orderId: input.order.id }]);
      const markedAfter = calls.markOrderLate[0]!.at - paidAt;
      expect(markedAfter).toBeGreaterThanOrEqual(48 * HOUR - MINUTE);
      expect(markedAfter).toBeLessThan(49 * HOUR);
      expect((await handle.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.late)).toBe(true);
      // Still open: a late order is completed as usual, and not marked again.
      expect(await handle.query(statusQuery)).toMatchObject({ status: 'paid' });
      await env.sleep('48 hours');
      expect(await complete(handle, [file('transcription')])).toMatchObject({ status: 'finished' });
      expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      expect(calls.markOrderLate).toHaveLength(1);
    });
  });

  it('never marks an order settled before its delivery estimate', async () => {
    const { calls, activities } = mockActivities();
    const finished = await newInput({ turnaroundHours: 24 });
    const canceled = await newInput({ turnaroundHours: 24 });
    await withWorker(activities, async (taskQueue) => {
      const done = await placeOrder(finished, taskQueue);
      const gone = await placeOrder(canceled, taskQueue);
      await env.sleep('23 hours');
      await complete(done, [file('transcription')]);
      await gone.executeUpdate(cancelUpdate);
      expect(await done.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      expect(await gone.result()).toEqual({ status: 'canceled', qualityCheck: 'none' });
      await env.sleep('48 hours');
      expect(calls.markOrderLate).toEqual([]);
      expect((await done.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.late)).toBeUndefined();
    });
  });

  it('closes a pending quality check as passed when its 72-hour window ends', async () => {
    const { calls, activities } = mockActivities();
    const input = await newInput({}, { qualityCheckProbability: 1, qualityCheckWindowMs: 72 * HOUR });
    const realStart = Date.now();
    await withWorker(activities, async (taskQueue) => {
      const handle = await placeOrder(input, taskQueue);
      expect(await complete(handle, [file('transcription')])).toEqual({ order_id: input.order.id, status: 'finished', quality_check: 'pending' });
      expect(calls.finishOrder).toMatchObject([{ orderId: input.order.id, qualityCheck: true }]);
      await waitFor(() => calls.deliverCallback.length === 1, 'the finished callback');
      const finishedAt = await env.currentTimeMs();
      await env.sleep('71 hours');
      expect(await handle.query(statusQuery)).toEqual({ status: 'finished', qualityCheck: 'pending', workingOn: 'nobody' });
      expect(calls.closeQualityCheck).toEqual([]);
      await env.sleep('2 hours');
      expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'passed' });
      expect(calls.closeQualityCheck).toMatchObject([{ orderId: input.order.id, result: 'passed' }]);
      const closedAfter = calls.closeQualityCheck[0]!.at - finishedAt;
      expect(closedAfter).toBeGreaterThanOrEqual(72 * HOUR - MINUTE);
      expect(closedAfter).toBeLessThan(73 * HOUR);
      expect((await env.currentTimeMs()) - finishedAt).toBeGreaterThanOrEqual(72 * HOUR);
      expect(events(calls, input.order.id)).toEqual(['finished']);
    });
    expect(Date.now() - realStart).toBeLessThan(30_000);
  });

  it('a quality fix within the window sends a second callback', async () => {
    const { calls, activities } = mockActivities();
    const input = await newInput({}, { qualityCheckProbability: 1 });
    await withWorker(activities, async (taskQueue) => {
      const handle = await placeOrder(input, taskQueue);
      await complete(handle, [file('transcription')]);
      await env.sleep('24 hours');
      const fix = [file('transcription', 'blob-fixed')];
      expect(await handle.executeUpdate(qualityCheckUpdate, { args: [{ fix }] })).toEqual({
        order_id: input.order.id,
        status: 'finished',
        quality_check: 'fixed',
      });
      expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'fixed' });
      expect(calls.applyQualityFix).toMatchObject([{ orderId: input.order.id, files: fix }]);
      expect(calls.closeQualityCheck).toEqual([]);
      expect(events(calls, input.order.id)).toEqual(['finished', 'quality_fix']);
    });
  });

  it('a refused quality fix does not restart the window, which counts from the finish', async () => {
    const { calls, activities } = mockActivities({
      fails: {
        applyQualityFix: () => {
          throw ApplicationFailure.nonRetryable('file missing', 'OrderState');
        },
      },
    });
    const input = await newInput({}, { qualityCheckProbability: 1 });
    await withWorker(activities, async (taskQueue) => {
      const handle = await placeOrder(input, taskQueue);
      await complete(handle, [file('transcription')]);
      await waitFor(() => calls.deliverCallback.length === 1, 'the finished callback');
      const finishedAt = await env.currentTimeMs();
      await env.sleep('70 hours');
      expect((await refusal(handle.executeUpdate(qualityCheckUpdate, { args: [{ fix: [file('transcription', 'blob-fixed')] }] }))).message).toBe(
        'file missing',
      );
      expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'passed' });
      expect(calls.closeQualityCheck[0]!.at - finishedAt).toBeLessThan(73 * HOUR);
    });
  });

  it('a quality fix sent while the window closes the check is refused: the passed outcome is not overwritten', async () => {
    // The close runs under the order's lock: before, it ran outside it, the fix was accepted while its
    // activity ran, and the close then wrote `passed` over `fixed` after the quality_fix callback.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { calls, activities } = mockActivities({ closing: () => held });
    const input = await newInput({}, { qualityCheckProbability: 1, qualityCheckWindowMs: HOUR });
    await withWorker(activities, async (taskQueue) => {
      const handle = await placeOrder(input, taskQueue);
      await complete(handle, [file('transcription')]);
      await waitFor(() => calls.deliverCallback.length === 1, 'the finished callback');
      // The server's clock stops while an activity runs: the sleep ends once the close is let go.
      const slept = env.sleep('2 hours');
      await waitFor(() => calls.closeQualityCheck.length === 1, 'the window closing the check');
      const fix = [file('transcription', 'blob-fixed')];
      // Before the lock the fix was accepted here, and the test timed out waiting for its answer.
      const fixing = await handle.startUpdate(qualityCheckUpdate, { args: [{ fix }], waitForStage: WorkflowUpdateStage.ACCEPTED });
      expect((await refusal(fixing.result())).message).toBe(`order ${input.order.id} is changing state; try again`);
      release();
      await slept;
      expect(await noSkip.workflow.getHandle(handle.workflowId).result()).toEqual({ status: 'finished', qualityCheck: 'passed' });
      expect(calls.applyQualityFix).toEqual([]);
      expect(events(calls, input.order.id)).toEqual(['finished']);
    });
  });

  describe('callback retries', () => {
    const receiverDown = () => {
      throw ApplicationFailure.create({ message: 'receiver down', nextRetryDelay: '10 minutes' });
    };

    it('pauses between attempts and gives up after 10 attempts; the order stays finished', async () => {
      const { calls, activities } = mockActivities({ callback: receiverDown });
      const input = await newInput();
      const realStart = Date.now();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await complete(handle, [file('transcription')]);
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
      expect(calls.deliverCallback.map((c) => c.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(calls.deliverCallback.every((c) => c.event === 'finished')).toBe(true);
      const at = calls.deliverCallback.map((c) => c.at);
      expect(at[9]! - at[0]!).toBeGreaterThanOrEqual(9 * 10 * MINUTE);
      expect(Date.now() - realStart).toBeLessThan(30_000);
    });

    // The activity's own pause (src/activities/callbacks.ts) with the default bounds: 1 minute, 10 hours.
    const schedule = { firstPauseMs: MINUTE, maxPauseMs: 10 * HOUR };
    const backingOff = (attempt: number, call: Calls['deliverCallback'][number]) => {
      throw ApplicationFailure.create({ message: 'receiver down', nextRetryDelay: callbackPauseMs(attempt, schedule) });
    };

    it('reaches a receiver that was down for 20 hours on a later attempt', async () => {
      const { calls, activities } = mockActivities({
        callback: (attempt, call) => {
          if (call.at - calls.deliverCallback[0]!.at < 20 * HOUR) backingOff(attempt, call);
        },
      });
      const input = await newInput();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await complete(handle, [file('transcription')]);
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
      const last = calls.deliverCallback.at(-1)!;
      expect(last.attempt).toBeLessThanOrEqual(10);
      expect(last.at - calls.deliverCallback[0]!.at).toBeGreaterThanOrEqual(20 * HOUR);
    });

    it('spreads all 10 attempts over more than a day, within the window the bounds give', async () => {
      const { calls, activities } = mockActivities({ callback: backingOff });
      const input = await newInput();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await complete(handle, [file('transcription')]);
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
      expect(calls.deliverCallback.map((c) => c.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const span = calls.deliverCallback[9]!.at - calls.deliverCallback[0]!.at;
      const { shortest, longest } = callbackWindowMs(schedule);
      expect(span).toBeGreaterThanOrEqual(Math.max(24 * HOUR, shortest - MINUTE));
      expect(span).toBeLessThanOrEqual(longest + MINUTE);
    });

    it('stops at the first successful attempt', async () => {
      const { calls, activities } = mockActivities({
        callback: (attempt) => {
          if (attempt < 3) receiverDown();
        },
      });
      const input = await newInput();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await complete(handle, [file('transcription')]);
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
      expect(calls.deliverCallback.map((c) => c.attempt)).toEqual([1, 2, 3]);
      expect(calls.deliverCallback[2]!.at - calls.deliverCallback[0]!.at).toBeGreaterThanOrEqual(2 * 10 * MINUTE);
    });
  });

  describe('payment window', () => {
    it('an order nobody paid for ends payment_failed at payBy without a charge', async () => {
      const { calls, activities } = mockActivities();
      const startedAt = await env.currentTimeMs();
      const input = await newInput({}, {}, MINUTE);
      await withWorker(activities, async (taskQueue) => {
        const handle = await env.client.workflow.start('orderWorkflow', {
          workflowId: orderWorkflowId(input.order.id),
          taskQueue,
          args: [input],
          typedSearchAttributes: startSearchAttributes(input.order),
        });
        expect(await handle.result()).toEqual({ status: 'payment_failed', qualityCheck: 'none' });
      });
      expect(await env.currentTimeMs()).toBeGreaterThanOrEqual(startedAt + MINUTE);
      expect(calls.chargeWallet).toEqual([]);
      expect(calls.deliverCallback).toEqual([]);
    });

    it('refuses a charge that arrives after payBy', async () => {
      const { calls, activities } = mockActivities();
      const input = await newInput({}, {}, -MINUTE);
      await withWorker(activities, async (taskQueue) => {
        const { placed, handle } = startWithPayment(input, taskQueue);
        const failure = await refusal(placed);
        expect(failure.type).toBe('PaymentExpired');
        expect(failure.message).toMatch(/not paid in time; nothing was charged/);
        expect(await (await handle).result()).toEqual({ status: 'payment_failed', qualityCheck: 'none' });
      });
      expect(calls.chargeWallet).toEqual([]);
    });

    it('refuses the update of another placement that reaches an open workflow with its order id', async () => {
      const { calls, activities } = mockActivities();
      const input = await newInput();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        // Another request with the same order id (ids reused after a database reset) joins the open workflow.
        const { placed } = startWithPayment(input, taskQueue, 'placement-2');
        const failure = await refusal(placed);
        expect(failure.message).toMatch(/belongs to another order placed earlier/);
        // The same placement asking again gets the charge already made.
        expect(await startWithPayment(input, taskQueue).placed).toMatchObject({ orderId: input.order.id });
        await handle.executeUpdate(cancelUpdate);
        expect(await handle.result()).toMatchObject({ status: 'canceled' });
      });
      expect(calls.chargeWallet).toHaveLength(1);
    });
  });

  describe('engine fulfilment', () => {
    const engineOrder = () => newInput({ product: 'ai_transcription', fulfilment: 'engine', resultKinds: ['transcription', 'captions'] });
    const engineFiles = [file('transcription', 'engine-key'), file('captions', 'engine-key')];

    it('a finished outcome finishes the order with the engine files', async () => {
      const { calls, activities } = mockActivities({ engine: async () => ({ outcome: 'finished', files: engineFiles }) });
      const input = await engineOrder();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
      expect(calls.fulfilByEngine).toMatchObject([{ orderId: input.order.id }]);
      expect(calls.finishOrder).toMatchObject([{ orderId: input.order.id, files: engineFiles, qualityCheck: false }]);
      expect(events(calls, input.order.id)).toEqual(['finished']);
    });

    it('a rejected outcome refunds the order with the reason', async () => {
      const reason = 'no speech was found in the file';
      const { calls, activities } = mockActivities({ engine: async () => ({ outcome: 'rejected', reason }) });
      const input = await engineOrder();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        expect(await handle.result()).toEqual({ status: 'refunded', qualityCheck: 'none' });
      });
      expect(calls.refundOrder).toMatchObject([{ orderId: input.order.id, status: 'refunded', reason }]);
      expect(calls.finishOrder).toEqual([]);
      expect(events(calls, input.order.id)).toEqual(['refunded']);
    });

    it('an unavailable engine leaves the paid order to an operator', async () => {
      const { calls, activities } = mockActivities({ engine: async () => ({ outcome: 'unavailable' }) });
      const input = await engineOrder();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await waitFor(async () => (await handle.query(statusQuery)).workingOn === 'operator', 'the operator hand-off');
        expect(await handle.query(statusQuery)).toEqual({ status: 'paid', qualityCheck: 'none', workingOn: 'operator' });
        expect(await complete(handle, [file('transcription'), file('captions')])).toEqual({ order_id: input.order.id, status: 'finished' });
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
      // The workflow takes the work first, then tells the database (order-ops pending).
      expect(calls.handToOperator).toMatchObject([{ orderId: input.order.id, reason: 'no engine is configured' }]);
      expect(events(calls, input.order.id)).toEqual(['finished']);
    });

    it('an engine that keeps failing hands the order to an operator after its retries', async () => {
      const { calls, activities } = mockActivities({
        engine: async () => {
          throw ApplicationFailure.retryable('engine down', 'EngineDown');
        },
      });
      const input = await engineOrder();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        expect((await handle.query(statusQuery)).workingOn).toBe('engine');
        await env.sleep('5 minutes');
        await waitFor(() => calls.handToOperator.length > 0, 'the operator hand-off');
        expect(await handle.query(statusQuery)).toEqual({ status: 'paid', qualityCheck: 'none', workingOn: 'operator' });
        await complete(handle, [file('transcription'), file('captions')]);
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
      expect(calls.fulfilByEngine.map((c) => c.attempt)).toEqual([1, 2, 3, 4]);
      const at = calls.fulfilByEngine.map((c) => c.at);
      expect(at[3]! - at[0]!).toBeGreaterThanOrEqual((5 + 15 + 45) * 1000);
      expect(calls.handToOperator).toMatchObject([{ orderId: input.order.id, reason: expect.stringContaining('engine down') }]);
    });

    it("an order handed to a person is due when the person's work is: not late at the machine's hour, late at the new estimate", async () => {
      const { calls, activities } = mockActivities({ engine: async () => ({ outcome: 'unavailable' }) });
      const input = await newInput({ product: 'ai_transcription', fulfilment: 'engine', resultKinds: ['transcription', 'captions'], turnaroundHours: 1 });
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await waitFor(() => calls.reestimateForPeople.length === 1, 'the new estimate');
        expect(calls.reestimateForPeople).toMatchObject([{ orderId: input.order.id, work: 'transcriber', reason: 'no engine is configured' }]);
        const handedAt = calls.reestimateForPeople[0]!.at;
        await env.sleep('3 hours');
        expect(calls.markOrderLate).toEqual([]);
        await env.sleep('118 hours');
        await waitFor(() => calls.markOrderLate.length === 1, 'the late mark at the new estimate');
        expect(calls.markOrderLate[0]!.at - handedAt).toBeGreaterThanOrEqual(120 * HOUR - MINUTE);
        await complete(handle, [file('transcription'), file('captions')]);
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
    });

    it("an order marked late by the machine's estimate before its hand-off is no longer late after it", async () => {
      const { calls, activities } = mockActivities({
        engine: async () => {
          throw ApplicationFailure.retryable('engine down', 'EngineDown');
        },
      });
      // Due in 36 s; the engine's retries take over a minute.
      const input = await newInput({ product: 'ai_transcription', fulfilment: 'engine', resultKinds: ['transcription', 'captions'], turnaroundHours: 0.01 });
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await env.sleep('5 minutes');
        await waitFor(() => calls.reestimateForPeople.length === 1, 'the new estimate');
        expect(calls.markOrderLate).toHaveLength(1);
        expect(calls.markOrderLate[0]!.at).toBeLessThan(calls.reestimateForPeople[0]!.at);
        expect(calls.reestimateForPeople[0]).toMatchObject({ work: 'transcriber', reason: expect.stringContaining('engine down') });
        await waitFor(async () => (await handle.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.late) === false, 'the late mark lifted');
        await complete(handle, [file('transcription'), file('captions')]);
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
    });

    it('a hand-off to an operator that fails does not jam the order', async () => {
      const { calls, activities } = mockActivities({
        engine: async () => {
          throw ApplicationFailure.retryable('engine down', 'EngineDown');
        },
        fails: {
          handToOperator: () => {
            throw ApplicationFailure.nonRetryable('database gone', 'Fault');
          },
        },
      });
      const input = await engineOrder();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await env.sleep('5 minutes');
        await waitFor(() => calls.handToOperator.length > 0, 'the operator hand-off');
        expect(await handle.query(statusQuery)).toEqual({ status: 'paid', qualityCheck: 'none', workingOn: 'operator' });
        await complete(handle, [file('transcription'), file('captions')]);
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
    });

    it('a cancellation whose refund fails leaves the engine working, and its result still settles the order', async () => {
      let release!: (outcome: EngineOutcome) => void;
      const gate = new Promise<EngineOutcome>((r) => {
        release = r;
      });
      const { calls, activities } = mockActivities({
        engine: () => Promise.race([gate, Context.current().cancelled]),
        fails: {
          refundOrder: () => {
            throw ApplicationFailure.nonRetryable('ledger locked', 'OrderState');
          },
        },
      });
      const input = await engineOrder();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await waitFor(() => calls.fulfilByEngine.length > 0, 'the engine to start');
        expect((await refusal(handle.executeUpdate(cancelUpdate))).message).toBe('ledger locked');
        expect(await handle.query(statusQuery)).toEqual({ status: 'paid', qualityCheck: 'none', workingOn: 'engine' });
        release({ outcome: 'finished', files: engineFiles });
        expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
      expect(calls.finishOrder).toMatchObject([{ orderId: input.order.id, files: engineFiles }]);
    });

    it('refuses completion while the engine works; a cancellation refunds and ends the order canceled', async () => {
      let release!: (outcome: EngineOutcome) => void;
      const gate = new Promise<EngineOutcome>((r) => {
        release = r;
      });
      // Worker shutdown cancels the attempt, so a failed assertion cannot leave the worker waiting on the gate.
      const { calls, activities } = mockActivities({ engine: () => Promise.race([gate, Context.current().cancelled]) });
      const input = await engineOrder();
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        await waitFor(() => calls.fulfilByEngine.length > 0, 'the engine to start');
        expect(await handle.query(statusQuery)).toEqual({ status: 'paid', qualityCheck: 'none', workingOn: 'engine' });
        const refused = await refusal(complete(handle, [file('transcription'), file('captions')]));
        expect(refused.type).toBe('OrderState');
        expect(refused.message).toMatch(/speech engine is working/);
        expect(await handle.executeUpdate(cancelUpdate)).toEqual({ order_id: input.order.id, status: 'canceled' });
        release({ outcome: 'finished', files: engineFiles }); // too late: the order is settled
        expect(await handle.result()).toEqual({ status: 'canceled', qualityCheck: 'none' });
      });
      expect(calls.refundOrder).toMatchObject([{ orderId: input.order.id, status: 'canceled', reason: 'canceled' }]);
      expect(calls.finishOrder).toEqual([]);
      expect(events(calls, input.order.id)).toEqual(['canceled']);
    });
  });

  describe('proofreading hand-off', () => {
    const proofreadingOrder = (autoRetranscribe: boolean) =>
      newInput({
        product: 'proofreading',
        fulfilment: 'proofreading',
        params: { language: 'english', auto_retranscribe: autoRetranscribe },
        onReject: autoRetranscribe ? 'hand_off' : 'refund',
      });
    const childOf = (parent: OrderToPlace): OrderToPlace<OrderParams> => ({
      ...parent,
      id: parent.id + 1,
      product: 'transcription',
      fulfilment: 'operator',
      resultKinds: ['transcription'],
      priceCents: 250,
      params: { language: 'english', retranscription_of: parent.id },
      parentOrderId: parent.id,
    });
    const childHandle = (parent: OrderToPlace) => env.client.workflow.getHandle<typeof orderWorkflow>(orderWorkflowId(parent.id + 1));

    it('a rejected transcript starts a paid human transcription order that lives on', async () => {
      const input = await proofreadingOrder(true);
      const child = childOf(input.order);
      const { calls, activities } = mockActivities({ retranscribe: () => child });
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        expect(await handle.executeUpdate(rejectTranscriptUpdate)).toEqual({
          order_id: input.order.id,
          status: 'retranscribed',
          retranscribed_order_id: child.id,
        });
        // Skipping time now would time the waiting child out (the test server gives it a 10-year run timeout).
        expect(await noSkip.workflow.getHandle(handle.workflowId).result()).toEqual({ status: 'retranscribed', qualityCheck: 'none' });
        expect(events(calls, input.order.id)).toEqual(['refunded']);

        const childWf = childHandle(input.order);
        const described = await childWf.describe();
        expect(described.status.name).toBe('RUNNING');
        expect(described.typedSearchAttributes.get(SEARCH_ATTRIBUTES.orderId)).toBe(child.id);
        const started = (await childWf.fetchHistory()).events![0]!.workflowExecutionStartedEventAttributes!;
        expect(started.parentWorkflowExecution?.workflowId).toBe(orderWorkflowId(input.order.id));
        // The child's input in the history is encrypted (the workflow's payloads pass the worker's codec).
        const raw = started.input!.payloads![0]!;
        expect(Buffer.from(raw.metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);
        const [input0] = await decodePayloads(dataConverter.payloadCodecs!, [raw]);
        expect(defaultPayloadConverter.fromPayload(input0!)).toMatchObject({ order: { id: child.id }, payment: { by: 'parent' } });
        await waitFor(async () => (await childWf.query(statusQuery)).status === 'paid', 'the child order to be paid');
        expect(await childWf.query(statusQuery)).toEqual({ status: 'paid', qualityCheck: 'none', workingOn: 'operator' });
        expect(calls.chargeWallet.map((c) => c.id)).toEqual([input.order.id, child.id]);
        expect(calls.chargeWallet[1]).toMatchObject({ parentOrderId: input.order.id, product: 'transcription' });

        expect(await complete(childWf, [file('transcription')])).toEqual({ order_id: child.id, status: 'finished' });
        expect(await noSkip.workflow.getHandle(childWf.workflowId).result()).toEqual({ status: 'finished', qualityCheck: 'none' });
      });
      expect(calls.retranscribe).toMatchObject([{ orderId: input.order.id }]);
      expect(calls.refundOrder).toEqual([]);
      expect(events(calls, child.id)).toEqual(['finished']);
    });

    it('without auto_retranscribe a rejected transcript refunds the order', async () => {
      const input = await proofreadingOrder(false);
      const { calls, activities } = mockActivities({ retranscribe: () => childOf(input.order) });
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        expect(await handle.executeUpdate(rejectTranscriptUpdate)).toEqual({ order_id: input.order.id, status: 'refunded' });
        expect(await handle.result()).toEqual({ status: 'refunded', qualityCheck: 'none' });
      });
      expect(calls.retranscribe).toEqual([]);
      expect(calls.refundOrder).toMatchObject([{ orderId: input.order.id, status: 'refunded', reason: expect.stringMatching(/too poor/) }]);
      expect(events(calls, input.order.id)).toEqual(['refunded']);
      await expect(childHandle(input.order).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    });

    it('when the wallet cannot pay for the transcription the order is refunded and no child starts', async () => {
      const input = await proofreadingOrder(true);
      const { calls, activities } = mockActivities({ retranscribe: () => null });
      await withWorker(activities, async (taskQueue) => {
        const handle = await placeOrder(input, taskQueue);
        expect(await handle.executeUpdate(rejectTranscriptUpdate)).toEqual({ order_id: input.order.id, status: 'refunded' });
        expect(await handle.result()).toEqual({ status: 'refunded', qualityCheck: 'none' });
      });
      expect(calls.retranscribe).toMatchObject([{ orderId: input.order.id }]);
      expect(calls.chargeWallet.map((c) => c.id)).toEqual([input.order.id]);
      expect(events(calls, input.order.id)).toEqual(['refunded']);
      await expect(childHandle(input.order).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    });
  });
});

/**
 * Two updates at once on every pair of the order's commands that can race (OrderRun's one mutex,
 * src/workflows/order/state.ts): the first's change is held running (its activity waits), so the
 * second arrives while it runs. Exactly one applies; the other is refused, naming why (a change is
 * running, or the order is no longer in the state it needs); the order settles once, with one
 * callback of its outcome.
 */
describe('updates racing on the time-skipping test server', () => {
  type Update = (handle: Handle) => Promise<unknown>;
  const UPDATES: Record<string, Update> = {
    complete: (handle) => complete(handle, [file('transcription')]),
    refund: (handle) => handle.executeUpdate(refundUpdate, { args: [{ reason: 'asked' }] }),
    cancel: (handle) => handle.executeUpdate(cancelUpdate),
    reject: (handle) => handle.executeUpdate(rejectTranscriptUpdate),
    pass: (handle) => handle.executeUpdate(qualityCheckUpdate, { args: [{ pass: true }] }),
    fix: (handle) => handle.executeUpdate(qualityCheckUpdate, { args: [{ fix: [file('transcription', 'blob-fixed')] }] }),
  };
  const REFUSED = /is changing state; try again|needs a (paid|finished) order|has no open quality check/;

  /** Runs `first` and `second` at once, the first's change held until the second was answered; the outcome of each. */
  async function race(handle: Handle, first: string, second: string, release: () => void) {
    const one = UPDATES[first]!(handle);
    // The second goes once the first's change is running (its activity recorded, then held).
    await new Promise((r) => setTimeout(r, 300));
    const two = await Promise.allSettled([UPDATES[second]!(handle)]);
    release();
    return [...(await Promise.allSettled([one])), ...two];
  }

  const held = () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((r) => (release = r));
    return { gate, release: () => release() };
  };

  it.each([
    ['complete', 'refund'],
    ['complete', 'cancel'],
    ['refund', 'complete'],
    ['refund', 'cancel'],
    ['cancel', 'refund'],
    ['cancel', 'complete'],
    ['complete', 'complete'],
    ['refund', 'refund'],
    ['cancel', 'cancel'],
  ])('%s, then %s while it runs: the first applies, the second is refused; one settlement, one callback', async (first, second) => {
    const { gate, release } = held();
    const { calls, activities } = mockActivities({ settling: () => gate });
    const input = await newInput();
    await withWorker(activities, async (taskQueue) => {
      const handle = await placeOrder(input, taskQueue);
      const [a, b] = await race(handle, first, second, release);
      expect(a!.status, String((a as PromiseRejectedResult).reason)).toBe('fulfilled');
      expect(b!.status).toBe('rejected');
      expect(((b as PromiseRejectedResult).reason as WorkflowUpdateFailedError).cause?.message).toMatch(REFUSED);
      const outcome = await handle.result();
      expect(outcome.status).toBe(first === 'complete' ? 'finished' : first === 'refund' ? 'refunded' : 'canceled');
      expect(calls.finishOrder.length + calls.refundOrder.length).toBe(1);
      expect(events(calls, input.order.id)).toEqual([outcome.status]);
    });
  });

  it.each([
    ['reject', 'complete'],
    ['reject', 'refund'],
    ['complete', 'reject'],
    ['refund', 'reject'],
    ['reject', 'reject'],
  ])('a proofreading order: %s, then %s while it runs: one applies, one is refused', async (first, second) => {
    const { gate, release } = held();
    const { calls, activities } = mockActivities({ settling: () => gate });
    const input = await newInput({ product: 'proofreading', fulfilment: 'proofreading', params: { language: 'english' }, onReject: 'refund' });
    await withWorker(activities, async (taskQueue) => {
      const handle = await placeOrder(input, taskQueue);
      const [a, b] = await race(handle, first, second, release);
      expect(a!.status, String((a as PromiseRejectedResult).reason)).toBe('fulfilled');
      expect(((b as PromiseRejectedResult).reason as WorkflowUpdateFailedError).cause?.message).toMatch(REFUSED);
      const outcome = await handle.result();
      expect(outcome.status).toBe(first === 'complete' ? 'finished' : 'refunded');
      expect(calls.finishOrder.length + calls.refundOrder.length).toBe(1);
      expect(events(calls, input.order.id)).toEqual([outcome.status]);
    });
  });

  it.each([
    ['fix', 'pass'],
    ['pass', 'fix'],
    ['fix', 'fix'],
    ['pass', 'pass'],
  ])('a finished order in its quality check: %s, then %s while it runs: the first decides, the second is refused', async (first, second) => {
    const { gate, release } = held();
    let settled = false;
    const heldOnceFinished = () => (settled ? gate : Promise.resolve());
    const { calls, activities } = mockActivities({ settling: heldOnceFinished, closing: heldOnceFinished });
    const input = await newInput({}, { qualityCheckProbability: 1 });
    await withWorker(activities, async (taskQueue) => {
      const handle = await placeOrder(input, taskQueue);
      expect(await complete(handle, [file('transcription')])).toMatchObject({ status: 'finished', quality_check: 'pending' });
      settled = true;
      const [a, b] = await race(handle, first, second, release);
      expect(a!.status, String((a as PromiseRejectedResult).reason)).toBe('fulfilled');
      expect(((b as PromiseRejectedResult).reason as WorkflowUpdateFailedError).cause?.message).toMatch(REFUSED);
      expect(await handle.result()).toEqual({ status: 'finished', qualityCheck: first === 'fix' ? 'fixed' : 'passed' });
      expect(calls.applyQualityFix).toHaveLength(first === 'fix' ? 1 : 0);
      expect(events(calls, input.order.id)).toEqual(first === 'fix' ? ['finished', 'quality_fix'] : ['finished']);
    });
  });
});
