// An order's data deleted `delete_after_seconds` after it settled (issue 53): the settling activity
// starts this workflow with that start delay (a durable timer, whatever restarts meanwhile); it then
// deletes the data as a customer's request would (src/orders/deleteOrder.ts). Its history holds the
// order's id only.
import * as wf from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import type { OrderDeletionInput } from '../contracts/deletion.js';

const { deleteOrderData } = wf.proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumInterval: '10 minutes' },
});

export async function orderDeletionWorkflow(input: OrderDeletionInput): Promise<void> {
  await deleteOrderData(input);
}
