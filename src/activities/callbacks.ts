// Callback delivery as a Temporal activity: one signed multipart POST per attempt (the attempt
// itself is callbackDelivery.ts; docs/callbacks.md), success only on the answer `ok`. The
// workflow's retry policy allows 10 attempts; each failed attempt asks for a random pause, or for
// the receiver's Retry-After (429, 503) up to the longest pause. 410 Gone ends the callback.
import { Context, ApplicationFailure, log } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';
import { getAccount } from '../db/accounts.js';
import { getOrder } from '../db/orders.js';
import type { CallbackEvent } from '../contracts/orders.js';
import { attemptCallback, callbackMessageId, callbackUrlOf } from './callbackDelivery.js';

export { callbackMessageId, MAX_ANSWER_BYTES, retryAfterMs } from './callbackDelivery.js';

export type DeliveryResult = { delivered: true; attempt: number } | { delivered: false; reason: string };

/** The failure type that ends a callback whose receiver answered 410 Gone: no further attempts. */
export const CALLBACK_GONE = 'CallbackReceiverGone';

export function createCallbackActivities(deps: ActivityDeps) {
  const { db, callbacks } = deps;
  const randomPause = () => callbacks.retryMinMs + Math.floor(Math.random() * (callbacks.retryMaxMs - callbacks.retryMinMs + 1));

  return {
    async deliverCallback({ orderId, event }: { orderId: number; event: CallbackEvent }): Promise<DeliveryResult> {
      const order = await getOrder(db, orderId);
      if (!order) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`);
      const account = (await getAccount(db, order.accountId))!;
      if (!callbackUrlOf(order, account)) return { delivered: false, reason: 'neither the order nor the account has a callback URL' };
      if (event === 'canceled' && !account.canceledCallbacks) {
        return { delivered: false, reason: 'canceled callbacks are not enabled for the account' };
      }
      const info = Context.current().info;
      const attempt = info.attempt;
      // Always a workflow's activity here; the activity id (stable across retries) is only a fallback.
      const webhookId = callbackMessageId(orderId, event, info.workflowExecution?.runId ?? info.activityId);
      // The token and the signing secrets are read inside the attempt, so they never enter a workflow history.
      const result = await attemptCallback(deps, { order, event, webhookId, attempt });
      const { outcome, detail } = result;
      if (result.delivered) {
        log.info('callback delivered', { orderId, accountId: order.accountId, event, attempt, id: webhookId });
        return { delivered: true, attempt };
      }
      log.warn('callback attempt failed', { orderId, accountId: order.accountId, event, attempt, outcome, detail });
      if (outcome === 'gone') {
        throw ApplicationFailure.create({ type: CALLBACK_GONE, nonRetryable: true, message: `the receiver answered 410 Gone on attempt ${attempt}: no further attempts` });
      }
      // Retry-After (429, 503) is honoured up to the longest random pause, so 10 attempts still fit the same budget.
      const pause = result.retryAfterMs === undefined ? undefined : Math.max(1, Math.min(result.retryAfterMs, callbacks.retryMaxMs));
      throw ApplicationFailure.create({ message: `callback attempt ${attempt} to the receiver failed: ${detail}`, nextRetryDelay: pause ?? randomPause() });
    },
  };
}
