// Callback delivery as a Temporal activity: one signed multipart POST per attempt (the attempt
// itself is orders/deliverCallback.ts; docs/callbacks.md), success only on the answer `ok`. The
// workflow's retry policy allows 10 attempts; each failed attempt asks for its pause: the
// jittered exponential back-off of src/domain/callbackSchedule.ts, or the receiver's Retry-After
// (429, 503) up to the longest pause, and records when the next attempt is due. 410 Gone ends the
// callback.
import { Context, ApplicationFailure, log } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';
import { getAccount } from '../db/accounts.js';
import { getOrder, setNextCallbackAttempt } from '../db/orders.js';
import { CALLBACK_ATTEMPTS, callbackPauseMs } from '../domain/callbackSchedule.js';
import type { CallbackEvent } from '../contracts/orders.js';
import { attemptCallback, callbackMessageId, callbackUrlOf } from '../orders/deliverCallback.js';

export { callbackMessageId, MAX_ANSWER_BYTES, retryAfterMs } from '../orders/deliverCallback.js';

export type DeliveryResult = { delivered: true; attempt: number } | { delivered: false; reason: string };

/** The failure type that ends a callback whose receiver answered 410 Gone: no further attempts. */
export const CALLBACK_GONE = 'CallbackReceiverGone';

export function createCallbackActivities(deps: ActivityDeps) {
  const { db, callbacks } = deps;
  const schedule = { firstPauseMs: callbacks.retryMinMs, maxPauseMs: callbacks.retryMaxMs };

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
      // The pause follows this callback's try (1 to CALLBACK_ATTEMPTS); the recorded number is the order's, which resends share.
      const callbackTry = info.attempt;
      // Always a workflow's activity here; the activity id (stable across retries) is only a fallback.
      const webhookId = callbackMessageId(orderId, event, info.workflowExecution?.runId ?? info.activityId);
      // The token and the signing secrets are read inside the attempt, so they never enter a workflow history.
      const result = await attemptCallback(deps, { order, event, webhookId });
      const { outcome, detail, attempt } = result;
      if (result.delivered) {
        log.info('callback delivered', { orderId, accountId: order.accountId, event, attempt, id: webhookId });
        return { delivered: true, attempt };
      }
      log.warn('callback attempt failed', { orderId, accountId: order.accountId, event, attempt, outcome, detail });
      if (outcome === 'gone') {
        throw ApplicationFailure.create({
          type: CALLBACK_GONE,
          nonRetryable: true,
          message: `the receiver answered 410 Gone on attempt ${attempt}: no further attempts`,
        });
      }
      // Retry-After (429, 503) is honoured up to the longest pause, so 10 attempts still fit the same window.
      const pause =
        result.retryAfterMs !== undefined ? Math.max(1, Math.min(result.retryAfterMs, callbacks.retryMaxMs)) : callbackPauseMs(callbackTry, schedule);
      if (callbackTry < CALLBACK_ATTEMPTS) await setNextCallbackAttempt(db, orderId, attempt, new Date(Date.now() + pause));
      throw ApplicationFailure.create({ message: `callback attempt ${attempt} to the receiver failed: ${detail}`, nextRetryDelay: pause });
    },
  };
}
