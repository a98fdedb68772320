// One answer per idempotency key of an order's placement, for the API's creation routes and the
// account area's "Place order" (src/web/pages/newOrder.ts): the same key with the same parameters
// gets the first answer byte for byte, even an error; with other parameters a 400; while the first
// request runs a 409. A retry after a lost answer finds the order that was charged.
import { createHash } from 'node:crypto';
import { RequestError } from '../contracts/failures.js';
import type { Db } from '../db/connection.js';
import type { OrderRow } from '../db/schema.js';
import { claimIdempotencyKey, recordKeyOrder, releaseKey, storeKeyAnswer, type KeyRef } from '../db/idempotency.js';

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

/** An answer as it is sent and kept: its status and JSON body (and a wait, for answers that are not kept). */
export interface KeyedAnswer {
  status: number;
  body: string;
  retryAfterSeconds?: number;
}

/**
 * The answer to the request with key `ref`, worked out once. `work` creates the order, calling
 * `onOrderId` before the charge can happen; `fromCharged` rebuilds the answer of an order whose first
 * answer was lost; `failure` is the caller's answer to an error of `work`.
 */
export async function answerOnce(
  settings: IdempotencySettings,
  ref: KeyRef,
  requestHash: string,
  handlers: {
    work: (onOrderId: (orderId: number) => Promise<void>) => Promise<object>;
    fromCharged: (order: OrderRow, balanceAfterCents: number) => object;
    failure: (err: unknown) => KeyedAnswer;
  },
): Promise<KeyedAnswer> {
  const { db, log } = settings;
  const claim = await claimIdempotencyKey(db, ref, requestHash, settings.leaseMs, settings.ttlMs);
  if (claim.kind === 'answered') return { status: claim.statusCode, body: claim.body };
  if (claim.kind === 'in_flight') throw new RequestError('idempotency_key: a request with this key is still in progress; retry in a few seconds', 409);
  if (claim.kind === 'other_parameters') {
    throw new RequestError('idempotency_key: this key was already used with other parameters; use a new key for a new order');
  }
  if (claim.kind === 'charged') {
    const body = JSON.stringify(handlers.fromCharged(claim.order, claim.balanceAfterCents));
    await storeKeyAnswer(db, ref, 200, body);
    log('idempotent retry answered from its charged order', { accountId: ref.accountId, orderId: claim.order.id });
    return { status: 200, body };
  }

  let orderId: number | undefined;
  let answer: KeyedAnswer;
  try {
    const body = await handlers.work(async (id) => {
      orderId = id;
      await recordKeyOrder(db, ref, id);
    });
    answer = { status: 200, body: JSON.stringify(body) };
  } catch (err) {
    answer = handlers.failure(err);
  }
  // Busy answers (429, and 5xx faults) are not the answer to the order: a retry tries again.
  if (answer.status < 500 && answer.status !== 429) {
    await storeKeyAnswer(db, ref, answer.status, answer.body);
  } else if (orderId === undefined) {
    await releaseKey(db, ref);
  }
  // A fault after an order id was drawn keeps the key in flight: a retry finds the order if it was
  // charged, and starts afresh once the lease shows it can no longer be.
  return answer;
}
