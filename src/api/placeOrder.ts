// Live order placement: Update-with-Start of the order workflow, whose update charges the wallet.
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
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
    // Order ids come from a database sequence: an existing workflow with the id is a fault.
    workflowIdConflictPolicy: 'FAIL',
    // …and an order id is never reused, not even after its workflow closed.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    typedSearchAttributes: startSearchAttributes(order),
  });
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PaymentUnconfirmedError(order.id, waitMs)), waitMs);
  });
  try {
    return await Promise.race([client.workflow.executeUpdateWithStart(placeOrderUpdate, { startWorkflowOperation: start }), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
