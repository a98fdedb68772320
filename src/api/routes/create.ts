// Operations 1–8: one route per product, the adapter of the placement use case
// (src/orders/place.ts): authentication, what the body means to the product (empty means absent,
// other products' parameters ignored), and idempotency keys.
import type { Router } from 'express';
import type { ApiDeps } from '../context.js';
import { authenticate } from '../auth.js';
import { answerOnce, idempotencyKeyOf, requestFingerprint } from '../idempotency.js';
import { PRODUCT_LIST, V4_PARAMETERS } from '../../products/registry.js';
import { requestFields } from '../../products/requestFields.js';
import { chargedAnswer, createPlacement } from '../../orders/place.js';
import { caseSensitiveRouter } from '../../http/router.js';

/** Answers are kept this long for retries with the same idempotency key. */
const KEY_TTL_MS = 24 * 3_600_000;

export function createOrdersRouter(deps: ApiDeps): Router {
  const router = caseSensitiveRouter();
  const create = createPlacement(deps);
  const keys = { db: deps.db, log: deps.log, ttlMs: KEY_TTL_MS, leaseMs: deps.payment.windowMs + deps.payment.graceMs + 5_000 };
  const noKey = async () => undefined;
  for (const product of PRODUCT_LIST) {
    router.post(`/api/v4/${product.path}`, async (req, res) => {
      const { api_token: token, idempotency_key: keyField, ...sent } = (req.body ?? {}) as Record<string, unknown>;
      const account = await authenticate(deps.db, deps.secretKey, token);
      // Empty means absent; other products' parameters are ignored (src/products/requestFields.ts).
      const { fields: body, ignored } = requestFields(product, V4_PARAMETERS, sent);
      if (ignored.length) deps.log('parameters of other products ignored', { path: product.path, accountId: account.id, ignored });
      const key = idempotencyKeyOf(req, keyField);
      if (key === undefined) return void res.json(await create(product, account, body, noKey));
      await answerOnce(keys, req, res, { accountId: account.id, key }, requestFingerprint(product.path, body), {
        work: (onOrderId) => create(product, account, body, onOrderId),
        fromCharged: (order, balanceAfterCents) => chargedAnswer(product, order, balanceAfterCents, account),
      });
    });
  }
  return router;
}
