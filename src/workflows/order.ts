// One workflow per order (`order-<id>`): charge, fulfil (a person, a speech engine, or a
// proofreader who may hand the order on), settle, call back. This file wires the handlers and runs
// the main loop; the state and its transitions are `OrderRun` (order/state.ts), each way of
// fulfilling an order its own module (order/engine.ts, order/people.ts with the proofreading check,
// order/qualityCheck.ts). Deterministic code only; every side effect is an activity. What differs
// between products arrives in the input.
import * as wf from '@temporalio/workflow';
import { ApplicationFailure } from '@temporalio/workflow';
import { FAILURE_TYPES, paymentExpiredMessage } from '../contracts/failures.js';
import {
  cancelUpdate,
  completeUpdate,
  placeOrderUpdate,
  qualityCheckUpdate,
  refundUpdate,
  rejectTranscriptUpdate,
  statusQuery,
  type OrderStatus,
  type OrderWorkflowInput,
  type QualityCheck,
} from '../contracts/orders.js';
import { taskStateQuery } from '../contracts/tasks.js';
import { wireTaskUpdates } from './order/heldTask.js';
import { deliverCallback } from './activities.js';
import { runEngine } from './order/engine.js';
import { stateFailure, validateFiles } from './order/failures.js';
import { watchDeliveryEstimate } from './order/lateness.js';
import { runWork } from './order/people.js';
import { runQualityCheck } from './order/qualityCheck.js';
import { OrderRun } from './order/state.js';

export async function orderWorkflow(input: OrderWorkflowInput): Promise<{ status: OrderStatus; qualityCheck: QualityCheck }> {
  const run = new OrderRun(input, runQualityCheck);
  const { order } = input;
  wireHandlers(run);

  if (input.payment.by === 'parent') {
    // The parent's transaction charged this order; confirming it finds that charge.
    if (!(await run.confirmParentCharge())) return { status: 'payment_failed', qualityCheck: 'none' };
  } else {
    // Update-with-Start delivers placeOrder with the start. After payBy no charge can begin, but
    // one that began in time may still be running: wait for it before deciding.
    await wf.condition(() => !run.is('awaiting_payment'), Math.max(1, Date.parse(input.payment.payBy) - Date.now()));
    await wf.condition(wf.allHandlersFinished);
  }
  if (!run.is('paid')) {
    await run.closeUnpaid();
    return run.outcome();
  }

  await run.startFulfilment();
  const failed = (what: string) => (err: unknown) => wf.log.error(what, { orderId: order.id, error: String(err) });
  void watchDeliveryEstimate(run).catch(failed('the order could not be marked late'));
  if (order.fulfilment === 'engine') {
    void runEngine(run).catch(failed('engine work could not be settled'));
  } else if (order.work) {
    // A product without people's work (none today) waits for order-ops complete.
    void run
      .assignWorkbench(order.work)
      .then((job) => runWork(run, job))
      .catch(failed("the people's work could not be delivered"));
  }

  // Callbacks in order; once settled, an open quality check until it is decided or its window closes.
  for (;;) {
    await wf.condition(() => run.hasCallbacks() || run.isSettled());
    const event = await run.nextCallback();
    if (event) {
      await deliverCallback(order.id, event);
      continue;
    }
    if (!run.qualityCheckOpen) break;
    const decided = await wf.condition(() => !run.qualityCheckOpen || run.changing, run.qualityCheckDueInMs());
    if (!decided) await run.closeUndecidedQualityCheck();
  }
  await wf.condition(wf.allHandlersFinished);
  return run.outcome();
}

/** The query and the updates: operators and the API change the order through these, one transition at a time. */
function wireHandlers(run: OrderRun): void {
  const { order, input } = run;
  wf.setHandler(statusQuery, () => run.state());
  // The workbench's tasks this order holds: claims, submissions, reviews and releases name theirs.
  wf.setHandler(taskStateQuery, (taskId) => run.findTask(taskId).state());
  wireTaskUpdates((taskId) => run.findTask(taskId));

  wf.setHandler(placeOrderUpdate, () => run.charge(), {
    // A charge that starts after the API stopped waiting would surprise the customer.
    validator: (placement) => {
      if (input.payment.by !== 'customer') throw stateFailure(`order ${order.id} is paid by its parent order`);
      if (placement !== undefined && input.payment.placement !== undefined && placement !== input.payment.placement) {
        throw stateFailure(`order id ${order.id} belongs to another order placed earlier (was the database reset while Temporal kept its workflows?)`);
      }
      if (!run.isPlaced && Date.now() > Date.parse(input.payment.payBy)) {
        throw ApplicationFailure.create({
          type: FAILURE_TYPES.paymentExpired,
          message: paymentExpiredMessage(order.id),
          nonRetryable: true,
        });
      }
    },
  });

  wf.setHandler(completeUpdate, ({ files }) => run.complete(files), {
    validator: ({ files }) => {
      run.requireStatus('completing', 'paid');
      if (run.engineAtWork) throw stateFailure(`a speech engine is working on order ${order.id}; refund or cancel it, or wait`);
      validateFiles(order.resultKinds, files, true);
    },
  });

  wf.setHandler(refundUpdate, ({ reason }) => run.refundOrCancel('refunded', reason ?? null), {
    validator: (_input) => run.requireStatus('a refund', 'paid'),
  });

  wf.setHandler(cancelUpdate, () => run.refundOrCancel('canceled', 'canceled'), {
    validator: () => run.requireStatus('cancellation', 'paid'),
  });

  wf.setHandler(rejectTranscriptUpdate, () => run.rejectTranscript(), {
    validator: () => {
      run.requireStatus('rejecting the transcript', 'paid');
      if (order.fulfilment !== 'proofreading') throw stateFailure(`order ${order.id} is not a proofreading order`);
    },
  });

  wf.setHandler(qualityCheckUpdate, (decision) => run.qualityCheckDecision(decision), {
    validator: (decision) => {
      run.requireStatus('a quality check', 'finished');
      if (!run.qualityCheckOpen) throw stateFailure(`order ${order.id} has no open quality check (${run.state().qualityCheck})`);
      if ('fix' in decision) validateFiles(order.resultKinds, decision.fix, false);
    },
  });
}
