// Placing an order as a customer does: a form POST to /api/v4/<path> with api_token and mode, its
// status checked (the answer's body is the failure message). Tests about the raw HTTP answer itself
// (a refusal's wording, headers, idempotency bytes) post with `service.post` instead.
import { expect } from 'vitest';
import type { MediaServer } from './mediaServer.js';
import type { TestService } from './service.js';
import { productOf, type OrderParams } from '../../src/products/registry.js';
import type { OrderWorkflowInput } from '../../src/contracts/orders.js';
import { orderPlan, productResults } from '../../src/products/shared.js';

export interface OrderRequest {
  token: string;
  /** The product's path under /api/v4/; default `transcriptions`. */
  path?: string;
  /** Default `live`. */
  mode?: 'live' | 'test';
  /** The product's fields (url, language, comment, ...), sent after api_token and mode. */
  fields?: Record<string, unknown>;
  /** Sent as `callback_url` when given. */
  callbackUrl?: string;
  /** Default 200. */
  expectStatus?: number;
}

/** Places the order; `orderId` is the answer's `order_id` (undefined on a refusal). */
export async function placeOrder(
  service: Pick<TestService, 'post'>,
  { token, path = 'transcriptions', mode = 'live', fields = {}, callbackUrl, expectStatus = 200 }: OrderRequest,
): Promise<{ orderId: number; body: any }> {
  const res = await service.post(`/api/v4/${path}`, { api_token: token, mode, ...fields, ...(callbackUrl !== undefined && { callback_url: callbackUrl }) });
  expect(res.status, JSON.stringify(res.body)).toBe(expectStatus);
  return { orderId: res.body.order_id as number, body: res.body };
}

/** The fields of a transcription of the media server's English audio, `seconds` long. */
export const englishAudio = (media: MediaServer, seconds = 60) => ({ url: media.audio(seconds), language: 'english' });

/** The results a product gives these parameters, as placement fixes them in the order's plan. */
export const resultsOf = (product: string, params: object = {}) => productResults(productOf(product), params as Record<string, unknown>);

/** An order written straight to the database, with the results its product gives its parameters. */
export const withResults = <T extends { product: string; params: object }>(order: T) => ({ ...order, results: resultsOf(order.product, order.params) });

/**
 * The workflow input of a live human transcription of `url`, as the API places one (Update-with-Start,
 * the charge in the workflow; the product's parameters and plan), paid for by `payBy`; due
 * `turnaroundHours` after payment where given, else as the product says.
 */
export function liveTranscriptionInput(
  { orderId, accountId, url }: { orderId: number; accountId: number; url: string },
  { payBy, turnaroundHours }: { payBy: Date; turnaroundHours?: number },
): OrderWorkflowInput<OrderParams> {
  const product = productOf('transcription');
  const params = product.request.parse({ url, language: 'english' }) as OrderParams;
  const plan = orderPlan(product, params);
  return {
    payment: { by: 'customer', payBy: payBy.toISOString() },
    order: {
      id: orderId,
      accountId,
      priceCents: 150,
      seconds: 60,
      words: 0,
      params,
      callbackUrl: null,
      ...plan,
      turnaroundHours: turnaroundHours ?? plan.turnaroundHours,
    },
    qualityCheckProbability: 0,
    qualityCheckWindowMs: 3_600_000,
    workbench: { leaseMs: 3_600_000, partSeconds: 360 },
  };
}
