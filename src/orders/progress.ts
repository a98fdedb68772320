// An order's progress, the query: what is happening to it right now, as its workflow tells — who
// works on it and, while a speech engine does, the engine activity's last heartbeat (its phase,
// engine, audio and elapsed time) and attempt. One read for the operators' view (api/routes/ops.ts,
// `order-ops show`) and the account area's order page (web/progress.ts, which bounds it in time).
import type { Client, WorkflowHandle } from '@temporalio/client';
import { decodeOptionalSinglePayload } from '@temporalio/common/lib/internal-non-workflow/index.js';
import { orderWorkflowId, statusQuery, type EngineProgress, type OrderState } from '../contracts/orders.js';

/** The engine activity's last heartbeat (empty before its first) and its attempt. */
export type EngineHeartbeat = Partial<EngineProgress> & { attempt: number };

export interface OrderProgress {
  workingOn: OrderState['workingOn'];
  /** Only while the engine works on the order and its activity is pending. */
  engine?: EngineHeartbeat;
}

/** The last heartbeat of the order's `fulfilByEngine` activity; undefined when none is pending. */
async function engineHeartbeat(handle: WorkflowHandle): Promise<EngineHeartbeat | undefined> {
  const pending = (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'fulfilByEngine');
  if (!pending) return undefined;
  // Heartbeats arrive as the worker's codec left them (encrypted): decoded by the client's own converter.
  const progress = await decodeOptionalSinglePayload<EngineProgress>(handle.client.options.loadedDataConverter, pending.heartbeatDetails?.payloads?.[0]);
  return { ...progress, attempt: pending.attempt ?? 1 };
}

/**
 * The order's progress from its workflow (a closed one answers from its last state); undefined when
 * the workflow does not answer. Failing to read the engine's heartbeat is thrown.
 */
export async function orderProgress(temporal: Client, orderId: number): Promise<OrderProgress | undefined> {
  const handle = temporal.workflow.getHandle(orderWorkflowId(orderId));
  const state = await handle.query(statusQuery).catch((): OrderState | undefined => undefined);
  if (!state) return undefined;
  if (state.workingOn !== 'engine') return { workingOn: state.workingOn };
  const engine = await engineHeartbeat(handle);
  return { workingOn: 'engine', ...(engine ? { engine } : {}) };
}
