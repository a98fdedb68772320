// The client's one error: a refusal or a failure of the service, from an API call (orThrow) or an
// upload (upload()).
import type { components } from './schema.js';

/** The service's error object: `{mode, status: "error", error}`, `error` naming the field. */
export type ErrorObject = components['schemas']['Error'];

/**
 * A refusal or a failure of the service, as one error: the HTTP status (400 the request's
 * problem, 413 too large, 415 a body type it does not take, 429 this token's rate limit, 503 its
 * capacity: retry), the error object, and how long `Retry-After` asks to wait.
 */
export class OrderServiceError extends Error {
  override name = 'OrderServiceError';
  constructor(
    readonly status: number,
    readonly body: ErrorObject | undefined,
    /** Seconds to wait before retrying (429, 503), when the service said. */
    readonly retryAfterSeconds: number | undefined,
    /** The message where there is no error object (tus answers in plain text). */
    message?: string,
  ) {
    super(body?.error ?? message ?? `the order service answered ${status}`);
  }

  /** Whether retrying later can succeed: the service's capacity (503) or this token's rate (429). */
  get retryable(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

export const isErrorObject = (value: unknown): value is ErrorObject =>
  typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string';

/** Seconds from a Retry-After header, when it gives them. */
export const retryAfterSeconds = (header: string | null | undefined): number | undefined => (header && /^\d+$/.test(header) ? Number(header) : undefined);
