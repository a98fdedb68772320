// Every failure leaves as the spec's error object {mode, status: "error", error}, mapped here only.
import type { ErrorRequestHandler, Request } from 'express';
import { z } from 'zod';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  AccountNotFoundError, FAILURE_TYPES, InsufficientFundsError, OrderStateError, PaymentUnconfirmedError, RequestError,
} from '../contracts/failures.js';
import { FetchError } from '../net/outbound.js';

export function errorObject(mode: string, error: string) {
  return { mode, status: 'error', error };
}

function requestMode(req: Request): string {
  const fromBody = (req.body as Record<string, unknown> | undefined)?.mode;
  const mode = typeof fromBody === 'string' ? fromBody : req.query?.mode;
  return typeof mode === 'string' ? mode : '';
}

/** `field: message` for the first few issues; unknown parameters are named. */
export function describeZodError(error: z.ZodError): string {
  return error.issues.slice(0, 3).map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown parameter${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    const path = issue.path.join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  }).join('; ');
}

/** An order workflow's typed refusal (insufficient funds, wrong state) is the caller's error. */
function workflowRefusal(err: unknown): string | undefined {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    const known = Object.values(FAILURE_TYPES) as string[];
    if (err.cause.type && known.includes(err.cause.type)) return err.cause.message;
  }
  return undefined;
}

/** The caller's mistakes, as [status, message]; undefined for faults. */
function clientError(err: unknown): [number, string] | undefined {
  if (err instanceof RequestError) return [err.status, err.message];
  if (err instanceof z.ZodError) return [400, describeZodError(err)];
  if (err instanceof FetchError || err instanceof InsufficientFundsError || err instanceof OrderStateError || err instanceof AccountNotFoundError) {
    return [400, err.message];
  }
  const parserType = (err as { type?: string }).type;
  if (parserType === 'entity.parse.failed') return [400, 'the request body is not valid JSON'];
  if (parserType === 'entity.too.large') return [400, 'the request body is too large'];
  if ((err as Error).name === 'MulterError') return [400, `multipart body: ${(err as Error).message}`];
  const refusal = workflowRefusal(err);
  if (refusal) return [400, refusal];
  return undefined;
}

export function errorHandler(log: (msg: string, meta: object) => void): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const mode = requestMode(req);
    const known = clientError(err);
    if (known) return void res.status(known[0]).json(errorObject(mode, known[1]));
    if (err instanceof PaymentUnconfirmedError) {
      log('order payment unconfirmed', { orderId: err.orderId });
      return void res.status(503).json(errorObject(mode, err.message));
    }
    log('request failed', { method: req.method, path: req.path, error: String((err as Error)?.stack ?? err) });
    res.status(500).json(errorObject(mode, 'internal error: the request cannot be fulfilled now; try again later'));
  };
}
