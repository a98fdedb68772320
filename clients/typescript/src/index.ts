// The typed client of the order service API v4: openapi-fetch over the types openapi-typescript
// generated from the service's OpenAPI document (schema.d.ts; `npm run client:generate`).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
export type OrderClient = Client<paths>;

/** A client of the service at `baseUrl` (e.g. https://orders.example.com); options as openapi-fetch's. */
export function createOrderClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): OrderClient {
  return createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, '') });
}
