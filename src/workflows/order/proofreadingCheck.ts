// Fulfilment of proofreading starts with the automatic check: the supplied transcript against the
// speech engine's. One that fails never reaches a person.
import * as wf from '@temporalio/workflow';
import { engineFor, failureReason } from '../activities.js';
import type { WorkbenchOrder } from './humanStages.js';
import type { OrderRun } from './state.js';

/** True unless a proofreading order's supplied transcript fails the check. */
export async function passesAutomaticCheck(run: OrderRun, job: WorkbenchOrder): Promise<boolean> {
  if (run.order.fulfilment !== 'proofreading') return true;
  return suppliedTranscriptPasses(job);
}

/**
 * A proofreading order's automatic check (the supplied transcript against the engine's): false when
 * it fails. Best effort: without an engine, or when the check cannot be made, the people decide.
 */
async function suppliedTranscriptPasses({ order }: WorkbenchOrder): Promise<boolean> {
  try {
    return (await engineFor(order).checkSuppliedTranscript({ orderId: order.id })).verdict !== 'fail';
  } catch (err) {
    if (wf.isCancellation(err)) throw err;
    wf.log.warn('the supplied transcript could not be checked automatically: the people decide', {
      orderId: order.id,
      error: failureReason(err),
    });
    return true;
  }
}
