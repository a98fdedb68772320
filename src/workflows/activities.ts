// Every activity the workflows call, with its timeouts and retries: the one place that says how
// long each kind of work may take and how often it is tried. Heartbeats (src/temporal/heartbeats.ts)
// let a crashed worker's activity be retried within seconds.
import * as wf from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import { FAILURE_TYPES } from '../contracts/failures.js';
import { draftTaskQueue, engineDeadlineMs, engineTaskQueue, type CallbackEvent, type OrderToPlace } from '../contracts/orders.js';

type Activities = ReturnType<typeof createActivities>;

/** Why an activity failed, as logs and notes read it: the failure's cause (the activity's own error), else the failure. */
export const failureReason = (err: unknown): string => String(err instanceof Error && err.cause !== undefined ? err.cause : err);

/** The order's own records (finish, refund, quality check, lateness): a typed refusal ends them, a fault is tried 5 times. */
export const orderRecords = wf.proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '15 seconds',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: Object.values(FAILURE_TYPES) },
});

/**
 * Work that must not be given up on (handing an order to a person, a task's claims and outcomes,
 * the workbench's records): the order would be left with nobody on it, or a worker's work unrecorded.
 */
export const peopleWork = wf.proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1 minute' } });

/** One short insert (opening a task): a local activity, inside the workflow task that asks for it. */
export const taskOpening = wf.proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumInterval: '1 minute' } });

/**
 * Engine work on the order's media or source (the engine's fulfilment, drafts, checks, timing), on
 * the engine queue, drafts on theirs (draftFor). One deadline rule: the engine's own
 * (engineDeadlineMs, from the audio and the words) and a minute for it to report; heartbeats find
 * a lost worker.
 */
const engineWorkOn = (taskQueue: string, order: OrderToPlace) =>
  wf.proxyActivities<Activities>({
    taskQueue,
    startToCloseTimeout: engineDeadlineMs(order) + 60_000,
    heartbeatTimeout: '1 minute',
    retry: { maximumAttempts: 4, initialInterval: '5 seconds', backoffCoefficient: 3 },
  });
export const engineFor = (order: OrderToPlace) => engineWorkOn(engineTaskQueue(wf.workflowInfo().taskQueue), order);
/** A draft of people's work: engine work too, on the drafts' own queue (draftTaskQueue). */
export const draftFor = (order: OrderToPlace) => engineWorkOn(draftTaskQueue(wf.workflowInfo().taskQueue), order);

// A charge must not be given up on a fault either: an attempt may have committed before its worker
// died, and an order left payment_failed with its money taken would never be fulfilled or refunded.
// It ends with the charge or a typed refusal; the API stops waiting at payBy + grace (503).
// The charge is one short transaction: as a local activity it runs inside the workflow task that
// accepted the order, with no activity task and no second workflow task (the live order's latency).
// A worker that dies mid-charge loses the workflow task; the next worker runs the charge again and
// the ledger's UNIQUE (order_id, kind) makes that a no-op when the first attempt had committed.
const charging = wf.proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '10 seconds', nonRetryableErrorTypes: Object.values(FAILURE_TYPES) },
});
export const chargeWallet = (order: OrderToPlace) => charging.chargeWallet(order);

// Each attempt picks its own delay (nextRetryDelay: jittered exponential back-off); 10 attempts in total (spec, Events rule 1).
const callbacks = wf.proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 1 },
});

export async function deliverCallback(orderId: number, event: CallbackEvent): Promise<void> {
  try {
    await callbacks.deliverCallback({ orderId, event });
  } catch (err) {
    // Every attempt is recorded by the activity; the order itself stays settled.
    wf.log.warn('callback delivery gave up', { orderId, event, error: failureReason(err) });
  }
}
