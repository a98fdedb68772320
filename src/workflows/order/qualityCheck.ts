// A finished order picked for the quality check: a reviewer's edit sends the quality fix (a second
// callback); an approval as it stands passes the check.
import * as wf from '@temporalio/workflow';
import { CancellationScope, isCancellation } from '@temporalio/workflow';
import { alignerTiming, runQualityCheckTask, type WorkbenchOrder } from '../workbench.js';
import { records } from './activities.js';
import type { OrderRun } from './state.js';

export async function runQualityCheck(run: OrderRun, job: WorkbenchOrder, text: string): Promise<void> {
  const orderId = run.order.id;
  let outcome;
  try {
    outcome = await CancellationScope.cancellable(() => {
      run.qualityCheckScope = CancellationScope.current();
      return runQualityCheckTask(job, text, run.desk);
    });
  } catch (err) {
    if (!isCancellation(err)) throw err;
    return;
  } finally {
    run.qualityCheckScope = undefined;
  }
  const fixed = outcome.text.trim() !== text.trim() ? outcome.text : undefined;
  // Timed before the transition: the aligner may take a while, and updates wait on a transition.
  const timing = fixed !== undefined ? await alignerTiming(job, fixed) : {};
  await wf.condition(() => !run.busy);
  if (run.qualityCheck !== 'pending') return;
  await run.transition(async () =>
    fixed !== undefined ? run.fixQualityCheck(await records.deliverWork({ orderId, text: fixed, ...timing })) : run.passQualityCheck(),
  );
  await records.creditWorkers({ orderId });
}

/** Closes a check nobody decided within its window as passed. */
export async function closeUndecidedQualityCheck(run: OrderRun): Promise<void> {
  await run.passQualityCheck();
  run.qualityCheckScope?.cancel();
}
