// Idempotency keys on order creation (`Idempotency-Key` header or `idempotency_key` field): the same
// key with the same parameters gets the first answer byte for byte, even an error; with other
// parameters a 400; while the first request runs a 409. A retry after a lost answer finds the
// order that was charged.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { RequestError } from '../contracts/failures.js';
import type { Db } from '../db/connection.js';
import type { OrderRow } from '../db/schema.js';
import { claimIdempotencyKey, recordKeyOrder, releaseKey, storeKeyAnswer, type KeyRef } from '../db/idempotency.js';
import { errorAnswer, sendErrorAnswer, type ErrorAnswer } from './errors.js';

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

/** The parameters' fingerprint: the endpoint and every field but the token and the key, in name order. */
export function requestFingerprint(path: string, fields: Record<string, unknown>): string {
  const sorted = Object.keys(fields)
    .sort()
    .map((name) => [name, fields[name]]);
  return createHash('sha256')
    .update(JSON.stringify([path, sorted]))
    .digest('hex');
}

export interface IdempotencySettings {
  db: Db;
  /** How long an unanswered request may still charge: the payment window and its grace. */
  leaseMs: number;
  /** How long answers are kept (at least 24 hours). */
  ttlMs: number;
  log: (message: string, meta: object) => void;
}

/**
 * Answers `req` once per key. `work` creates the order, calling `onOrderId` before the charge can
 * happen; `fromCharged` rebuilds the answer of an order whose first answer was lost.
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
  const { db, log } = settings;
  const claim = await claimIdempotencyKey(db, ref, requestHash, settings.leaseMs, settings.ttlMs);
  if (claim.kind === 'answered') return send(res, claim.statusCode, claim.body);
  if (claim.kind === 'in_flight') throw new RequestError('idempotency_key: a request with this key is still in progress; retry in a few seconds', 409);
  if (claim.kind === 'other_parameters') {
    throw new RequestError('idempotency_key: this key was already used with other parameters; use a new key for a new order');
  }
  if (claim.kind === 'charged') {
    const body = JSON.stringify(handlers.fromCharged(claim.order, claim.balanceAfterCents));
    await storeKeyAnswer(db, ref, 200, body);
    log('idempotent retry answered from its charged order', { accountId: ref.accountId, orderId: claim.order.id });
    return send(res, 200, body);
  }

  let orderId: number | undefined;
  let failed: ErrorAnswer | undefined;
  let body: string;
  try {
    body = JSON.stringify(
      await handlers.work(async (id) => {
        orderId = id;
        await recordKeyOrder(db, ref, id);
      }),
    );
  } catch (err) {
    failed = errorAnswer(err, req, log);
    body = JSON.stringify(failed.body);
  }
  const status = failed?.status ?? 200;
  // Busy answers (429, and 5xx faults) are not the answer to the order: a retry tries again.
  if (status < 500 && status !== 429) {
    await storeKeyAnswer(db, ref, status, body);
  } else if (orderId === undefined) {
    await releaseKey(db, ref);
  }
  // A fault after an order id was drawn keeps the key in flight: a retry finds the order if it was
  // charged, and starts afresh once the lease shows it can no longer be.
  if (failed) sendErrorAnswer(res, failed, body);
  else send(res, status, body);
}

function send(res: Response, status: number, body: string): void {
  res.status(status).type('application/json').send(body);
}
