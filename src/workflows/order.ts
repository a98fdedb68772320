// One workflow per order (`order-<id>`): charge, wait for fulfilment, settle, call back.
// Deterministic code only; every side effect is an activity.
import * as wf from '@temporalio/workflow';
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import type { CallbackEvent } from '../domain/callbacks.js';
import {
  cancelUpdate, completeUpdate, FAILURE_TYPES, placeOrderUpdate, qualityCheckUpdate, refundUpdate, SEARCH_ATTRIBUTES,
  statusQuery, type OrderStatus, type OrderWorkflowInput, type PlacedOrder, type ResultFile, type TransitionResult,
} from './messages.js';
import { resultKindsProblem } from '../domain/results.js';

type Activities = ReturnType<typeof createActivities>;

const records = wf.proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: Object.values(FAILURE_TYPES) },
});

// Each attempt picks its own random delay (nextRetryDelay); 10 attempts in total (spec, Events rule 1).
const callbacks = wf.proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 1 },
});

type QualityCheck = 'none' | 'pending' | 'passed' | 'fixed';
const SETTLED: readonly OrderStatus[] = ['finished', 'refunded', 'canceled'];

export async function orderWorkflow(input: OrderWorkflowInput): Promise<{ status: OrderStatus; qualityCheck: QualityCheck }> {
  const { order } = input;
  let status: OrderStatus = 'awaiting_payment';
  let placed: PlacedOrder | undefined;
  let qualityCheck: QualityCheck = 'none';
  let busy = false;
  const outbox: CallbackEvent[] = [];

  const moveTo = (next: OrderStatus) => {
    status = next;
    wf.upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.status, value: next }]);
  };
  const result = (): TransitionResult => ({ order_id: order.id, status, ...(qualityCheck !== 'none' ? { quality_check: qualityCheck } : {}) });

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

  wf.setHandler(statusQuery, () => ({ status, qualityCheck }));

  wf.setHandler(placeOrderUpdate, async () => {
    if (placed) return placed;
    try {
      placed = await records.placeOrder(order);
    } catch (err) {
      status = 'payment_failed';
      throw updateFailure(err);
    }
    moveTo('paid');
    return placed;
  }, {
    // A charge that starts after the API stopped waiting would surprise the customer.
    validator: () => {
      if (!placed && Date.now() > Date.parse(input.payBy)) {
        throw ApplicationFailure.create({ type: FAILURE_TYPES.paymentExpired, message: `order ${order.id} was not paid in time; nothing was charged`, nonRetryable: true });
      }
    },
  });

  wf.setHandler(completeUpdate, ({ files }) => transition(async () => {
    const picked = Math.random() < input.qualityCheckProbability; // deterministic in workflows
    await records.finishOrder({ orderId: order.id, files, qualityCheck: picked });
    qualityCheck = picked ? 'pending' : 'none';
    moveTo('finished');
    outbox.push('finished');
  }), {
    validator: ({ files }) => {
      requireStatus('completing', 'paid');
      validateFiles(order.product, files, true);
    },
  });

  wf.setHandler(refundUpdate, ({ reason }) => transition(async () => {
    await records.refundOrder({ orderId: order.id, status: 'refunded', reason: reason ?? null });
    moveTo('refunded');
    outbox.push('refunded');
  }), { validator: (_input) => requireStatus('a refund', 'paid') });

  wf.setHandler(cancelUpdate, () => transition(async () => {
    await records.refundOrder({ orderId: order.id, status: 'canceled', reason: 'canceled' });
    moveTo('canceled');
    outbox.push('canceled');
  }), { validator: () => requireStatus('cancellation', 'paid') });

  wf.setHandler(qualityCheckUpdate, (decision) => transition(async () => {
    if ('fix' in decision) {
      await records.applyQualityFix({ orderId: order.id, files: decision.fix });
      qualityCheck = 'fixed';
      outbox.push('quality_fix');
    } else {
      await records.closeQualityCheck({ orderId: order.id, result: 'passed' });
      qualityCheck = 'passed';
    }
  }), {
    validator: (decision) => {
      requireStatus('a quality check', 'finished');
      if (qualityCheck !== 'pending') throw stateFailure(`order ${order.id} has no open quality check (${qualityCheck})`);
      if ('fix' in decision) validateFiles(order.product, decision.fix, false);
    },
  });

  // Update-with-Start delivers placeOrder with the start. After payBy no charge can begin, but
  // one that began in time may still be running: wait for it before deciding.
  await wf.condition(() => status !== 'awaiting_payment', Math.max(1, Date.parse(input.payBy) - Date.now()));
  await wf.condition(wf.allHandlersFinished);
  // (Casts: TypeScript cannot see that handlers change these variables.)
  if ((status as OrderStatus) !== 'paid') {
    return { status: 'payment_failed', qualityCheck };
  }

  for (;;) {
    await wf.condition(() => outbox.length > 0 || (!busy && SETTLED.includes(status)));
    const event = outbox.shift();
    if (event) {
      await deliverCallback(order.id, event);
      continue;
    }
    if ((qualityCheck as QualityCheck) !== 'pending') break;
    const decided = await wf.condition(() => qualityCheck !== 'pending' || busy, input.qualityCheckWindowMs);
    if (!decided) {
      await records.closeQualityCheck({ orderId: order.id, result: 'passed' });
      qualityCheck = 'passed';
    }
  }
  await wf.condition(wf.allHandlersFinished);
  return { status, qualityCheck };
}

async function deliverCallback(orderId: number, event: CallbackEvent): Promise<void> {
  try {
    await callbacks.deliverCallback({ orderId, event });
  } catch (err) {
    // Every attempt is recorded by the activity; the order itself stays settled.
    wf.log.warn('callback delivery gave up', { orderId, event, error: String((err as Error).cause ?? err) });
  }
}

function validateFiles(product: string, files: ResultFile[], completing: boolean): void {
  const problem = resultKindsProblem(product, files.map((f) => f.kind), completing);
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
