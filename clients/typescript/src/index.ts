// The typed client of the order service API v4: openapi-fetch over the types openapi-typescript
// generated from the service's OpenAPI document (schema.ts; `npm run client:generate`), compiled
// to JavaScript with declarations by `npm run client:build`.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
export type OrderClient = Client<paths>;
/** The service's error object: `{mode, status: "error", error}`, `error` naming the field. */
export type ErrorObject = components['schemas']['Error'];

/** A client of the service at `baseUrl` (e.g. https://orders.example.com); options as openapi-fetch's. */
export function createOrderClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): OrderClient {
  return createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, '') });
}

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
  ) {
    super(body?.error ?? `the order service answered ${status}`);
  }

  /** Whether retrying later can succeed: the service's capacity (503) or this token's rate (429). */
  get retryable(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

const isErrorObject = (value: unknown): value is ErrorObject =>
  typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string';

/**
 * The answer's data, or an OrderServiceError: `const order = await orThrow(api.POST(...))`.
 * (openapi-fetch's own `{data, error, response}` stays available without it.)
 */
export async function orThrow<Data>(pending: Promise<{ data?: Data; error?: unknown; response: Response }>): Promise<Data> {
  const { data, error, response } = await pending;
  if (response.ok && data !== undefined) return data;
  const retryAfter = response.headers.get('retry-after');
  throw new OrderServiceError(
    response.status,
    isErrorObject(error) ? error : undefined,
    retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined,
  );
}
