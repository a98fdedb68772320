// The activities an order's workflow calls, with their timeouts and retries.
import * as wf from '@temporalio/workflow';
import type { createActivities } from '../../activities/index.js';
import { FAILURE_TYPES } from '../../contracts/failures.js';
import type { CallbackEvent, OrderToPlace } from '../../contracts/orders.js';
import { patched } from '../patches.js';

type Activities = ReturnType<typeof createActivities>;

// Heartbeats (src/temporal/heartbeats.ts) let a crashed worker's activity be retried within seconds.
export const records = wf.proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '15 seconds',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: Object.values(FAILURE_TYPES) },
});

// A charge must not be given up on a fault either: an attempt may have committed before its worker
// died, and an order left payment_failed with its money taken would never be fulfilled or refunded.
// It ends with the charge or a typed refusal; the API stops waiting at payBy + grace (503).
const chargeRetry = { maximumInterval: '10 seconds', nonRetryableErrorTypes: Object.values(FAILURE_TYPES) } as const;
const chargeAsActivity = wf.proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: '15 seconds', retry: chargeRetry });
// The charge is one short transaction: as a local activity it runs inside the workflow task that
// accepted the order, with no activity task and no second workflow task (the live order's latency).
// A worker that dies mid-charge loses the workflow task; the next worker runs the charge again and
// the ledger's UNIQUE (order_id, kind) makes that a no-op when the first attempt had committed.
const chargeLocally = wf.proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: chargeRetry });
/** Orders placed before the local charge replay with the activity they were charged by. */
export const chargeWallet = (order: OrderToPlace) => (patched('chargeLocalActivity') ? chargeLocally : chargeAsActivity).chargeWallet(order);

// Handing an order to a person must not give up: the order would be left with nobody on it.
export const handOver = wf.proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumInterval: '1 minute' } });

// Each attempt picks its own delay (nextRetryDelay: jittered exponential back-off); 10 attempts in total (spec, Events rule 1).
const callbacks = wf.proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second', backoffCoefficient: 1 },
});

export async function deliverCallback(orderId: number, event: CallbackEvent): Promise<void> {
  try {
    // Since the back-off, the activity spreads the attempts over more than a day; workflows started
    // before it replay without the field and keep their random pauses.
    await callbacks.deliverCallback({ orderId, event, ...(patched('callbackBackoff') ? { schedule: 'backoff' as const } : {}) });
  } catch (err) {
    // Every attempt is recorded by the activity; the order itself stays settled.
    wf.log.warn('callback delivery gave up', { orderId, event, error: String((err as Error).cause ?? err) });
  }
}
