// upload(file): a local file to the service's /api/v4/uploads over tus 1.0 (tus-js-client), in
// chunks, resumed where a previous attempt at the same file stopped; it answers the upload's URL,
// which an order's `url` (or a document field such as `transcription_url`) takes.
// Node's modules are imported only when a path or the default resume store needs them, so the same
// module runs in a browser (a File or Blob there).
import * as tus from 'tus-js-client';
import { DetailedError, Upload, type UploadOptions as TusOptions } from 'tus-js-client';
import { isErrorObject, OrderServiceError, retryAfterSeconds, type ErrorObject } from './errors.js';

/** The tus endpoint of the service (the same path answers the one-shot upload). */
export const UPLOADS_PATH = '/api/v4/uploads';
/** 8 MiB: the size of each PATCH unless `chunkSize` says otherwise. */
export const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024;
/** Milliseconds before each retry of a failed request: tus-js-client's own, and ten seconds more. */
const DEFAULT_RETRY_DELAYS = [0, 1000, 3000, 5000, 10000];

/** A Node.js readable stream (an fs.ReadStream, a socket, process.stdin…), described by what upload() uses of it. */
export interface NodeReadable {
  pipe(destination: never, options?: never): unknown;
  read(size?: number): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * What upload() takes: in Node a file's path, its bytes (a Buffer or any Uint8Array) or a readable
 * stream (an fs.ReadStream of a file resumes as a path does; another stream's length is sent once
 * it has ended, unless `size` gives it); in a browser a File or Blob.
 */
export type UploadInput = string | Uint8Array | Blob | NodeReadable;

export interface UploadOptions {
  /** The account's API token, sent as `Authorization: Bearer <api_token>`. */
  apiToken: string;
  /** Bytes per PATCH; default 8 MiB (DEFAULT_CHUNK_SIZE). */
  chunkSize?: number;
  /**
   * Where unfinished uploads are remembered, to resume one when the same file is uploaded again: in
   * Node a JSON file (default `$XDG_CACHE_HOME/order-service-client/uploads.json`, else under
   * `~/.cache`); in a browser localStorage. `false`: remember nothing (every call starts anew).
   */
  resumeStore?: string | false;
  /** The length of a stream, when known (a stream's length is otherwise sent once it has ended). */
  size?: number;
  /** The name sent in the upload's metadata; default: the path's last part (the service goes by the bytes, not the name). */
  fileName?: string;
  /** Called as bytes go out: sent so far and the total (null while a stream's length is unknown). */
  onProgress?: (bytesSent: number, bytesTotal: number | null) => void;
  /** Called when the service has taken a chunk: its offset now and the total. */
  onChunk?: (bytesAccepted: number, bytesTotal: number | null) => void;
  /** Milliseconds to wait before each retry of a failed request (a dropped connection, a 5xx); default [0, 1000, 3000, 5000, 10000]. */
  retryDelays?: number[];
  /** Stops the upload (it stays resumable): upload() rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Whether this runs in Node.js (a path, a Buffer, a file store for resuming), not a browser. */
const inNode = (): boolean => Boolean((globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node);

/** The default resume store in Node: under the user's cache directory. */
async function defaultResumeStore(): Promise<string> {
  const [{ homedir }, { join }] = await Promise.all([import('node:os'), import('node:path')]);
  const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'order-service-client', 'uploads.json');
}

/**
 * The input as tus-js-client takes it here (a Buffer or a stream in Node, a Blob in a browser), its
 * name, and whether its length is known before it is read (a stream's that is not a file's is not).
 */
async function openInput(input: UploadInput): Promise<{ file: unknown; name?: string; lengthKnown: boolean }> {
  if (typeof input === 'string') {
    if (!inNode()) throw new TypeError('upload(path) needs Node.js; in a browser, upload a File or Blob');
    const [{ createReadStream, promises }, { basename }] = await Promise.all([import('node:fs'), import('node:path')]);
    // A missing file fails here, named, not inside tus-js-client.
    await promises.stat(input);
    const stream = createReadStream(input);
    // tus-js-client reads the file by ranges through streams of its own (and fingerprints it by its
    // path, size and mtime); this one is only its handle.
    stream.on('error', () => undefined);
    return { file: stream, name: basename(input), lengthKnown: true };
  }
  if (input instanceof Uint8Array) {
    // A Buffer in Node (fingerprinted by its first 64 KiB and its length), a Blob in a browser.
    const NodeBuffer = (globalThis as { Buffer?: { from(data: ArrayBufferLike, offset: number, length: number): Uint8Array } }).Buffer;
    const file = NodeBuffer ? NodeBuffer.from(input.buffer, input.byteOffset, input.byteLength) : new Blob([input as Uint8Array<ArrayBuffer>]);
    return { file, lengthKnown: true };
  }
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    const name = (input as { name?: string }).name;
    if (!inNode()) return { file: input, name, lengthKnown: true };
    // tus-js-client takes no Blob in Node: its bytes, then.
    return { ...(await openInput(new Uint8Array(await input.arrayBuffer()))), name };
  }
  // An fs.ReadStream of a file is read by ranges, its length known, and resumes as its path does.
  const path = (input as { path?: unknown }).path;
  const isFile = typeof path === 'string' && inNode() && input instanceof (await import('node:fs')).ReadStream;
  return { file: input, name: isFile ? (await import('node:path')).basename(path) : undefined, lengthKnown: isFile };
}

/** tus-js-client's failure as an OrderServiceError where the service answered (its error object, or tus's plain text). */
function asServiceError(err: Error): Error {
  const response = err instanceof DetailedError ? err.originalResponse : null;
  if (!response) return err;
  const status = response.getStatus();
  const text = (response.getBody() ?? '').trim();
  let body: ErrorObject | undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (isErrorObject(parsed)) body = parsed;
  } catch {
    // tus's own answers are plain text.
  }
  return new OrderServiceError(status, body, retryAfterSeconds(response.getHeader('retry-after')), text ? `${text} (${status})` : undefined);
}

/**
 * Uploads `input` to the service at `baseUrl` (without a trailing slash) by tus, resuming an earlier
 * attempt where one is remembered; the upload's URL.
 */
export async function uploadFile(baseUrl: string, input: UploadInput, options: UploadOptions): Promise<string> {
  if (!options.apiToken) throw new TypeError('upload() needs the account API token (apiToken)');
  options.signal?.throwIfAborted();
  const { file, name, lengthKnown } = await openInput(input);
  const fileName = options.fileName ?? name;
  const size = options.size ?? null;
  const store = options.resumeStore === undefined && inNode() ? await defaultResumeStore() : options.resumeStore;
  let urlStorage: TusOptions['urlStorage'];
  if (typeof store === 'string') {
    const [{ mkdir }, { dirname }] = await Promise.all([import('node:fs/promises'), import('node:path')]);
    await mkdir(dirname(store), { recursive: true });
    // Node's build of tus-js-client exports it; its declarations do not.
    const { FileUrlStorage } = tus as unknown as { FileUrlStorage: new (path: string) => NonNullable<TusOptions['urlStorage']> };
    urlStorage = new FileUrlStorage(store);
  }
  const remember = store !== false;

  return new Promise<string>((resolve, reject) => {
    const upload = new Upload(file as Blob, {
      endpoint: `${baseUrl}${UPLOADS_PATH}`,
      headers: { Authorization: `Bearer ${options.apiToken}` },
      chunkSize: options.chunkSize ?? DEFAULT_CHUNK_SIZE,
      retryDelays: options.retryDelays ?? DEFAULT_RETRY_DELAYS,
      metadata: fileName ? { filename: fileName } : {},
      ...(size !== null ? { uploadSize: size } : {}),
      // A stream of unknown length: tus's creation-defer-length, the length sent with the last chunk.
      uploadLengthDeferred: size === null && !lengthKnown,
      ...(urlStorage ? { urlStorage } : {}),
      storeFingerprintForResuming: remember,
      // Forgotten by forget() below, awaited: tus-js-client's own removal is not, and a script ending
      // at once would leave it behind.
      removeFingerprintOnSuccess: false,
      onProgress: options.onProgress ? (sent, total) => options.onProgress!(sent, total ?? null) : null,
      onChunkComplete: options.onChunk ? (_chunk, accepted, total) => options.onChunk!(accepted, total ?? null) : null,
      onSuccess: () => {
        options.signal?.removeEventListener('abort', onAbort);
        const url = upload.url;
        if (!url) return reject(new Error('the service answered the upload without its URL'));
        void forget(url).then(() => resolve(url));
      },
      onError: (err) => {
        options.signal?.removeEventListener('abort', onAbort);
        reject(asServiceError(err));
      },
    });
    /** A finished upload is not resumed: a second upload() of the file makes a new one. */
    async function forget(url: string): Promise<void> {
      if (!remember) return;
      try {
        const done = (await upload.findPreviousUploads()).filter((previous) => previous.uploadUrl === url);
        for (const previous of done) await upload.options.urlStorage!.removeUpload(previous.urlStorageKey);
      } catch {
        // Only resuming needs the store: a stale entry is answered 404 or 410 later, and replaced.
      }
    }
    function onAbort() {
      void upload.abort(false).then(() => reject(options.signal!.reason));
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const start = async () => {
      if (remember) {
        // The newest earlier attempt at this file, where tus-js-client can fingerprint it (a path, bytes, a File).
        const previous = (await upload.findPreviousUploads()).sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime));
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      }
      upload.start();
    };
    start().catch(reject);
  });
}
