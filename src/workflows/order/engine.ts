// Fulfilment by a speech engine: its outcome settles the order, unless a person settled it first.
// Faults past the retry budget hand the order to a person; speech no engine can deliver in the
// ordered language goes to a translator in the workbench.
import * as wf from '@temporalio/workflow';
import { isCancellation } from '@temporalio/workflow';
import type { EngineOutcome } from '../../activities/engines.js';
import type { PeopleWork } from '../../contracts/orders.js';
import { patched } from '../patches.js';
import { engineFor, persistent } from '../activities.js';
import { runWork } from './people.js';
import type { OrderRun } from './state.js';

export async function runEngine(run: OrderRun): Promise<void> {
  const { order } = run;
  let outcome: EngineOutcome;
  try {
    outcome = await run.atWork('engine', () => engineFor(order).fulfilByEngine({ orderId: order.id }));
  } catch (err) {
    if (isCancellation(err) || !run.is('paid')) return;
    // Faults past the retry budget: the order is not lost, a person takes it over.
    run.handToPeople();
    const reason = String((err as Error).cause ?? err);
    await persistent.handToOperator({ orderId: order.id, reason });
    await reestimateForPeople(run, 'transcriber', `the speech engine failed: ${reason}`);
    return;
  }
  if (!run.is('paid')) return;
  if (outcome.outcome === 'unavailable') {
    // Takes completions at once; the database (order-ops pending) learns it next, so an order
    // is never listed for a person before the workflow accepts their work.
    run.handToPeople();
    // Speech no engine translates, or a transcript the gate held back: a person in the workbench,
    // from the engine's transcript. (`people` is absent from outcomes recorded before the gate.)
    if (outcome.translator && run.input.workbench && patched('aiTranslationInWorkbench')) {
      await reestimateForPeople(run, outcome.people ?? 'translator', outcome.reason ?? 'no engine translates this speech into the language ordered');
      const job = run.assignWorkbench(outcome.translator);
      if (job) await runWork(run, job);
      return;
    }
    const reason = outcome.reason ?? 'no engine is configured';
    if (patched('handOverFromWorkflow')) await persistent.handToOperator({ orderId: order.id, reason });
    await reestimateForPeople(run, 'transcriber', reason);
    return;
  }
  await run.settleByEngine(outcome).catch((err) => wf.log.error('engine outcome could not be applied', { orderId: order.id, error: String(err) }));
}

/**
 * Handed to people: a delivery estimate from the turnaround of their work, which the lateness
 * timer waits for now. Orders handed over before this patch keep the machine's estimate.
 */
async function reestimateForPeople(run: OrderRun, work: PeopleWork, reason: string): Promise<void> {
  if (!patched('reestimateForPeople')) return;
  run.moveDeliveryEstimate((await persistent.reestimateForPeople({ orderId: run.order.id, work, reason })).deliveryEstimate);
}
