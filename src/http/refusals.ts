// What a failed request means to its caller, for the API's error object (src/api/errors.ts) and the
// account area's answers (src/web/): the caller's mistakes (a 4xx naming the field) apart from the
// service's faults. One list, so a refusal reads the same to a script and to a person.
import { z } from 'zod';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { AccountNotFoundError, FAILURE_TYPES, InsufficientFundsError, OrderStateError, RequestError } from '../contracts/failures.js';
import { FetchError } from '../net/outbound.js';
import { describeZodError } from './zodErrors.js';

/** An order workflow update's typed failure (FAILURE_TYPES): its type and message. */
export function workflowFailure(err: unknown): { type: string; message: string } | undefined {
  if (!(err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type)) return undefined;
  return { type: err.cause.type, message: err.cause.message };
}

/** A typed refusal (insufficient funds, wrong state) is the caller's error. */
const REFUSALS: readonly string[] = [FAILURE_TYPES.insufficientFunds, FAILURE_TYPES.orderState];

/**
 * Errors with a 4xx `status` (http-errors of the body parsers, the router's percent-decoding) are
 * refusals of the request itself; 413 too large, 415 unsupported charset or encoding, else 400.
 */
export function httpRefusal(err: unknown): [number, string] | undefined {
  const e = err as { status?: unknown; type?: unknown; message?: unknown; limit?: unknown; charset?: unknown; code?: unknown };
  if (typeof e.status !== 'number' || e.status < 400 || e.status > 499) return undefined;
  if (err instanceof URIError) return [400, `path: ${String(e.message).replace(/^Failed to decode param/, 'cannot decode')} (invalid percent-encoding)`];
  switch (e.type) {
    case 'entity.too.large':
      return [413, `the request body is larger than ${e.limit} bytes`];
    case 'parameters.too.many':
      return [413, 'the request body has too many parameters'];
    case 'entity.parse.failed':
      return [400, 'the request body is not valid JSON'];
    case 'charset.unsupported':
      return [415, `unsupported charset ${JSON.stringify(String(e.charset ?? '').toLowerCase())}: send utf-8`];
    case 'encoding.unsupported':
      return [415, `${e.message}: send the body uncompressed, or as gzip, deflate or br`];
    case 'request.aborted':
      return [400, 'the request body was not received completely'];
    case 'request.size.invalid':
      return [400, 'the request body does not match its Content-Length'];
  }
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) return [400, `the request body does not match its Content-Encoding (${e.message})`];
  return [e.status, `the request cannot be read: ${e.message}`];
}

/** The caller's mistakes, as [status, message]; undefined for faults. */
export function clientError(err: unknown): [number, string] | undefined {
  if (err instanceof RequestError) return [err.status, err.message];
  if (err instanceof z.ZodError) return [400, describeZodError(err)];
  if (err instanceof FetchError || err instanceof InsufficientFundsError || err instanceof OrderStateError || err instanceof AccountNotFoundError) {
    return [400, err.message];
  }
  const refused = httpRefusal(err);
  if (refused) return refused;
  const failure = workflowFailure(err);
  if (failure && REFUSALS.includes(failure.type)) return [400, failure.message];
  return undefined;
}
