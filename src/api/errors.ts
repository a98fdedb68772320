// Every failure leaves as the spec's error object {mode, status: "error", error}, mapped here only.
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { PaymentExpiredError, PaymentUnconfirmedError, RequestError } from '../contracts/failures.js';
import { clientError, httpRefusal } from '../http/refusals.js';
import { loggedPath } from '../http/loggedPath.js';

export function errorObject(mode: string, error: string) {
  return { mode, status: 'error', error };
}

function requestMode(req: Request): string {
  const fromBody = (req.body as Record<string, unknown> | undefined)?.mode;
  const mode = typeof fromBody === 'string' ? fromBody : req.query?.mode;
  return typeof mode === 'string' ? mode : '';
}

/** A multipart parser's refusal: its limits are 413; other errors (busboy's) are malformed bodies. */
function multipartRefusal(err: unknown): [number, string] {
  const { name, code, message } = err as { name?: string; code?: string; message?: string };
  if (name === 'MulterError' && (code === 'LIMIT_FILE_COUNT' || code === 'LIMIT_UNEXPECTED_FILE'))
    return [400, 'multipart body: file parts are not accepted; send fields only'];
  if (name === 'MulterError' && code?.startsWith('LIMIT_')) return [413, `multipart body: ${message}`];
  return [400, `multipart body: ${(message ?? String(err)).replace(/^Multipart: /, '')}`];
}

/** Runs a body parser: whatever it refuses (and it does no I/O but reading the request) is the caller's mistake. */
export function readingBody(parser: RequestHandler, kind: 'urlencoded' | 'json' | 'multipart'): RequestHandler {
  return (req, res, next) =>
    parser(req, res, (err?: unknown) => {
      if (err === undefined) return next();
      const refused = httpRefusal(err) ?? (kind === 'multipart' ? multipartRefusal(err) : undefined);
      next(refused ? new RequestError(refused[1], refused[0]) : err);
    });
}

/** Refusals of Node's HTTP parser and timers (the server's clientError event), as [status, message]. */
export function protocolRefusal(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'the request headers are too large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'the chunk extensions are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'the request was not received in time'];
    default:
      return [400, `malformed HTTP request${code ? ` (${code})` : ''}`];
  }
}

export interface ErrorAnswer {
  status: number;
  body: ReturnType<typeof errorObject>;
  retryAfterSeconds?: number;
}

/** The answer to a failed request: the caller's mistakes as 4xx, faults as 5xx (logged). */
export function errorAnswer(err: unknown, req: Request, log: (msg: string, meta: object) => void): ErrorAnswer {
  const mode = requestMode(req);
  const known = clientError(err);
  if (known) {
    const retryAfter = (err as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    return {
      status: known[0],
      body: errorObject(mode, known[1]),
      ...(typeof retryAfter === 'number' ? { retryAfterSeconds: Math.max(1, Math.ceil(retryAfter)) } : {}),
    };
  }
  // The workflow ran only after the order's payment window (its workers were down or overloaded):
  // nothing was charged and nothing was wrong with the request. The service's fault: 503, retry.
  if (err instanceof PaymentExpiredError) {
    log('order not paid in its window', { method: req.method, path: req.path, error: err.message });
    return { status: 503, body: errorObject(mode, `${err.message}: the service could not take it in time; place it again`), retryAfterSeconds: 5 };
  }
  if (err instanceof PaymentUnconfirmedError) {
    log('order payment unconfirmed', { orderId: err.orderId });
    return { status: 503, body: errorObject(mode, err.message) };
  }
  log('request failed', { method: req.method, path: loggedPath(req.path), error: String((err as Error)?.stack ?? err) });
  return { status: 500, body: errorObject(mode, 'internal error: the request cannot be fulfilled now; try again later') };
}

/** Sends an error answer (with Retry-After when it asks the caller to wait). */
export function sendErrorAnswer(res: Response, answer: ErrorAnswer, body = JSON.stringify(answer.body)): void {
  if (answer.retryAfterSeconds !== undefined) res.set('Retry-After', String(answer.retryAfterSeconds));
  res.status(answer.status).type('application/json').send(body);
}

export function errorHandler(log: (msg: string, meta: object) => void): ErrorRequestHandler {
  return (err, req, res, _next) => sendErrorAnswer(res, errorAnswer(err, req, log));
}
