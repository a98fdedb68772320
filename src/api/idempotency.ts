// Idempotency keys on order creation (`Idempotency-Key` header or `idempotency_key` field), answered
// once per key by src/http/idempotency.ts (the account area's "Place order" shares it): the same key
// with the same parameters gets the first answer byte for byte, even an error; with other
// parameters a 400; while the first request runs a 409. A retry after a lost answer finds the
// order that was charged.
import type { Request, Response } from 'express';
import { RequestError } from '../contracts/failures.js';
import type { OrderRow } from '../db/schema.js';
import type { KeyRef } from '../db/idempotency.js';
import { answerOnce as keyedAnswer, requestFingerprint, type IdempotencySettings } from '../http/idempotency.js';
import { errorAnswer } from './errors.js';

export const MAX_KEY_LENGTH = 255;

/** The request's key, if it has one; a malformed key is the caller's mistake. */
export function idempotencyKeyOf(req: Request, sent: unknown): string | undefined {
  // Sent empty (a form's unset field, JSON null): absent, as every optional parameter.
  const field = sent === null || sent === '' ? undefined : sent;
  const header = req.get('idempotency-key');
  if (field !== undefined && typeof field !== 'string') throw new RequestError('idempotency_key: must be a string');
  if (header !== undefined && field !== undefined && header !== field) {
    throw new RequestError('idempotency_key: the Idempotency-Key header and the idempotency_key field differ');
  }
  const key = header ?? field;
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) throw new RequestError(`idempotency_key: must be 1 to ${MAX_KEY_LENGTH} characters`);
  return key;
}

export { requestFingerprint, type IdempotencySettings };

/**
 * Answers `req` once per key (src/http/idempotency.ts). `work` creates the order, calling
 * `onOrderId` before the charge can happen; `fromCharged` rebuilds the answer of an order whose first
 * answer was lost.
 */
export async function answerOnce(
  settings: IdempotencySettings,
  req: Request,
  res: Response,
  ref: KeyRef,
  requestHash: string,
  handlers: {
    work: (onOrderId: (orderId: number) => Promise<void>) => Promise<object>;
    fromCharged: (order: OrderRow, balanceAfterCents: number) => object;
  },
): Promise<void> {
  const answer = await keyedAnswer(settings, ref, requestHash, {
    ...handlers,
    failure: (err) => {
      const failed = errorAnswer(err, req, settings.log);
      return { status: failed.status, body: JSON.stringify(failed.body), retryAfterSeconds: failed.retryAfterSeconds };
    },
  });
  if (answer.retryAfterSeconds !== undefined) res.set('Retry-After', String(answer.retryAfterSeconds));
  res.status(answer.status).type('application/json').send(answer.body);
}
