// Callback delivery: one multipart POST per attempt, success only on the answer `ok`.
// The workflow's retry policy allows 10 attempts; each failed attempt asks for a random pause.
import { Context, ApplicationFailure, log } from '@temporalio/activity';
import { fetch, FormData } from 'undici';
import type { ActivityDeps } from './deps.js';
import { resultFileUrl } from './deps.js';
import { getAccount } from '../db/accounts.js';
import { getOrder, recordCallbackAttempt } from '../db/orders.js';
import { callbackFields, type CallbackEvent } from '../domain/callbacks.js';
import { decryptToken } from '../domain/tokens.js';
import type { ProductKey } from '../domain/catalog.js';

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
      const fields = callbackFields({ id: order.id, product: order.product as ProductKey, params: order.params }, event,
        (kind) => resultFileUrl(publicBaseUrl, order.id, kind, token));
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);

      const attempt = Context.current().info.attempt;
      const started = Date.now();
      let statusCode: number | null = null;
      let outcome: 'ok' | 'wrong_answer' | 'http_error' | 'network_error';
      let detail: string | null = null;
      try {
        const response = await fetch(url, { method: 'POST', body: form, redirect: 'manual', signal: AbortSignal.timeout(callbacks.timeoutMs) });
        statusCode = response.status;
        const body = (await response.text()).slice(0, 200);
        // The receiver must answer the plain string `ok`; surrounding white space is tolerated.
        outcome = response.ok && body.trim() === 'ok' ? 'ok' : response.ok ? 'wrong_answer' : 'http_error';
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
