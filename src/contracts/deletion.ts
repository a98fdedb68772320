// What the API and the workers share about deleting an order's data (issue 53): the workflow that
// deletes it once `delete_after_seconds` has passed since it settled, started with that delay when
// the order settles, and its id (one per order).

/** The workflow type that deletes an order's data (src/workflows/orderDeletion.ts). */
export const ORDER_DELETION_WORKFLOW = 'orderDeletionWorkflow';

export interface OrderDeletionInput {
  orderId: number;
}

export const orderDeletionWorkflowId = (orderId: number) => `order-deletion-${orderId}`;

/** The longest `delete_after_seconds` taken: about ten years. */
export const MAX_DELETE_AFTER_SECONDS = 10 * 366 * 86_400;
