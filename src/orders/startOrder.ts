// Live order placement: Update-with-Start of the order workflow, whose update charges the wallet.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure } from '@temporalio/common';
import {
  ServiceError,
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import proto from '@temporalio/proto';
import type { OrderParams } from '../products/registry.js';
import { orderWorkflowId, placeOrderUpdate, startSearchAttributes, type OrderWorkflowInput, type PlacedOrder } from '../contracts/orders.js';
import { FAILURE_TYPES, PaymentExpiredError, PaymentUnconfirmedError } from '../contracts/failures.js';
import { log } from '../log.js';

/**
 * Starts the order workflow and charges the wallet through its update. Waits at most
 * `waitMs`; the workflow refuses to charge after its `payBy`, which lies before that.
 */
export async function startAndPayOrder(client: Client, taskQueue: string, input: OrderWorkflowInput<OrderParams>, waitMs: number): Promise<PlacedOrder> {
  const { order } = input;
  // The update names this request's placement, so it can only ever charge the workflow started here.
  const placement = randomUUID();
  const placed: OrderWorkflowInput = input.payment.by === 'customer' ? { ...input, payment: { ...input.payment, placement } } : input;
  // The workflow by its name: the workflow code is a layer below the use cases (docs/architecture.md).
  const start = new WithStartWorkflowOperation<(input: OrderWorkflowInput) => Promise<unknown>>('orderWorkflow', {
    workflowId: orderWorkflowId(order.id),
    taskQueue,
    args: [placed],
    // Order ids come from a database sequence, so an open workflow with the id is normally this
    // order's own: the client repeats Update-with-Start until the update is accepted, and a repeat
    // attaches to the workflow the first round started. One of another placement refuses the update.
    workflowIdConflictPolicy: 'USE_EXISTING',
    // …and an order id is never reused, not even after its workflow closed.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    typedSearchAttributes: startSearchAttributes(order),
  });
  let timer: NodeJS.Timeout | undefined;
  let waiting = true;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PaymentUnconfirmedError(order.id, waitMs)), waitMs);
  });
  const pay = async (): Promise<PlacedOrder> => {
    try {
      return await client.workflow.executeUpdateWithStart(placeOrderUpdate, { args: [placement], startWorkflowOperation: start });
    } catch (err) {
      if (!workflowNotReady(err)) throw err;
    }
    // The workflow started, but the workflow task that was charging died with its worker: the
    // server refuses updates until a worker has run the next task. Ask again while the API waits
    // (the update handler returns the charge already made).
    log('order placement waits for a worker to retry the charging workflow task', { orderId: order.id, workflowId: orderWorkflowId(order.id) });
    return retryCharge(client.workflow.getHandle(orderWorkflowId(order.id)), { orderId: order.id, placement, waitMs }, () => waiting);
  };
  try {
    return await Promise.race([pay(), gaveUp]);
  } catch (err) {
    throw isPaymentExpired(err) ? new PaymentExpiredError(order.id) : err;
  } finally {
    waiting = false;
    clearTimeout(timer);
  }
}

const RETRY_NOT_READY_MS = 500;

/**
 * Asks the order's workflow for `placement`'s charge until a worker runs it, `waiting` turns false
 * (the caller gave up) or the workflow refuses. A workflow that closed meanwhile ran only after its
 * payment window and closed unpaid: the same refusal as its update's (PaymentExpiredError).
 */
export async function retryCharge(
  handle: WorkflowHandle,
  { orderId, placement, waitMs }: { orderId: number; placement: string; waitMs: number },
  waiting: () => boolean,
): Promise<PlacedOrder> {
  for (;;) {
    await sleep(RETRY_NOT_READY_MS);
    if (!waiting()) throw new PaymentUnconfirmedError(orderId, waitMs);
    try {
      return await handle.executeUpdate(placeOrderUpdate, { args: [placement] });
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw await closedWorkflowRefusal(handle, orderId, waitMs);
      if (!workflowNotReady(err)) throw err;
    }
  }
}

/** Why a closed order workflow took no charge: it closed unpaid, or (if it was paid) ask the caller to look. */
async function closedWorkflowRefusal(handle: WorkflowHandle, orderId: number, waitMs: number): Promise<Error> {
  const outcome = (await handle.result().catch(() => undefined)) as { status?: string } | undefined;
  return outcome?.status === 'payment_failed' ? new PaymentExpiredError(orderId) : new PaymentUnconfirmedError(orderId, waitMs);
}

/** The workflow's refusal to begin a charge after the order's payment window. */
function isPaymentExpired(err: unknown): boolean {
  return err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === FAILURE_TYPES.paymentExpired;
}

const FAILED_PRECONDITION = 9; // gRPC status code
const NOT_READY = 'temporal.api.errordetails.v1.WorkflowNotReadyFailure';
const MULTI_OPERATION = 'temporal.api.errordetails.v1.MultiOperationExecutionFailure';

/**
 * The server's "Workflow Task in failed state" refusal of an update (WorkflowNotReadyFailure), as
 * Update-with-Start throws it (the gRPC error itself) or as an update does (a ServiceError around it).
 */
function workflowNotReady(err: unknown): boolean {
  const grpc = (err instanceof ServiceError ? err.cause : err) as { code?: number; metadata?: { get(key: string): unknown[] } } | undefined;
  if (grpc?.code !== FAILED_PRECONDITION || typeof grpc.metadata?.get !== 'function') return false;
  const raw = grpc.metadata.get('grpc-status-details-bin')[0];
  if (!(raw instanceof Uint8Array)) return false;
  const typeOf = (url?: string | null) => url?.replace(/^.*\//, '');
  return proto.google.rpc.Status.decode(raw).details.some((detail) => {
    if (typeOf(detail.type_url) === NOT_READY) return true;
    if (typeOf(detail.type_url) !== MULTI_OPERATION) return false;
    const { statuses } = proto.temporal.api.errordetails.v1.MultiOperationExecutionFailure.decode(detail.value!);
    return statuses.some((status) => status.details?.some((d) => typeOf(d.type_url) === NOT_READY));
  });
}
