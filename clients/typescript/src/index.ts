// The typed client of the order service API v4: openapi-fetch over the types openapi-typescript
// generated from the service's OpenAPI document (schema.ts; `npm run client:generate`), compiled
// to JavaScript with declarations by `npm run client:build`; and upload(), a local file to the
// service by tus (upload.ts).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';
import { isErrorObject, OrderServiceError, retryAfterSeconds, type ErrorObject } from './errors.js';
import { uploadFile, type UploadInput, type UploadOptions } from './upload.js';

export type { components, operations, paths };
export { OrderServiceError, type ErrorObject };
export { DEFAULT_CHUNK_SIZE, type NodeReadable, type UploadInput, type UploadOptions } from './upload.js';

export type OrderClient = Client<paths> & {
  /**
   * Uploads a file by tus (resumable, in chunks of 8 MiB) and answers its URL, which an order's
   * `url` (or a document field such as `transcription_url`) takes: in Node a path, a Buffer or
   * Uint8Array, or a readable stream; in a browser a File or Blob. An earlier attempt at the same
   * file (a path, bytes, a File) is resumed where it stopped. Refusals throw OrderServiceError.
   */
  upload(file: UploadInput, options: UploadOptions): Promise<string>;
};

/** A client of the service at `baseUrl` (e.g. https://orders.example.com); options as openapi-fetch's. */
export function createOrderClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): OrderClient {
  const base = baseUrl.replace(/\/+$/, '');
  return Object.assign(createClient<paths>({ ...options, baseUrl: base }), {
    upload: (file: UploadInput, uploadOptions: UploadOptions) => uploadFile(base, file, uploadOptions),
  });
}

/**
 * The answer's data, or an OrderServiceError: `const order = await orThrow(api.POST(...))`.
 * (openapi-fetch's own `{data, error, response}` stays available without it.)
 */
export async function orThrow<Data>(pending: Promise<{ data?: Data; error?: unknown; response: Response }>): Promise<Data> {
  const { data, error, response } = await pending;
  if (response.ok && data !== undefined) return data;
  throw new OrderServiceError(response.status, isErrorObject(error) ? error : undefined, retryAfterSeconds(response.headers.get('retry-after')));
}
