// Operations 1–8: one handler creates an order of any product, reading the product's definition
// for its parameters, measure, price, turnaround, fulfilment and creation response.
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { ApiDeps } from '../context.js';
import { authenticate } from '../auth.js';
import { measureTools } from '../measureTools.js';
import { startAndPayOrder } from '../placeOrder.js';
import { modeParam } from '../../products/params.js';
import { PRODUCT_LIST, type ProductDefinition } from '../../products/registry.js';
import type { Measured } from '../../products/types.js';
import { centsToUsd, splitSubscription } from '../../domain/pricing.js';
import { addHours, formatUtc } from '../../domain/time.js';
import { nextOrderId } from '../../db/wallet.js';
import type { AccountRow } from '../../db/schema.js';
import type { OrderToPlace } from '../../contracts/orders.js';

const envelope = z.object({ mode: modeParam });

export function createOrdersRouter(deps: ApiDeps): Router {
  const router = Router();
  const tools = measureTools({ media: deps.media, documents: deps.documents });

  /** Keeps the input files an order's workers need (claim-check: the workflow sees only keys). */
  async function keep(measured: Measured): Promise<OrderToPlace['inputFiles']> {
    const kept: NonNullable<OrderToPlace['inputFiles']> = {};
    for (const [name, file] of Object.entries(measured.keep ?? {})) kept[name] = { key: await deps.files.put(file.bytes), fileName: file.fileName };
    return kept;
  }

  async function create(product: ProductDefinition, req: Request) {
    const { api_token: token, mode: rawMode, ...fields } = (req.body ?? {}) as Record<string, unknown>;
    const account = await authenticate(deps.db, deps.secretKey, token);
    const { mode } = envelope.parse({ mode: rawMode });
    const parsed = product.request.parse(fields);
    const request = product.settle ? product.settle(parsed) : parsed;
    const measured = await product.measure(request, tools);
    const params = { ...request, ...measured.params };
    const prices = deps.priceTable[product.key];
    const priceCents = product.price(prices, params, measured);
    const rate = product.subscriptionRate?.(prices);
    const hours = product.turnaroundHours(params);
    const answer = (orderTotalCents: number, inWalletCents: number, minutesLeft: number, estimate: Date) => ({
      ...(product.creationFields.includes('seconds') ? { seconds: measured.seconds } : {}),
      ...(product.creationFields.includes('words') ? { words: measured.words } : {}),
      order_total: centsToUsd(orderTotalCents),
      in_wallet: centsToUsd(inWalletCents),
      ...(product.creationFields.includes('ai_transcripts_minutes_left') ? { ai_transcripts_minutes_left: minutesLeft } : {}),
      delivery_estimate: formatUtc(estimate),
    });

    if (mode === 'test') {
      const cents = rate === undefined ? priceCents : splitSubscription(measured.seconds, priceCents, account.aiMinutes, rate).cents;
      return { mode, status: 'success', ...answer(cents, account.balanceCents, account.aiMinutes, addHours(new Date(), hours)) };
    }
    const placed = await placeLive(product, account, {
      priceCents, seconds: measured.seconds, words: measured.words, params, hours, rate, inputFiles: await keep(measured),
    });
    return {
      mode, status: 'success', order_id: placed.orderId,
      ...answer(placed.chargedCents, placed.balanceCents, placed.aiMinutesLeft, new Date(placed.deliveryEstimate)),
    };
  }

  async function placeLive(product: ProductDefinition, account: AccountRow, order: {
    priceCents: number; seconds: number; words: number; params: Record<string, unknown>; hours: number; rate?: number;
    inputFiles: OrderToPlace['inputFiles'];
  }) {
    const { callback_url: callbackUrl, ...params } = order.params;
    const orderId = await nextOrderId(deps.db);
    const placed = await startAndPayOrder(deps.temporal, deps.taskQueue, {
      payment: { by: 'customer', payBy: new Date(Date.now() + deps.payment.windowMs).toISOString() },
      order: {
        id: orderId, accountId: account.id, product: product.key, priceCents: order.priceCents, seconds: order.seconds, words: order.words,
        params, callbackUrl: typeof callbackUrl === 'string' ? callbackUrl : null, turnaroundHours: order.hours,
        fulfilment: product.fulfilment, resultKinds: product.results(params).map((r) => r.kind),
        ...(order.rate !== undefined ? { subscription: { centsPerMinute: order.rate } } : {}),
        ...(order.inputFiles && Object.keys(order.inputFiles).length ? { inputFiles: order.inputFiles } : {}),
      },
      qualityCheckProbability: deps.qualityCheck.probability,
      qualityCheckWindowMs: deps.qualityCheck.windowMs,
    }, deps.payment.windowMs + deps.payment.graceMs);
    deps.log('order placed', { orderId, accountId: account.id, product: product.key, priceCents: placed.chargedCents });
    return placed;
  }

  for (const product of PRODUCT_LIST) {
    router.post(`/api/v4/${product.path}`, async (req, res) => void res.json(await create(product, req)));
  }
  return router;
}
