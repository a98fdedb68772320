// Fulfilment by a speech engine: its outcome settles the order, unless a person settled it first.
// Faults past the retry budget hand the order to a person; speech no engine can deliver in the
// ordered language goes to a translator in the workbench. Who takes it: src/contracts/handOver.ts.
import * as wf from '@temporalio/workflow';
import { isCancellation } from '@temporalio/workflow';
import { faultHandOver, handOverOf, OPERATOR_WORK, type EngineOutcome, type HandOver } from '../../contracts/handOver.js';
import type { PeopleWork } from '../../contracts/orders.js';
import { engineFor, failureReason, peopleWork } from '../activities.js';
import { runWork } from './people.js';
import type { OrderRun } from './state.js';

export async function runEngine(run: OrderRun): Promise<void> {
  const { order } = run;
  let outcome: EngineOutcome;
  try {
    outcome = await run.atWork('engine', () => engineFor(order).fulfilByEngine({ orderId: order.id }));
  } catch (err) {
    if (isCancellation(err) || !run.is('paid')) return;
    return handToPeople(run, faultHandOver(failureReason(err)));
  }
  if (!run.is('paid')) return;
  if (outcome.outcome === 'unavailable') return handToPeople(run, handOverOf(outcome));
  await run.settleByEngine(outcome).catch((err) => wf.log.error('engine outcome could not be applied', { orderId: order.id, error: String(err) }));
}

/**
 * The order goes to people: completions are taken at once, and the database (order-ops pending)
 * learns it next, so an order is never listed for a person before the workflow accepts their work.
 * A plan runs in the workbench; else an operator takes it.
 */
async function handToPeople(run: OrderRun, handOver: HandOver): Promise<void> {
  const { reason } = handOver;
  await run.handToPeople();
  if (handOver.plan) {
    await reestimateForPeople(run, handOver.people, reason);
    await runWork(run, await run.assignWorkbench(handOver.plan));
    return;
  }
  await peopleWork.handToOperator({ orderId: run.order.id, reason });
  await reestimateForPeople(run, OPERATOR_WORK, handOver.fault ? `the speech engine failed: ${reason}` : reason);
}

/** Handed to people: a delivery estimate from the turnaround of their work, which the lateness timer waits for now. */
async function reestimateForPeople(run: OrderRun, work: PeopleWork, reason: string): Promise<void> {
  await run.moveDeliveryEstimate((await peopleWork.reestimateForPeople({ orderId: run.order.id, work, reason })).deliveryEstimate);
}
