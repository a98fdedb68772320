// Delivering a callback, the use case: one attempt, without Temporal: the product's callback
// fields, the multipart body serialised once, signed (Standard Webhooks, docs/callbacks.md), POSTed
// through the guarded client and recorded. The deliverCallback activity (activities/callbacks.ts)
// wraps it with the retry policy; the account pages resend an order's last callback and send
// sample callbacks with it.
import { randomBytes } from 'node:crypto';
import { FormData, Response } from 'undici';
import type { Db } from '../db/connection.js';
import type { AccountRow, OrderRow } from '../db/schema.js';
import { isAddressRefusal, type OutboundClient } from '../net/outbound.js';
import { getAccount, webhookSecretsOf } from '../db/accounts.js';
import { callbackAttemptsOf, getAccountOrder, recordCallbackAttempt, takeCallbackResend } from '../db/orders.js';
import type { CallbackEvent } from '../contracts/orders.js';
import { RateLimitedError, RequestError } from '../contracts/failures.js';
import { callbackFields, type RecordSource } from '../products/records.js';
import { isProductKey, type ProductKey } from '../products/registry.js';
import { decryptToken } from '../domain/tokens.js';
import { webhookHeaders } from '../domain/webhookSignature.js';
import { crashPoint } from '../runtime/crashPoints.js';
import { SAMPLE_ORDERS } from '../products/samples.js';
import { callbackAttempts } from '../metrics.js';

export interface CallbackSettings {
  /** The pause after the first failed attempt; later pauses grow threefold (src/domain/callbackSchedule.ts). */
  retryMinMs: number;
  /** The longest pause, and the longest Retry-After honoured. */
  retryMaxMs: number;
  /** How long one attempt may take. */
  timeoutMs: number;
  /** How many times the account area may resend one order's last callback, and in what window; default DEFAULT_RESEND_LIMIT. */
  resendLimit?: ResendLimit;
}

/** At most `count` resends of one order's callback in any `windowMs`. */
export interface ResendLimit {
  count: number;
  windowMs: number;
}

/**
 * Three a minute: a person checking a fixed receiver needs one or two, and a receiver behind the
 * button cannot be flooded through it (every resend is a signed POST from the service's address).
 */
export const DEFAULT_RESEND_LIMIT: ResendLimit = { count: 3, windowMs: 60_000 };

/** A result file's URL as the API serves it (the callback's and the order record's links). */
export function resultFileUrl(publicBaseUrl: string, orderId: number, kind: string, token: string): string {
  return `${publicBaseUrl}/api/v4/orders/${orderId}/files/${kind}?api_token=${encodeURIComponent(token)}`;
}

/** The most of a receiver's answer that is read: `ok` and a glimpse for operators. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export type CallbackOutcome = 'ok' | 'wrong_answer' | 'http_error' | 'network_error' | 'gone';

/** What one attempt came to. */
export interface AttemptOutcome {
  outcome: CallbackOutcome;
  /** The receiver's HTTP status; null when no answer came (network error, refusal, timeout). */
  statusCode: number | null;
  /** The receiver's answer body (at most MAX_ANSWER_BYTES); '' when no answer came. */
  answer: string;
  durationMs: number;
  webhookId: string;
  /** A 2xx answer whose body is `ok` (white space around it allowed). */
  delivered: boolean;
  /** What a 429 or 503 answer's Retry-After asked, in ms (not capped: the caller bounds it). */
  retryAfterMs?: number;
  /** Why the attempt failed, as recorded for operators (`answered 500: "…"`, `timed out after …`); null when delivered. */
  detail: string | null;
}

/** What an attempt needs; ActivityDeps and ApiDeps both provide it. */
export interface CallbackDeliveryDeps {
  db: Db;
  secretKey: Buffer;
  publicBaseUrl: string;
  outbound: OutboundClient;
  callbacks: Pick<CallbackSettings, 'timeoutMs' | 'resendLimit'>;
}

/** A recorded attempt: its outcome and the number the order's attempts gave it. */
export type RecordedAttempt = AttemptOutcome & { attempt: number };

/** Events a sample callback can show (the quality-fix one has the finished shape). */
export const SAMPLE_EVENTS = ['finished', 'refunded', 'canceled'] as const;
export type SampleEvent = (typeof SAMPLE_EVENTS)[number];

/**
 * `webhook-id`: one per event of one workflow run, so every attempt of a callback (a retry after a
 * crash too) carries the same id, a quality-fix re-send its own, and databases or runs that reuse
 * an order id never collide.
 */
export function callbackMessageId(orderId: number, event: CallbackEvent, runId: string): string {
  return `msg_${orderId}_${event}_${runId.replace(/-/g, '').slice(0, 12)}`;
}

/** A Retry-After value (delay-seconds or an HTTP date) in milliseconds from `now`; undefined when unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Serialises the multipart body once: these bytes are signed and sent. */
export async function encodeForm(fields: Record<string, string>): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/** An answer judged: `ok` only for a 2xx whose body is `ok`; 410 is `gone`. */
export function classifyAnswer(statusCode: number, text: string): CallbackOutcome {
  const success = statusCode >= 200 && statusCode < 300;
  // The receiver must answer the plain string `ok`; surrounding white space is tolerated.
  return success && text.trim() === 'ok' ? 'ok' : success ? 'wrong_answer' : statusCode === 410 ? 'gone' : 'http_error';
}

/** Signs `fields` with the account's secrets (the current one first) and POSTs them once; records nothing. */
async function postSigned(
  deps: CallbackDeliveryDeps,
  accountId: number,
  url: string,
  fields: Record<string, string>,
  webhookId: string,
): Promise<{ result: AttemptOutcome; started: number }> {
  const { body, contentType } = await encodeForm(fields);
  const secrets = await webhookSecretsOf(deps.db, deps.secretKey, accountId);
  const signing = secrets.previous ? [secrets.current, secrets.previous.secret] : [secrets.current];
  const headers = { 'content-type': contentType, ...webhookHeaders(signing, webhookId, Math.floor(Date.now() / 1000), body) };

  const started = Date.now();
  const result: AttemptOutcome = { outcome: 'network_error', statusCode: null, answer: '', durationMs: 0, webhookId, delivered: false, detail: null };
  try {
    // The guarded client: no redirects, the deadline covers connecting and answering, the answer read in part.
    const response = await deps.outbound.postCallback(url, { body, headers }, { timeoutMs: deps.callbacks.timeoutMs, maxResponseBytes: MAX_ANSWER_BYTES });
    const { statusCode, text } = response;
    result.statusCode = statusCode;
    result.answer = text;
    result.outcome = classifyAnswer(statusCode, text);
    result.delivered = result.outcome === 'ok';
    const redirect = statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : '';
    if (!result.delivered) result.detail = `answered ${statusCode}: ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)}${redirect}`;
    if (statusCode === 429 || statusCode === 503) {
      const raw = response.headers['retry-after'];
      const asked = retryAfterMs(Array.isArray(raw) ? raw[0] : raw);
      if (asked !== undefined) result.retryAfterMs = asked;
    }
  } catch (err) {
    result.detail = String((err as Error).cause ?? (err as Error).message);
  }
  result.durationMs = Date.now() - started;
  return { result, started };
}

/** Where an order's callbacks go: its own callback_url, else the account's. */
export function callbackUrlOf(order: Pick<OrderRow, 'callbackUrl'>, account: Pick<AccountRow, 'callbackUrl'>): string | null {
  return order.callbackUrl ?? account.callbackUrl ?? null;
}

/**
 * One attempt of `event`'s callback for `order`: the product's fields (result URLs with the
 * account's token, read here only), signed, POSTed to the order's or the account's callback URL,
 * and recorded with `webhookId` as the order's next attempt number, which it answers. Never throws
 * for the receiver's sake: a failed attempt is an outcome. Throws RequestError when there is no
 * callback URL.
 */
export async function attemptCallback(
  deps: CallbackDeliveryDeps,
  input: { order: OrderRow; event: CallbackEvent; webhookId: string },
): Promise<RecordedAttempt> {
  const { order, event, webhookId } = input;
  const account = await getAccount(deps.db, order.accountId);
  if (!account) throw new Error(`account ${order.accountId} of order ${order.id} not found`);
  const url = callbackUrlOf(order, account);
  if (!url) throw new RequestError(`order ${order.id}: neither the order nor the account has a callback URL`);
  const token = decryptToken(deps.secretKey, account.tokenEncrypted);
  const fields = callbackFields(order, event, (kind) => resultFileUrl(deps.publicBaseUrl, order.id, kind, token));
  const { result, started } = await postSigned(deps, account.id, url, fields, webhookId);
  callbackAttempts.inc({ outcome: result.outcome });
  // A crash here is after the receiver took the callback: it gets it again, with the same webhook-id.
  if (result.delivered) crashPoint('mid-callback');
  result.durationMs = Date.now() - started;
  const attempt = await recordCallbackAttempt(deps.db, {
    orderId: order.id,
    event,
    url,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    outcome: result.outcome,
    detail: result.detail,
    webhookId,
  });
  return { ...result, attempt };
}

/**
 * Delivers the order's last callback again: the event of its last recorded attempt, with that
 * callback's webhook-id (receivers drop it if they processed it), recorded as the order's next
 * attempt. The body is built as for any attempt, from the order as it is now. At most
 * `resendLimit` resends of an order (counted in the database, across processes); past it a
 * RateLimitedError says in how many seconds the next one can go.
 */
export async function resendLastCallback(deps: CallbackDeliveryDeps, accountId: number, orderId: number): Promise<RecordedAttempt> {
  // Another account's order and a missing one read the same.
  const order = await getAccountOrder(deps.db, accountId, orderId);
  if (!order) throw new RequestError(`order_id: order ${orderId} not found`, 404);
  // Its data is gone (issue 53): a callback would carry result URLs that answer 410.
  if (order.deletedAt) throw new RequestError(`order ${orderId}: its data was deleted, so no callback is sent for it any more`, 410);
  const attempts = await callbackAttemptsOf(deps.db, orderId);
  const last = attempts.at(-1);
  if (!last) throw new RequestError(`order ${orderId} has had no callback yet: there is none to resend`);
  const account = (await getAccount(deps.db, accountId))!;
  if (!callbackUrlOf(order, account)) throw new RequestError(`order ${orderId}: neither the order nor the account has a callback URL`);
  const event = last.event as CallbackEvent;
  const limit = deps.callbacks.resendLimit ?? DEFAULT_RESEND_LIMIT;
  const waitMs = await takeCallbackResend(deps.db, orderId, limit);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new RateLimitedError(
      `it was resent ${limit.count} times in the last ${spanOf(limit.windowMs)}, the most allowed; it can be sent again in ${seconds} second${seconds === 1 ? '' : 's'}`,
      seconds,
    );
  }
  // Attempts recorded before webhook ids were (migration 0006) have none: the resend is then a new message.
  const webhookId =
    [...attempts].reverse().find((a) => a.event === event && a.webhookId)?.webhookId ?? callbackMessageId(orderId, event, randomBytes(6).toString('hex'));
  return attemptCallback(deps, { order, event, webhookId });
}

/** A window in words: "minute", "2 minutes", "30 seconds". */
function spanOf(ms: number): string {
  const [amount, unit] = ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [Math.ceil(ms / 1000), 'second'];
  return amount === 1 ? unit : `${amount} ${unit}s`;
}

/** The sample order of `product` (those of GET /api/v4/orders?mode=test), in the state `event` leaves it. */
export function sampleOrder(product: ProductKey, event: SampleEvent): RecordSource {
  const base = SAMPLE_ORDERS.find((o) => o.product === product && o.status === 'finished') ?? SAMPLE_ORDERS.find((o) => o.product === product);
  if (!base) throw new Error(`no sample order of product ${product} (its definition's samples, src/products/)`);
  return { ...base, status: event, retranscribedOrderId: null, finishedAt: event === 'finished' ? (base.finishedAt ?? base.paidAt) : null };
}

/**
 * A sample result URL: the sample order's result file with `mode=test`, which downloads without a
 * token (sample files hold no account data), so the account's token never goes to a URL given only
 * for a test, and a receiver that fetches it is not counted as a failed authentication.
 */
export function sampleResultUrl(publicBaseUrl: string, orderId: number, kind: string): string {
  return `${publicBaseUrl}/api/v4/orders/${orderId}/files/${kind}?mode=test`;
}

/** The fields of a sample callback: the product's real shape for the event, of its sample order, with mode=test. */
export function sampleCallbackFields(publicBaseUrl: string, product: ProductKey, event: SampleEvent): Record<string, string> {
  const order = sampleOrder(product, event);
  return { ...callbackFields(order, event, (kind) => sampleResultUrl(publicBaseUrl, order.id, kind)), mode: 'test' };
}

/**
 * A sample callback of `product` for `event` to `url`, signed with the account's secrets and sent
 * through the guarded client, with the webhook-id `msg_sample_<16 hex>`. Not recorded (it has no
 * order). A URL that is not http(s) or that the guard refuses is a RequestError naming `url`.
 */
export async function sendSampleCallback(
  deps: CallbackDeliveryDeps,
  account: AccountRow,
  input: { product: ProductKey; event: SampleEvent; url: string },
): Promise<AttemptOutcome> {
  if (!isProductKey(input.product)) throw new RequestError(`product: '${input.product}' is not a product`);
  if (!SAMPLE_EVENTS.includes(input.event)) throw new RequestError(`event: must be one of ${SAMPLE_EVENTS.join(', ')}`);
  const url = input.url.trim();
  if (!url) throw new RequestError('url: give the URL of a receiver (or save a callback URL in the settings)');
  const refused = await deps.outbound.checkDestination(url);
  // The detail (which address the host resolved to) is for operators; the person sees that it is not public.
  if (refused)
    throw new RequestError(isAddressRefusal(refused) ? 'url: the address is not a public one; samples are sent to public receivers only' : `url: ${refused}`);
  const fields = sampleCallbackFields(deps.publicBaseUrl, input.product, input.event);
  const { result } = await postSigned(deps, account.id, url, fields, `msg_sample_${randomBytes(8).toString('hex')}`);
  return result;
}
