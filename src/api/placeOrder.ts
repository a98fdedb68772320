// Live order placement: Update-with-Start of the order workflow, whose update charges the wallet.
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceError, WithStartWorkflowOperation, type Client } from '@temporalio/client';
import type { orderWorkflow } from '../workflows/order.js';
import { orderWorkflowId, placeOrderUpdate, startSearchAttributes, type OrderWorkflowInput, type PlacedOrder } from '../contracts/orders.js';
import { PaymentUnconfirmedError } from '../contracts/failures.js';

/**
 * Starts the order workflow and charges the wallet through its update. Waits at most
 * `waitMs`; the workflow refuses to charge after its `payBy`, which lies before that.
 */
export async function startAndPayOrder(client: Client, taskQueue: string, input: OrderWorkflowInput, waitMs: number): Promise<PlacedOrder> {
  const { order } = input;
  const start = new WithStartWorkflowOperation<typeof orderWorkflow>('orderWorkflow', {
    workflowId: orderWorkflowId(order.id),
    taskQueue,
    args: [input],
    // Order ids come from a database sequence, so an open workflow with the id is this order's own:
    // the client repeats Update-with-Start until the update is accepted (after a worker died in the
    // first workflow task, say), and each repeat must attach to the workflow the first one started.
    workflowIdConflictPolicy: 'USE_EXISTING',
    // …and an order id is never reused, not even after its workflow closed.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    typedSearchAttributes: startSearchAttributes(order),
  });
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PaymentUnconfirmedError(order.id, waitMs)), waitMs);
  });
  const pay = async (): Promise<PlacedOrder> => {
    try {
      return await client.workflow.executeUpdateWithStart(placeOrderUpdate, { startWorkflowOperation: start });
    } catch (err) {
      if (!workflowNotReady(err)) throw err;
    }
    // The workflow started, but the workflow task that was charging died with its worker: the
    // server refuses updates until a worker has run the next task. Ask again (the update handler
    // returns the charge already made); `gaveUp` ends the wait.
    const handle = client.workflow.getHandle(orderWorkflowId(order.id));
    for (;;) {
      await sleep(RETRY_NOT_READY_MS);
      try {
        return await handle.executeUpdate(placeOrderUpdate);
      } catch (err) {
        if (!workflowNotReady(err)) throw err;
      }
    }
  };
  try {
    return await Promise.race([pay(), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

const RETRY_NOT_READY_MS = 500;
const FAILED_PRECONDITION = 9; // gRPC status code

/** The server's "workflow task in failed state" (WorkflowNotReadyFailure) refusal of an update. */
function workflowNotReady(err: unknown): boolean {
  return err instanceof ServiceError && (err.cause as { code?: number } | undefined)?.code === FAILED_PRECONDITION;
}
