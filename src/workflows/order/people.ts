// Fulfilment by people: the workbench's stages; their approved text becomes the order's files,
// unless someone settled the order first.
import * as wf from '@temporalio/workflow';
import { isCancellation } from '@temporalio/workflow';
import { alignerTiming, runWorkbench, type WorkbenchOrder } from './humanStages.js';
import { orderRecords } from '../activities.js';
import { passesAutomaticCheck } from './proofreadingCheck.js';
import type { OrderRun } from './state.js';

export async function runWork(run: OrderRun, job: WorkbenchOrder): Promise<void> {
  const orderId = run.order.id;
  let worked: { text: string; draft: string } | undefined;
  try {
    worked = await run.atWork('people', async () => {
      // Proofreading: a supplied transcript that fails the automatic check never reaches a person.
      if (!(await passesAutomaticCheck(run, job))) return undefined;
      return runWorkbench(job);
    });
  } catch (err) {
    if (!isCancellation(err)) wf.log.error('the workbench stopped; the order waits for an operator', { orderId, error: String(err) });
    return;
  }
  if (!run.is('paid')) return;
  if (worked === undefined) {
    await run
      .settleRejectedTranscript()
      .catch((err) => wf.log.error('the failed transcript could not be refunded or handed on', { orderId, error: String(err) }));
    return;
  }
  const { text, draft } = worked;
  const files = await orderRecords.deliverWork({ orderId, text, draft, ...(await alignerTiming(job, text)) });
  await run.settleByPeople(text, files).catch((err) => wf.log.error('the approved work could not be delivered', { orderId, error: String(err) }));
}
