// Fulfilment by a speech engine: its outcome settles the order, unless a person settled it first.
// Faults past the retry budget hand the order to a person; speech no engine can deliver in the
// ordered language goes to a translator in the workbench.
import * as wf from '@temporalio/workflow';
import { CancellationScope, isCancellation } from '@temporalio/workflow';
import type { createActivities } from '../../activities/index.js';
import type { EngineOutcome } from '../../activities/engines.js';
import { engineDeadlineMs, engineTaskQueue, type PeopleWork } from '../../contracts/orders.js';
import { patched } from '../patches.js';
import { handOver } from './activities.js';
import { runWork } from './people.js';
import type { OrderRun } from './state.js';

type Activities = ReturnType<typeof createActivities>;

export async function runEngine(run: OrderRun): Promise<void> {
  const { order, input } = run;
  const engine = wf.proxyActivities<Activities>({
    taskQueue: engineTaskQueue(wf.workflowInfo().taskQueue),
    startToCloseTimeout: engineDeadlineMs(order.seconds) + 60_000,
    heartbeatTimeout: '1 minute',
    retry: { maximumAttempts: 4, initialInterval: '5 seconds', backoffCoefficient: 3 },
  });
  let outcome: EngineOutcome;
  try {
    outcome = await CancellationScope.cancellable(() => {
      run.engineScope = CancellationScope.current();
      return engine.fulfilByEngine({ orderId: order.id });
    });
  } catch (err) {
    if (isCancellation(err) || !run.is('paid')) return;
    // Faults past the retry budget: the order is not lost, a person takes it over.
    run.workingOn = 'operator';
    const reason = String((err as Error).cause ?? err);
    await handOver.handToOperator({ orderId: order.id, reason });
    await reestimateForPeople(run, 'transcriber', `the speech engine failed: ${reason}`);
    return;
  } finally {
    run.engineScope = undefined;
  }
  if (!run.is('paid')) return;
  if (outcome.outcome === 'unavailable') {
    // Takes completions at once; the database (order-ops pending) learns it next, so an order
    // is never listed for a person before the workflow accepts their work.
    run.workingOn = 'operator';
    // Speech no engine translates, or a transcript the gate held back: a person in the workbench,
    // from the engine's transcript. (`people` is absent from outcomes recorded before the gate.)
    if (outcome.translator && input.workbench && patched('aiTranslationInWorkbench')) {
      await reestimateForPeople(run, outcome.people ?? 'translator', outcome.reason ?? 'no engine translates this speech into the language ordered');
      run.workbench = { order: { ...order, work: outcome.translator }, settings: input.workbench, deadline: run.workDeadline() };
      await runWork(run, run.workbench);
      return;
    }
    const reason = outcome.reason ?? 'no engine is configured';
    if (patched('handOverFromWorkflow')) await handOver.handToOperator({ orderId: order.id, reason });
    await reestimateForPeople(run, 'transcriber', reason);
    return;
  }
  if (!(await run.stillPaidWhenFree())) return;
  const settled = outcome;
  await run
    .transition(() => (settled.outcome === 'finished' ? run.finish(settled.files) : run.refund('refunded', settled.reason)))
    .catch((err) => wf.log.error('engine outcome could not be applied', { orderId: order.id, error: String(err) }));
}

/**
 * Handed to people: a delivery estimate from the turnaround of their work, which the lateness
 * timer waits for now. Orders handed over before this patch keep the machine's estimate.
 */
async function reestimateForPeople(run: OrderRun, work: PeopleWork, reason: string): Promise<void> {
  if (!patched('reestimateForPeople')) return;
  run.deliveryEstimate = (await handOver.reestimateForPeople({ orderId: run.order.id, work, reason })).deliveryEstimate;
}
