// A finished order picked for the quality check: a reviewer's edit sends the quality fix (a second
// callback); an approval as it stands passes the check.
import { isCancellation } from '@temporalio/workflow';
import { alignerTiming, runQualityCheckTask, type WorkbenchOrder } from './humanStages.js';
import { orderRecords } from '../activities.js';
import type { OrderRun } from './state.js';

export async function runQualityCheck(run: OrderRun, job: WorkbenchOrder, text: string): Promise<void> {
  const orderId = run.order.id;
  let outcome;
  try {
    outcome = await run.atWork('qualityCheck', () => runQualityCheckTask(job, text));
  } catch (err) {
    if (!isCancellation(err)) throw err;
    return;
  }
  const fixed = outcome.text.trim() !== text.trim() ? outcome.text : undefined;
  // Timed before the decision: the aligner may take a while, and updates are refused while it is made.
  const timing = fixed !== undefined ? await alignerTiming(job, fixed) : {};
  const decided = await run.decideQualityCheck(fixed !== undefined ? () => orderRecords.deliverWork({ orderId, text: fixed, ...timing }) : undefined);
  if (decided) await orderRecords.creditWorkers({ orderId });
}
