// Deleting an order's data from the workers (issue 53): the activity of orderDeletionWorkflow, and the
// timer every settling activity starts for an order with `delete_after_seconds`. Both reach Temporal
// through the worker's own client (the activity context's).
import { Context, log } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { ActivityDeps } from './deps.js';
import { ORDER_DELETION_WORKFLOW, orderDeletionWorkflowId, type OrderDeletionInput } from '../contracts/deletion.js';
import type { OrderRow } from '../db/schema.js';
import { getOrder } from '../db/orders.js';
import { deleteOrderData } from '../orders/deleteOrder.js';

/**
 * Starts the deletion of a settled order's data, delayed until its `delete_after_seconds` from when it
 * settled; once (a repeat of the settling activity finds it started). Nothing for an order without.
 */
export async function scheduleOrderDeletion(order: Pick<OrderRow, 'id' | 'settledAt' | 'deleteAfterSeconds'>): Promise<void> {
  if (order.deleteAfterSeconds === null || !order.settledAt) return;
  const due = order.settledAt.getTime() + order.deleteAfterSeconds * 1000;
  try {
    await Context.current().client.workflow.start(ORDER_DELETION_WORKFLOW, {
      taskQueue: Context.current().info.taskQueue,
      workflowId: orderDeletionWorkflowId(order.id),
      args: [{ orderId: order.id } satisfies OrderDeletionInput],
      startDelay: Math.max(0, due - Date.now()),
    });
    log.info("order's data deletion scheduled", { orderId: order.id, at: new Date(due).toISOString() });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

export function createDeletionActivities(deps: ActivityDeps) {
  return {
    async deleteOrderData({ orderId }: OrderDeletionInput): Promise<void> {
      const order = await getOrder(deps.db, orderId);
      if (order) await deleteOrderData({ ...deps, temporal: Context.current().client }, order, 'schedule');
    },
  };
}
