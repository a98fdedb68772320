// What is happening to a paid order right now, from its workflow (as `order-ops show` reads it):
// who works on it and, for an engine, the phase of its last heartbeat. Bounded in time: the order
// page must not wait for a slow or absent Temporal.
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { orderWorkflowId, statusQuery, type EngineProgress, type OrderState } from '../contracts/orders.js';
import { decodePayloads } from '../temporal/payloadCodec.js';

export interface WorkProgress {
  workingOn: OrderState['workingOn'];
  engine?: Partial<EngineProgress> & { attempt: number };
}

const TIMEOUT_MS = 2_000;

async function read(temporal: Client, orderId: number): Promise<WorkProgress> {
  const handle = temporal.workflow.getHandle(orderWorkflowId(orderId));
  const state = await handle.query(statusQuery);
  if (state.workingOn !== 'engine') return { workingOn: state.workingOn };
  const pending = (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'fulfilByEngine');
  const payload = pending?.heartbeatDetails?.payloads?.[0];
  // Heartbeats arrive as the worker's codec left them (encrypted): decoded as the client would.
  const [decoded] = payload ? await decodePayloads(handle.client.options.loadedDataConverter.payloadCodecs, [payload]) : [];
  const progress = decoded ? defaultPayloadConverter.fromPayload<EngineProgress>(decoded) : undefined;
  return { workingOn: 'engine', engine: { ...progress, attempt: pending?.attempt ?? 1 } };
}

/** undefined when the workflow cannot say in time. */
export async function workProgress(temporal: Client, orderId: number): Promise<WorkProgress | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, TIMEOUT_MS, undefined);
  });
  try {
    return await Promise.race([read(temporal, orderId).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
