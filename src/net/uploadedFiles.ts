// An upload's URL as an order's `url` (issue 52): the service reads it from its own store, never over
// the network, and measures it exactly as a fetched file: the same probe and readers, by ranges, by
// its bytes (no name, no type). Only its owner may order it, once it is whole, until it expires.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Db } from '../db/connection.js';
import { getUploadRow } from '../db/uploads.js';
import { UPLOAD_ID, type UploadStore } from '../storage/uploads.js';
import { FetchError, readCustomerFile, type OpenedBody, type OutboundClient } from './outbound.js';

/** The path under which an upload's URL names it (the API's tus endpoint). */
export const UPLOADS_PATH = '/api/v4/uploads';

export interface UploadedFiles {
  /** The upload `url` names, when it is one of this service's upload URLs; else undefined. */
  idOf(url: string): string | undefined;
  /** The URL an upload is ordered by. */
  urlOf(id: string): string;
  /** Refuses (naming `field`) unless `accountId` may order upload `id` now. */
  checkOrderable(id: string, accountId: number, field: string): Promise<void>;
  /** The file holding its bytes. */
  pathOf(id: string): string;
}

export function uploadedFiles(db: Db, store: UploadStore, publicBaseUrl: string): UploadedFiles {
  const origin = new URL(publicBaseUrl).origin;
  const prefix = new URL(publicBaseUrl).pathname.replace(/\/$/, '') + UPLOADS_PATH + '/';
  return {
    idOf(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      if (parsed.origin !== origin || !parsed.pathname.startsWith(prefix) || parsed.search || parsed.hash) return undefined;
      const id = parsed.pathname.slice(prefix.length);
      return UPLOAD_ID.test(id) ? id : undefined;
    },
    urlOf: (id) => `${origin}${prefix}${id}`,
    async checkOrderable(id, accountId, field) {
      const row = await getUploadRow(db, id);
      // Another account's upload is as unknown as one never made.
      if (!row || row.accountId !== accountId) throw new FetchError(`${field}: no such upload (an upload's URL is what POST ${UPLOADS_PATH} answered)`);
      if (row.endedReason === 'terminated') throw new FetchError(`${field}: the upload was deleted`);
      if (row.endedAt || row.expiresAt.getTime() <= Date.now()) {
        throw new FetchError(`${field}: the upload expired at ${row.expiresAt.toISOString()}; upload the file again`);
      }
      if (!row.completedAt) {
        const info = row.info as { size?: number } | null;
        const received = await stat(store.pathOf(id)).then(
          (s) => s.size,
          () => 0,
        );
        throw new FetchError(`${field}: the upload is not complete (${received} of ${info?.size ?? 'an unknown number of'} bytes received)`);
      }
    },
    pathOf: (id) => store.pathOf(id),
  };
}

/** A strong validator of an upload's bytes, which never change once it is whole. */
const etagOf = (id: string, size: number) => `"${id}-${size}"`;

/**
 * Opens an upload as the outbound client opens a URL: the whole file (200), or the range asked
 * (206 with its Content-Range); a 304 for its own ETag. No type: it is measured by its bytes.
 */
async function openUpload(files: UploadedFiles, id: string, field: string, headers: Record<string, string> = {}): Promise<OpenedBody> {
  const path = files.pathOf(id);
  const size = await stat(path).then(
    (s) => s.size,
    () => {
      throw new FetchError(`${field}: the upload's file is gone`);
    },
  );
  const etag = etagOf(id, size);
  const base = {
    signal: new AbortController().signal,
    done: () => undefined,
    fail: (detail: string) => new FetchError(`${field}: the upload could not be read (${detail})`),
  };
  const answer = (statusCode: number, extra: Record<string, string>, body: Readable): OpenedBody => ({
    ...base,
    statusCode,
    headers: { etag, ...extra },
    body,
  });
  if (headers['if-none-match'] === etag) return answer(304, {}, Readable.from([]));
  const range = /^bytes=(\d+)-(\d*)$/.exec(headers.range ?? '');
  const first = range ? Number(range[1]) : 0;
  if (range && first < size) {
    const last = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
    return answer(
      206,
      { 'content-range': `bytes ${first}-${last}/${size}`, 'content-length': String(last - first + 1) },
      createReadStream(path, { start: first, end: last }),
    );
  }
  return answer(200, { 'content-length': String(size) }, createReadStream(path));
}

/**
 * The outbound client with this service's own upload URLs read from the store. Whether the account
 * may order an upload is checked before (measureTools); the kept copy of an order's media is a link
 * to the upload's file (orderMedia.ts).
 */
export function withUploads(outbound: OutboundClient, files: UploadedFiles): OutboundClient {
  return {
    ...outbound,
    openCustomerUrl(url, field, timeoutMs, headers) {
      const id = files.idOf(url);
      return id ? openUpload(files, id, field, headers) : outbound.openCustomerUrl(url, field, timeoutMs, headers);
    },
    async fetchCustomerFile(url, field, limits, sniff) {
      const id = files.idOf(url);
      if (!id) return outbound.fetchCustomerFile(url, field, limits, sniff);
      // Read as the outbound client reads a fetched file: a file whose head `sniff` stops at (media, for
      // a product that takes documents or media) is not read on, nor held to the documents' limit.
      const opened = await openUpload(files, id, field);
      try {
        return { ...(await readCustomerFile(opened.body, field, limits.maxBytes, sniff)), contentType: undefined };
      } finally {
        opened.body.destroy();
      }
    },
  };
}
