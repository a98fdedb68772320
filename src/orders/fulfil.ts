// Fulfilling an order by hand, the use case: an operator completes it with result files, refunds or
// cancels it, rejects a proofreading transcript, or decides its quality check. Each is an update of
// the order's workflow, whose validator has the last word; result files are checked here first (the
// order takes their kinds, each can be served in every format of its kind). The operators' routes
// (api/routes/ops.ts, used by order-ops) are its adapter.
import { ServiceError, WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { RequestError } from '../contracts/failures.js';
import {
  cancelUpdate,
  completeUpdate,
  orderWorkflowId,
  qualityCheckUpdate,
  refundUpdate,
  rejectTranscriptUpdate,
  type ResultFile,
} from '../contracts/orders.js';
import type { Db } from '../db/connection.js';
import { getOrder } from '../db/orders.js';
import type { OrderRow } from '../db/schema.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import { TimingError } from '../domain/render/index.js';
import { resultKindsProblem, resultNeeds, type ResultKind } from '../domain/resultKinds.js';
import { TranscriptImportError } from '../domain/transcript.js';
import { orderResult, orderResultKinds, productOf } from '../products/registry.js';
import type { FileStore } from '../storage/fileStore.js';

export interface FulfilmentDeps {
  db: Db;
  temporal: Client;
  files: FileStore;
  documentReader: DocumentReader;
  log: (message: string, meta: object) => void;
}

export function createFulfilment(deps: FulfilmentDeps) {
  async function requireOrder(orderId: number): Promise<OrderRow> {
    const order = await getOrder(deps.db, orderId);
    if (!order) throw new RequestError(`order ${orderId} not found`);
    return order;
  }

  /** Refuses result files the order does not take, or that cannot be served in every format of their kind. */
  async function checkFiles(order: OrderRow, files: ResultFile[], completing: boolean): Promise<void> {
    const problem = resultKindsProblem(
      orderResultKinds(order),
      files.map((f) => f.kind),
      completing,
    );
    if (problem) throw new RequestError(problem);
    for (const f of files) {
      const bytes = await deps.files.get(f.blobKey).catch(() => {
        throw new RequestError(`files: ${f.blobKey} is not in the file store (upload it with PUT /ops/files)`);
      });
      try {
        const { formats } = orderResult(order, f.kind as ResultKind)!;
        await deps.documentReader.checkResultFile(resultNeeds(f.kind as ResultKind, formats), bytes, f.fileName);
      } catch (err) {
        if (err instanceof TranscriptImportError || err instanceof TimingError) throw new RequestError(`${f.kind} file: ${err.message}`);
        throw err;
      }
    }
  }

  /** Runs an update on the order's workflow; a settled order is named as such. */
  async function updateOrder<T>(orderId: number, update: (handle: WorkflowHandle) => Promise<T>, check?: (order: OrderRow) => Promise<void>): Promise<T> {
    const order = await requireOrder(orderId);
    await check?.(order);
    try {
      const result = await update(deps.temporal.workflow.getHandle(orderWorkflowId(order.id)));
      deps.log('order updated by an operator', { orderId: order.id, accountId: order.accountId, workflowId: orderWorkflowId(order.id) });
      return result;
    } catch (err) {
      // A closed workflow answers updates with "not found".
      if (err instanceof WorkflowNotFoundError) throw new RequestError(`order ${order.id} is ${order.status} and takes no further changes`);
      if (err instanceof ServiceError) {
        // The server gave up on the update (the workflow closing, or its worker lost meanwhile): an
        // order settled by then is named as settled; an open one is a fault worth another try.
        const now = await requireOrder(orderId);
        deps.log("the order's workflow did not take an operator's update", { orderId, status: now.status, cause: String(err.cause ?? err) });
        if (now.status !== 'paid') throw new RequestError(`order ${order.id} is ${now.status} and takes no further changes`);
      }
      throw err;
    }
  }

  return {
    requireOrder,
    complete: (orderId: number, files: ResultFile[]) =>
      updateOrder(
        orderId,
        (h) => h.executeUpdate(completeUpdate, { args: [{ files }] }),
        (order) => checkFiles(order, files, true),
      ),
    refund: (orderId: number, reason?: string) => updateOrder(orderId, (h) => h.executeUpdate(refundUpdate, { args: [{ reason }] })),
    rejectTranscript: (orderId: number) => updateOrder(orderId, (h) => h.executeUpdate(rejectTranscriptUpdate, { args: [] })),
    cancel: (orderId: number) => updateOrder(orderId, (h) => h.executeUpdate(cancelUpdate, { args: [] })),
    qualityCheck: (orderId: number, decision: { pass: true } | { fix: ResultFile[] }) =>
      updateOrder(
        orderId,
        (h) => h.executeUpdate(qualityCheckUpdate, { args: [decision] }),
        'fix' in decision ? (order) => checkFiles(order, decision.fix, false) : undefined,
      ),
  };
}
