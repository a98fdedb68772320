// Callback delivery: one multipart POST per attempt, success only on the answer `ok`.
// The workflow's retry policy allows 10 attempts; each failed attempt asks for a random pause.
import { Context, ApplicationFailure, log } from '@temporalio/activity';
import { FormData } from 'undici';
import type { ActivityDeps } from './deps.js';
import { resultFileUrl } from './deps.js';
import { getAccount } from '../db/accounts.js';
import { getOrder, recordCallbackAttempt } from '../db/orders.js';
import type { CallbackEvent } from '../contracts/orders.js';
import { callbackFields } from '../products/records.js';
import { decryptToken } from '../domain/tokens.js';
import { postCallback } from '../net/outbound.js';

export type DeliveryResult = { delivered: true; attempt: number } | { delivered: false; reason: string };

export function createCallbackActivities({ db, secretKey, publicBaseUrl, callbacks }: ActivityDeps) {
  const randomPause = () => callbacks.retryMinMs + Math.floor(Math.random() * (callbacks.retryMaxMs - callbacks.retryMinMs + 1));

  return {
    async deliverCallback({ orderId, event }: { orderId: number; event: CallbackEvent }): Promise<DeliveryResult> {
      const order = await getOrder(db, orderId);
      if (!order) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`);
      const account = (await getAccount(db, order.accountId))!;
      const url = order.callbackUrl ?? account.callbackUrl;
      if (!url) return { delivered: false, reason: 'neither the order nor the account has a callback URL' };
      if (event === 'canceled' && !account.canceledCallbacks) {
        return { delivered: false, reason: 'canceled callbacks are not enabled for the account' };
      }
      // The token is read here, inside the activity, so it never enters a workflow history.
      const token = decryptToken(secretKey, account.tokenEncrypted);
      const fields = callbackFields(order, event, (kind) => resultFileUrl(publicBaseUrl, order.id, kind, token));
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);

      const attempt = Context.current().info.attempt;
      const started = Date.now();
      let statusCode: number | null = null;
      let outcome: 'ok' | 'wrong_answer' | 'http_error' | 'network_error';
      let detail: string | null = null;
      try {
        const response = await postCallback(url, form, callbacks.timeoutMs);
        statusCode = response.statusCode;
        const body = response.text;
        const success = statusCode >= 200 && statusCode < 300;
        // The receiver must answer the plain string `ok`; surrounding white space is tolerated.
        outcome = success && body.trim() === 'ok' ? 'ok' : success ? 'wrong_answer' : 'http_error';
        if (outcome !== 'ok') detail = `answered ${statusCode}: ${JSON.stringify(body.slice(0, 80))}`;
      } catch (err) {
        outcome = 'network_error';
        detail = String((err as Error).cause ?? (err as Error).message);
      }
      const durationMs = Date.now() - started;
      await recordCallbackAttempt(db, { orderId, event, attempt, url, statusCode, durationMs, outcome, detail });
      if (outcome === 'ok') {
        log.info('callback delivered', { orderId, event, attempt });
        return { delivered: true, attempt };
      }
      log.warn('callback attempt failed', { orderId, event, attempt, outcome, detail });
      throw ApplicationFailure.create({ message: `callback attempt ${attempt} to the receiver failed: ${detail}`, nextRetryDelay: randomPause() });
    },
  };
}
