// Deleting an order's data, the use case (issue 53): on the customer's request (the API's DELETE, the
// account area's Delete button), an operator's (`order-ops delete`), or its `delete_after_seconds`
// (src/workflows/orderDeletion.ts). The record stays for the bill with `deleted_at`; everything the
// customer sent or was made of it goes, everywhere it was:
//   1. Temporal: its workflow's execution is deleted; one still open (a quality-check window, a
//      callback still retrying) is terminated by that first, so nothing replays on what is destroyed
//      next and its callbacks stop (the server drops an open execution at once, a closed one within
//      seconds);
//   2. the database (src/db/orderDeletion.ts): URLs, names, comments, vocabulary, texts, attempts;
//   3. the file store: every blob the order held that no other order holds (src/db/orderBlobs.ts);
//   4. the uploads only deleted orders were placed on.
// Each step can run again: a deletion interrupted anywhere is finished by the next.
import { isGrpcServiceError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { rm } from 'node:fs/promises';
import { RequestError } from '../contracts/failures.js';
import { orderWorkflowId } from '../contracts/orders.js';
import type { Db } from '../db/connection.js';
import { blankOrderData } from '../db/orderDeletion.js';
import { releaseOrderBlobs } from '../db/orderBlobs.js';
import type { OrderRow } from '../db/schema.js';
import { endUpload, uploadsOnlyDeletedOrdersUse } from '../db/uploads.js';
import type { UploadedFiles } from '../net/uploadedFiles.js';
import type { FileStore } from '../storage/fileStore.js';
import { ordersDeleted } from '../metrics.js';
import { log } from '../log.js';

export interface OrderDeletionDeps {
  db: Db;
  files: FileStore;
  temporal: Client;
  uploads?: UploadedFiles;
}

/** Who asked: counted by it (orders_deleted_total). */
export type DeletedBy = 'customer' | 'operator' | 'schedule';

/** The statuses whose data may be deleted: the order is settled, nobody works on it. */
const SETTLED = new Set(['finished', 'refunded', 'canceled', 'retranscribed']);

/** Whether deleteOrderData takes the order: settled, or deleted already (deleting again answers the same). */
export const canDeleteOrderData = (order: Pick<OrderRow, 'status' | 'deletedAt'>): boolean => order.deletedAt !== null || SETTLED.has(order.status);

/** What a deletion's answer says when the order was still open: the customer is told its callbacks stopped. */
export const CLOSED_WORKFLOW_NOTE =
  'The order was still open (a quality check, or a callback still being retried): it was closed, and no further callback will be sent.';

/** An order still in work (or never paid): its data is the work's. */
export class OrderInWorkError extends RequestError {
  constructor(order: OrderRow) {
    super(`the order is ${order.status}; its data can be deleted once it is finished, refunded or canceled`, 409);
  }
}

export interface OrderDeleted {
  order: OrderRow;
  /** Whether its workflow was still open (a quality check's window, a callback still retrying) and was closed. */
  closedWorkflow: boolean;
}

const NOT_FOUND = 5; // gRPC status: the execution is gone already

/** Deletes order `order`'s data (it was looked up for its owner); refuses one in work. */
export async function deleteOrderData(deps: OrderDeletionDeps, order: OrderRow, by: DeletedBy): Promise<OrderDeleted> {
  if (!canDeleteOrderData(order)) throw new OrderInWorkError(order);
  const closedWorkflow = await isOpen(deps.temporal, orderWorkflowId(order.id));
  await deleteExecution(deps.temporal, orderWorkflowId(order.id));
  const blanked = (await blankOrderData(deps.db, order.id))!;
  const blobs = await releaseOrderBlobs(deps.db, order.id, (key) => deps.files.remove(key));
  const uploads = deps.uploads ? await releaseUploads(deps.db, deps.uploads, order.id) : 0;
  if (!order.deletedAt) {
    ordersDeleted.inc({ product: order.product, by });
    // The order's id only: what was deleted is nobody's to read in a log either.
    log('order data deleted', { orderId: order.id, by, blobsRemoved: blobs.removed, blobsShared: blobs.shared, uploads, closedWorkflow });
  }
  return { order: blanked, closedWorkflow };
}

/** Whether the order's workflow is still open (its deletion closes it: the answer says so). */
async function isOpen(temporal: Client, workflowId: string): Promise<boolean> {
  try {
    return (await temporal.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError || (isGrpcServiceError(err) && err.code === NOT_FOUND)) return false;
    throw err;
  }
}

/** Deletes a workflow's execution (terminating it first if it runs): its history is gone. */
async function deleteExecution(temporal: Client, workflowId: string): Promise<void> {
  try {
    await temporal.workflowService.deleteWorkflowExecution({ namespace: temporal.options.namespace, workflowExecution: { workflowId } });
  } catch (err) {
    if (!(isGrpcServiceError(err) && err.code === NOT_FOUND)) throw err;
  }
}

/** Ends the uploads that only deleted orders were placed on, with their bytes; how many. */
async function releaseUploads(db: Db, uploads: UploadedFiles, orderId: number): Promise<number> {
  const ids = await uploadsOnlyDeletedOrdersUse(db, orderId);
  for (const id of ids) {
    await endUpload(db, id, 'terminated');
    await rm(uploads.pathOf(id), { force: true });
  }
  return ids.length;
}
