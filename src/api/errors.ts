// Every failure leaves as the spec's error object {mode, status: "error", error}, mapped here only.
import type { ErrorRequestHandler, Request } from 'express';
import { z } from 'zod';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MediaError } from '../media/probe.js';
import { FAILURE_TYPES } from '../workflows/messages.js';
import { PaymentUnconfirmedError } from './placeOrder.js';

export class ApiError extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
  }
}

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

export function errorHandler(log: (msg: string, meta: object) => void): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const mode = requestMode(req);
    if (err instanceof ApiError) return void res.status(err.status).json(errorObject(mode, err.message));
    if (err instanceof z.ZodError) return void res.status(400).json(errorObject(mode, describeZodError(err)));
    if (err instanceof MediaError) return void res.status(400).json(errorObject(mode, err.message));
    if (err instanceof PaymentUnconfirmedError) {
      log('order payment unconfirmed', { orderId: err.orderId });
      return void res.status(503).json(errorObject(mode, err.message));
    }
    const parserType = (err as { type?: string }).type;
    if (parserType === 'entity.parse.failed') return void res.status(400).json(errorObject(mode, 'the request body is not valid JSON'));
    if (parserType === 'entity.too.large') return void res.status(400).json(errorObject(mode, 'the request body is too large'));
    if ((err as Error).name === 'MulterError') return void res.status(400).json(errorObject(mode, `multipart body: ${(err as Error).message}`));
    const refusal = workflowRefusal(err);
    if (refusal) return void res.status(400).json(errorObject(mode, refusal));
    log('request failed', { method: req.method, path: req.path, error: String((err as Error)?.stack ?? err) });
    res.status(500).json(errorObject(mode, 'internal error: the request cannot be fulfilled now; try again later'));
  };
}
