// What is happening to a paid order right now, for its page: the order's progress (orders/progress.ts,
// as `order-ops show` reads it), bounded in time: the order page must not wait for a slow or absent
// Temporal.
import type { Client } from '@temporalio/client';
import { orderProgress, type OrderProgress } from '../orders/progress.js';

/** The order's progress as its page shows it: `engine` is there whenever the workflow names the engine. */
export type WorkProgress = OrderProgress;

const TIMEOUT_MS = 2_000;

/** Before the engine's activity is pending, the page already says it is at work (attempt 1). */
async function read(temporal: Client, orderId: number): Promise<WorkProgress | undefined> {
  const progress = await orderProgress(temporal, orderId);
  return progress?.workingOn === 'engine' ? { workingOn: 'engine', engine: progress.engine ?? { attempt: 1 } } : progress;
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
