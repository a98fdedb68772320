// One workflow per order (`order-<id>`): charge, fulfil (a person, a speech engine, or a
// proofreader who may hand the order on), settle, call back. Deterministic code only; every
// side effect is an activity. What differs between products arrives in the input.
import * as wf from '@temporalio/workflow';
import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation, ParentClosePolicy } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { createActivities } from '../activities/index.js';
import type { EngineOutcome } from '../activities/engines.js';
import { FAILURE_TYPES } from '../contracts/failures.js';
import {
  cancelUpdate,
  completeUpdate,
  engineDeadlineMs,
  engineTaskQueue,
  orderWorkflowId,
  placeOrderUpdate,
  qualityCheckUpdate,
  refundUpdate,
  rejectTranscriptUpdate,
  SEARCH_ATTRIBUTES,
  startSearchAttributes,
  statusQuery,
  type CallbackEvent,
  type OrderState,
  type OrderStatus,
  type OrderToPlace,
  type OrderWorkflowInput,
  type PlacedOrder,
  type QualityCheck,
  type ResultFile,
  type TransitionResult,
} from '../contracts/orders.js';
import { resultKindsProblem } from '../domain/resultKinds.js';
import { alignerTiming, runQualityCheckTask, runWorkbench, suppliedTranscriptPasses, type WorkbenchOrder } from './workbench.js';
import { patched } from './patches.js';

type Activities = ReturnType<typeof createActivities>;

// Heartbeats (src/temporal/heartbeats.ts) let a crashed worker's activity be retried within seconds.
const records = wf.proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '15 seconds',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: Object.values(FAILURE_TYPES) },
});

// A charge must not be given up on a fault either: an attempt may have committed before its worker
// died, and an order left payment_failed with its money taken would never be fulfilled or refunded.
// It ends with the charge or a typed refusal; the API stops waiting at payBy + grace (503).
const chargeRetry = { maximumInterval: '10 seconds', nonRetryableErrorTypes: Object.values(FAILURE_TYPES) } as const;
const chargeAsActivity = wf.proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: '15 seconds', retry: chargeRetry });
// The charge is one short transaction: as a local activity it runs inside the workflow task that
// accepted the order, with no activity task and no second workflow task (the live order's latency).
// A worker that dies mid-charge loses the workflow task; the next worker runs the charge again and
// the ledger's UNIQUE (order_id, kind) makes that a no-op when the first attempt had committed.
const chargeLocally = wf.proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: chargeRetry });
/** Orders placed before the local charge replay with the activity they were charged by. */
const chargeWallet = (order: OrderToPlace) => (patched('chargeLocalActivity') ? chargeLocally : chargeAsActivity).chargeWallet(order);

// Handing an order to a person must not give up: the order would be left with nobody on it.
const handOver = wf.proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumInterval: '1 minute' } });

// Each attempt picks its own delay (nextRetryDelay: jittered exponential back-off); 10 attempts in total (spec, Events rule 1).
const callbacks = wf.proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 1 },
});

const SETTLED: readonly OrderStatus[] = ['finished', 'refunded', 'canceled', 'retranscribed'];

export async function orderWorkflow(input: OrderWorkflowInput): Promise<{ status: OrderStatus; qualityCheck: QualityCheck }> {
  const { order } = input;
  let status: OrderStatus = 'awaiting_payment';
  let placed: PlacedOrder | undefined;
  let qualityCheck: QualityCheck = 'none';
  let workingOn: OrderState['workingOn'] = 'nobody';
  let engineScope: CancellationScope | undefined;
  /** The workbench's tasks and the quality check's task, cancelled when the order settles otherwise. */
  let workScope: CancellationScope | undefined;
  let qualityCheckScope: CancellationScope | undefined;
  /** The text people delivered (workbench orders): what a quality check reviews. */
  let deliveredText: string | undefined;
  let workbench: WorkbenchOrder | undefined;
  let retranscribedOrderId: number | undefined;
  /** When an open quality check closes as passed: the window counts from the finish. */
  let qualityCheckDeadline = 0;
  let busy = false;
  const outbox: CallbackEvent[] = [];

  const moveTo = (next: OrderStatus) => {
    status = next;
    wf.upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.status, value: next }]);
  };
  const result = (): TransitionResult => ({
    order_id: order.id,
    status,
    ...(qualityCheck !== 'none' ? { quality_check: qualityCheck } : {}),
    ...(retranscribedOrderId !== undefined ? { retranscribed_order_id: retranscribedOrderId } : {}),
  });

  /** Runs one state transition at a time; update validators reject others while it runs. */
  const transition = async (work: () => Promise<void>): Promise<TransitionResult> => {
    busy = true;
    try {
      await work();
      return result();
    } catch (err) {
      throw updateFailure(err);
    } finally {
      busy = false;
    }
  };
  const requireStatus = (action: string, needed: OrderStatus) => {
    if (busy) throw stateFailure(`order ${order.id} is changing state; try again`);
    if (status !== needed) throw stateFailure(`order ${order.id} is ${status}; ${action} needs a ${needed} order`);
  };

  const finish = async (files: ResultFile[]) => {
    const picked = Math.random() < input.qualityCheckProbability; // deterministic in workflows
    await records.finishOrder({ orderId: order.id, files, qualityCheck: picked });
    qualityCheck = picked ? 'pending' : 'none';
    qualityCheckDeadline = Date.now() + input.qualityCheckWindowMs;
    workScope?.cancel();
    workingOn = 'nobody';
    moveTo('finished');
    outbox.push('finished');
    if (picked && workbench && deliveredText !== undefined) {
      void runQualityCheck(workbench, deliveredText).catch((err) => wf.log.error('the quality check task failed', { orderId: order.id, error: String(err) }));
    }
  };
  const refund = async (next: 'refunded' | 'canceled', reason: string | null) => {
    await records.refundOrder({ orderId: order.id, status: next, reason });
    // Only once the money is back: a refund that failed leaves the engine (or the people) working.
    engineScope?.cancel();
    workScope?.cancel();
    workingOn = 'nobody';
    moveTo(next);
    outbox.push(next);
  };

  wf.setHandler(statusQuery, () => ({ status, qualityCheck, workingOn }));

  wf.setHandler(
    placeOrderUpdate,
    async () => {
      if (placed) return placed;
      try {
        placed = await chargeWallet(order);
      } catch (err) {
        moveTo('payment_failed');
        throw updateFailure(err);
      }
      moveTo('paid');
      return placed;
    },
    {
      // A charge that starts after the API stopped waiting would surprise the customer.
      validator: (placement) => {
        if (input.payment.by !== 'customer') throw stateFailure(`order ${order.id} is paid by its parent order`);
        if (placement !== undefined && input.payment.placement !== undefined && placement !== input.payment.placement) {
          throw stateFailure(`order id ${order.id} belongs to another order placed earlier (was the database reset while Temporal kept its workflows?)`);
        }
        if (!placed && Date.now() > Date.parse(input.payment.payBy)) {
          throw ApplicationFailure.create({
            type: FAILURE_TYPES.paymentExpired,
            message: `order ${order.id} was not paid in time; nothing was charged`,
            nonRetryable: true,
          });
        }
      },
    },
  );

  wf.setHandler(completeUpdate, ({ files }) => transition(() => finish(files)), {
    validator: ({ files }) => {
      requireStatus('completing', 'paid');
      if (workingOn === 'engine') throw stateFailure(`a speech engine is working on order ${order.id}; refund or cancel it, or wait`);
      validateFiles(order.resultKinds, files, true);
    },
  });

  wf.setHandler(refundUpdate, ({ reason }) => transition(() => refund('refunded', reason ?? null)), {
    validator: (_input) => requireStatus('a refund', 'paid'),
  });

  wf.setHandler(cancelUpdate, () => transition(() => refund('canceled', 'canceled')), {
    validator: () => requireStatus('cancellation', 'paid'),
  });

  // Orders placed before onReject was on the order decide by the parameter, as they did.
  const handsOff = order.onReject !== undefined ? order.onReject === 'hand_off' : order.params.auto_retranscribe === true;
  /** The supplied transcript is too poor to proofread: refunded, or handed on to a human transcription. */
  async function rejectSuppliedTranscript(): Promise<void> {
    if (!handsOff) return refund('refunded', 'the supplied transcript is too poor to proofread');
    const child = await records.retranscribe({ orderId: order.id });
    workScope?.cancel();
    if (child) {
      await startChildOrder(child, input);
      retranscribedOrderId = child.id;
    }
    workingOn = 'nobody';
    moveTo(child ? 'retranscribed' : 'refunded');
    outbox.push('refunded');
  }
  wf.setHandler(rejectTranscriptUpdate, () => transition(rejectSuppliedTranscript), {
    validator: () => {
      requireStatus('rejecting the transcript', 'paid');
      if (order.fulfilment !== 'proofreading') throw stateFailure(`order ${order.id} is not a proofreading order`);
    },
  });

  wf.setHandler(
    qualityCheckUpdate,
    (decision) =>
      transition(async () => {
        if ('fix' in decision) {
          await records.applyQualityFix({ orderId: order.id, files: decision.fix });
          qualityCheck = 'fixed';
          outbox.push('quality_fix');
        } else {
          await records.closeQualityCheck({ orderId: order.id, result: 'passed' });
          qualityCheck = 'passed';
        }
        qualityCheckScope?.cancel();
      }),
    {
      validator: (decision) => {
        requireStatus('a quality check', 'finished');
        if (qualityCheck !== 'pending') throw stateFailure(`order ${order.id} has no open quality check (${qualityCheck})`);
        if ('fix' in decision) validateFiles(order.resultKinds, decision.fix, false);
      },
    },
  );

  if (input.payment.by === 'parent') {
    // The parent's transaction charged this order; confirming it finds that charge.
    try {
      placed = await chargeWallet(order);
      moveTo('paid');
    } catch (err) {
      wf.log.error('a child order could not confirm its charge', { orderId: order.id, error: String(err) });
      return { status: 'payment_failed', qualityCheck };
    }
  } else {
    // Update-with-Start delivers placeOrder with the start. After payBy no charge can begin, but
    // one that began in time may still be running: wait for it before deciding.
    await wf.condition(() => status !== 'awaiting_payment', Math.max(1, Date.parse(input.payment.payBy) - Date.now()));
    await wf.condition(wf.allHandlersFinished);
  }
  // (Casts: TypeScript cannot see that handlers change these variables.)
  if ((status as OrderStatus) !== 'paid') {
    if ((status as OrderStatus) !== 'payment_failed') moveTo('payment_failed');
    return { status: 'payment_failed', qualityCheck };
  }

  workingOn = order.fulfilment === 'engine' ? 'engine' : 'operator';
  // Orders that were paid before this change replay without the timer.
  if (patched('lateOrderTimer') && placed) {
    const estimate = placed.deliveryEstimate;
    void watchDeliveryEstimate(estimate).catch((err) => wf.log.error('the order could not be marked late', { orderId: order.id, error: String(err) }));
  }
  if (order.fulfilment === 'engine') {
    void runEngine().catch((err) => wf.log.error('engine work could not be settled', { orderId: order.id, error: String(err) }));
  } else if (order.work && input.workbench && patched('workbench')) {
    // Orders placed before the workbench carry no plan and wait for order-ops complete, as they did.
    workbench = { order: { ...order, work: order.work }, settings: input.workbench, deadline: workDeadline() };
    void runWork(workbench).catch((err) => wf.log.error("the people's work could not be delivered", { orderId: order.id, error: String(err) }));
  }

  /** When the people's work is due: the order's delivery estimate. */
  function workDeadline(): string {
    return placed?.deliveryEstimate ?? new Date(Date.now() + order.turnaroundHours * 3_600_000).toISOString();
  }

  /** The workbench's stages; their approved text becomes the order's files, unless a person settled it first. */
  async function runWork(job: WorkbenchOrder): Promise<void> {
    let worked: { text: string; draft: string } | undefined;
    try {
      worked = await CancellationScope.cancellable(async () => {
        workScope = CancellationScope.current();
        // Proofreading: a supplied transcript that fails the automatic check never reaches a person.
        if (order.fulfilment === 'proofreading' && patched('automaticTranscriptCheck') && !(await suppliedTranscriptPasses(job))) return undefined;
        return runWorkbench(job);
      });
    } catch (err) {
      if (!isCancellation(err)) wf.log.error('the workbench stopped; the order waits for an operator', { orderId: order.id, error: String(err) });
      return;
    } finally {
      workScope = undefined;
    }
    if ((status as OrderStatus) !== 'paid') return;
    if (worked === undefined) {
      await wf.condition(() => !busy);
      if ((status as OrderStatus) !== 'paid') return;
      await transition(rejectSuppliedTranscript).catch((err) =>
        wf.log.error('the failed transcript could not be refunded or handed on', { orderId: order.id, error: String(err) }),
      );
      return;
    }
    const { text, draft } = worked;
    const files = await records.deliverWork({ orderId: order.id, text, draft, ...(await alignerTiming(job, text)) });
    await wf.condition(() => !busy);
    if ((status as OrderStatus) !== 'paid') return;
    deliveredText = text;
    await transition(() => finish(files)).catch((err) => wf.log.error('the approved work could not be delivered', { orderId: order.id, error: String(err) }));
  }

  /** A reviewer's edit sends the quality fix (a second callback); an approval as it stands passes the check. */
  async function runQualityCheck(job: WorkbenchOrder, text: string): Promise<void> {
    let outcome;
    try {
      outcome = await CancellationScope.cancellable(() => {
        qualityCheckScope = CancellationScope.current();
        return runQualityCheckTask(job, text);
      });
    } catch (err) {
      if (!isCancellation(err)) throw err;
      return;
    } finally {
      qualityCheckScope = undefined;
    }
    const fixed = outcome.text.trim() !== text.trim() ? outcome.text : undefined;
    // Timed before the transition: the aligner may take a while, and updates wait on a transition.
    const timing = fixed !== undefined ? await alignerTiming(job, fixed) : {};
    await wf.condition(() => !busy);
    if ((qualityCheck as QualityCheck) !== 'pending') return;
    await transition(async () => {
      if (fixed !== undefined) {
        await records.applyQualityFix({ orderId: order.id, files: await records.deliverWork({ orderId: order.id, text: fixed, ...timing }) });
        qualityCheck = 'fixed';
        outbox.push('quality_fix');
      } else {
        await records.closeQualityCheck({ orderId: order.id, result: 'passed' });
        qualityCheck = 'passed';
      }
    });
    await records.creditWorkers({ orderId: order.id });
  }

  /**
   * Beside the order's life, never blocking it: settled before the delivery estimate, the timer is
   * cancelled (wf.condition's own scope) and nothing happens; still paid when it fires, the order is
   * marked late once: search attribute OrderLate, a warning, and `late_at` in the database.
   */
  async function watchDeliveryEstimate(estimate: string): Promise<void> {
    const settled = await wf.condition(() => status !== 'paid', Math.max(1, Date.parse(estimate) - Date.now()));
    if (settled || (status as OrderStatus) !== 'paid') return;
    wf.upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.late, value: true }]);
    wf.log.warn('order is late: still open at its delivery estimate', { orderId: order.id, deliveryEstimate: estimate });
    await records.markOrderLate({ orderId: order.id });
  }

  /** The engine's outcome settles the order, unless a person settled it first. */
  async function runEngine(): Promise<void> {
    const engine = wf.proxyActivities<Activities>({
      taskQueue: engineTaskQueue(wf.workflowInfo().taskQueue),
      startToCloseTimeout: engineDeadlineMs(order.seconds) + 60_000,
      heartbeatTimeout: '1 minute',
      retry: { maximumAttempts: 4, initialInterval: '5 seconds', backoffCoefficient: 3 },
    });
    let outcome: EngineOutcome;
    try {
      outcome = await CancellationScope.cancellable(() => {
        engineScope = CancellationScope.current();
        return engine.fulfilByEngine({ orderId: order.id });
      });
    } catch (err) {
      if (isCancellation(err) || (status as OrderStatus) !== 'paid') return;
      // Faults past the retry budget: the order is not lost, a person takes it over.
      workingOn = 'operator';
      await handOver.handToOperator({ orderId: order.id, reason: String((err as Error).cause ?? err) });
      return;
    } finally {
      engineScope = undefined;
    }
    if ((status as OrderStatus) !== 'paid') return;
    if (outcome.outcome === 'unavailable') {
      // Takes completions at once; the database (order-ops pending) learns it next, so an order
      // is never listed for a person before the workflow accepts their work.
      workingOn = 'operator';
      // Speech no engine translates: a translator in the workbench, from the engine's transcript.
      if (outcome.translator && input.workbench && patched('aiTranslationInWorkbench')) {
        workbench = { order: { ...order, work: outcome.translator }, settings: input.workbench, deadline: workDeadline() };
        await runWork(workbench);
        return;
      }
      if (patched('handOverFromWorkflow')) await handOver.handToOperator({ orderId: order.id, reason: outcome.reason ?? 'no engine is configured' });
      return;
    }
    await wf.condition(() => !busy);
    if ((status as OrderStatus) !== 'paid') return;
    const settled = outcome;
    await transition(() => (settled.outcome === 'finished' ? finish(settled.files) : refund('refunded', settled.reason))).catch((err) =>
      wf.log.error('engine outcome could not be applied', { orderId: order.id, error: String(err) }),
    );
  }

  for (;;) {
    await wf.condition(() => outbox.length > 0 || (!busy && SETTLED.includes(status)));
    const event = outbox.shift();
    if (event) {
      await deliverCallback(order.id, event);
      continue;
    }
    if ((qualityCheck as QualityCheck) !== 'pending') break;
    const decided = await wf.condition(() => qualityCheck !== 'pending' || busy, Math.max(1, qualityCheckDeadline - Date.now()));
    if (!decided) {
      await records.closeQualityCheck({ orderId: order.id, result: 'passed' });
      qualityCheck = 'passed';
      qualityCheckScope?.cancel();
    }
  }
  await wf.condition(wf.allHandlersFinished);
  return { status, qualityCheck };
}

/** Starts the order that replaces a proofreading order; it lives on after its parent closes. */
async function startChildOrder(child: OrderToPlace, parent: OrderWorkflowInput): Promise<void> {
  // A rejection retried after the child started finds it started: that is the hand-off done.
  await wf
    .startChild(orderWorkflow, {
      workflowId: orderWorkflowId(child.id),
      args: [{ ...parent, order: child, payment: { by: 'parent' } }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: startSearchAttributes(child),
    })
    .catch((err) => {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    });
}

async function deliverCallback(orderId: number, event: CallbackEvent): Promise<void> {
  try {
    // Since the back-off, the activity spreads the attempts over more than a day; workflows started
    // before it replay without the field and keep their random pauses.
    await callbacks.deliverCallback({ orderId, event, ...(patched('callbackBackoff') ? { schedule: 'backoff' as const } : {}) });
  } catch (err) {
    // Every attempt is recorded by the activity; the order itself stays settled.
    wf.log.warn('callback delivery gave up', { orderId, event, error: String((err as Error).cause ?? err) });
  }
}

function validateFiles(orderKinds: readonly string[], files: ResultFile[], completing: boolean): void {
  const problem = resultKindsProblem(
    orderKinds,
    files.map((f) => f.kind),
    completing,
  );
  if (problem) throw stateFailure(problem);
}

function stateFailure(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: FAILURE_TYPES.orderState, message, nonRetryable: true });
}

/** Keeps an activity's typed failure (type and message) as the update's failure. */
function updateFailure(err: unknown): ApplicationFailure {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    return ApplicationFailure.create({ type: cause.type ?? undefined, message: cause.message, nonRetryable: true });
  }
  return ApplicationFailure.create({ type: 'Internal', message: 'the order could not be updated; try again', nonRetryable: true });
}
