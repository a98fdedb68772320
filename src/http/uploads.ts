// Receiving uploads (issue 52), for the API (`/api/v4/uploads`, by API token) and the account area
// (by session): tus 1.0 with the creation, termination and expiration extensions through @tus/server
// on the shared store (src/storage/uploads.ts), and one raw body for small files and scripts. Each
// mount authenticates its own way and hands the account here: another account's upload is unknown
// for every method; an upload is created with its durable expiry.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type { Client } from '@temporalio/client';
import { Server, type Upload } from '@tus/server';
import { RequestError } from '../contracts/failures.js';
import { UPLOAD_EXPIRY_WORKFLOW, uploadExpiryWorkflowId, type UploadExpiryInput } from '../contracts/uploads.js';
import type { Db } from '../db/connection.js';
import type { AccountRow } from '../db/schema.js';
import { completeUpload, createUploadRow, endUpload, getUploadRow, setUploadInfo } from '../db/uploads.js';
import type { UploadStore } from '../storage/uploads.js';
import { keepMediaOfUploadOrders, type UploadEndDeps } from '../orders/uploads.js';

export interface UploadReceiverDeps extends UploadEndDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  uploadStore: UploadStore;
  log: (message: string, meta: object) => void;
}

/** A new upload's id: 16 random bytes, hex (UPLOAD_ID). */
const newUploadId = () => randomBytes(16).toString('hex');

/** An upload of another account, or none: the same answer for every method. */
export class UnknownUploadError extends RequestError {
  constructor() {
    super('no such upload', 404);
  }
}

export interface UploadReceiver {
  /** Answers a tus request (OPTIONS, POST, HEAD, PATCH, DELETE) of `account`; OPTIONS needs none. */
  tus(req: Request, res: Response, account?: AccountRow): Promise<void>;
  /** Takes the request's body as one whole upload of `account`; its id. */
  whole(req: Request, account: AccountRow): Promise<{ id: string; size: number; expiresAt: Date }>;
}

/** `path`: where this mount answers; `locationOf`: the URL a new upload's Location names. */
export function uploadReceiver(deps: UploadReceiverDeps, path: string, locationOf: (id: string) => string): UploadReceiver {
  const store = deps.uploadStore;
  const owners = new WeakMap<IncomingMessage, AccountRow>();
  const ownerOf = (req: { runtime?: { node?: { req: IncomingMessage } } }): AccountRow => {
    const account = req.runtime?.node && owners.get(req.runtime.node.req);
    if (!account) throw new Error('an upload request reached tus without its account');
    return account;
  };

  /** Created with its expiry: the durable timer is started first, so no upload can exist without one. */
  async function begin(id: string, account: AccountRow): Promise<Date> {
    const expiresAt = new Date(Date.now() + store.ttlMs);
    await deps.temporal.workflow.start(UPLOAD_EXPIRY_WORKFLOW, {
      taskQueue: deps.taskQueue,
      workflowId: uploadExpiryWorkflowId(id),
      args: [{ uploadId: id } satisfies UploadExpiryInput],
      startDelay: store.ttlMs,
    });
    await createUploadRow(deps.db, { id, accountId: account.id, expiresAt });
    return expiresAt;
  }

  const server = new Server({
    path,
    datastore: store.dataStore,
    locker: store.locker,
    maxSize: store.maxBytes,
    namingFunction: newUploadId,
    generateUrl: (_req, { id }) => locationOf(id),
    async onUploadCreate(req, upload) {
      await begin(upload.id, ownerOf(req as never));
      return {};
    },
    async onUploadFinish(_req, upload) {
      await completeUpload(deps.db, upload.id);
      deps.log('upload complete', { upload: upload.id, bytes: upload.size });
      return {};
    },
    onResponseError(_req, err) {
      if (err instanceof Error) deps.log('upload request failed', { error: String(err.stack ?? err) });
      return undefined;
    },
  });

  return {
    async tus(req, res, account) {
      const id = req.params.id === undefined ? undefined : String(req.params.id);
      if (req.method !== 'OPTIONS') {
        if (!account) throw new Error('a tus request without its account');
        if (id !== undefined) {
          const row = await getUploadRow(deps.db, id);
          if (!row || row.accountId !== account.id) throw new UnknownUploadError();
          // Terminated: ended first, so that no order is placed on it from now on (and tus's state of
          // it is gone: 404 after), then the orders already placed on it keep it as their media (a link, not
          // a copy) before tus removes its file.
          if (req.method === 'DELETE') await keepMediaOfUploadOrders(deps, id, await endUpload(deps.db, id, 'terminated'));
        }
        owners.set(req, account);
      }
      // tus reads the upload's id from the path as the client sent it, wherever this is mounted: the
      // last segment of the URL, whose query (`?api_token=`) would otherwise end up in the id.
      req.url = req.originalUrl.replace(/\?.*$/s, '');
      await server.handle(req, res);
    },

    async whole(req, account) {
      const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
      if (encoding !== 'identity')
        throw new RequestError(`Content-Encoding: ${encoding.slice(0, 40)} is not taken for uploads; send the file's own bytes`, 415);
      const declared = Number(req.headers['content-length']);
      const tooLarge = () => new RequestError(`the file is larger than ${store.maxBytes} bytes, the most an upload may hold`, 413);
      if (declared > store.maxBytes) throw tooLarge();
      const id = newUploadId();
      const expiresAt = await begin(id, account);
      const path = store.pathOf(id);
      let size = 0;
      const capped = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(size > store.maxBytes ? tooLarge() : null, chunk);
        },
      });
      try {
        await mkdir(dirname(path), { recursive: true });
        await pipeline(req, capped, createWriteStream(path));
      } catch (err) {
        await endUpload(deps.db, id, 'terminated');
        await rm(path, { force: true });
        if (err instanceof RequestError) throw err;
        throw new RequestError('the upload was cut off before its end; send it again', 400);
      }
      const upload: Pick<Upload, 'id' | 'size' | 'offset' | 'metadata' | 'creation_date'> = {
        id,
        size,
        offset: size,
        metadata: {},
        creation_date: new Date().toISOString(),
      };
      await setUploadInfo(deps.db, id, upload as unknown as Record<string, unknown>);
      await completeUpload(deps.db, id);
      deps.log('upload complete', { upload: id, bytes: size, whole: true });
      return { id, size, expiresAt };
    },
  };
}
