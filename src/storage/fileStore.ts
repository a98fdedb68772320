// Content-addressed blob store on local disk. Result files travel by claim-check: workflows and
// signals carry the key, never the bytes. An object store can stand behind the same interface.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, openAsBlob } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile, access } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { sha256OfFile } from '../runtime/fileHash.js';

/**
 * Names the owner of a blob before it is published under its key (an order: src/db/orderBlobs.ts),
 * so that a deletion running meanwhile sees the owner and keeps the blob.
 */
export type BlobClaim = (key: string) => Promise<void>;

export interface FileStore {
  put(bytes: Uint8Array, claim?: BlobClaim): Promise<string>;
  /** A fresh path in the store's own file system, to write a large file to before `putFile` (never held in memory). */
  stagingPath(): string;
  /** Moves a file written at a staging path into the store; its key and size. */
  putFile(path: string, claim?: BlobClaim): Promise<{ key: string; size: number }>;
  /** Removes a blob (none there: nothing to do). */
  remove(key: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** The file as a Blob read from disk as it is sent (an engine's upload): never held in memory whole. */
  blob(key: string): Promise<Blob>;
  has(key: string): Promise<boolean>;
  size(key: string): Promise<number>;
  /** Bytes start..end (inclusive) of a blob, for range requests. */
  stream(key: string, start: number, end: number): Readable;
}

const KEY = /^[0-9a-f]{64}$/;

export function localFileStore(dir: string): FileStore {
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`not a file key: ${key}`);
    return join(dir, key.slice(0, 2), key);
  };
  return {
    async put(bytes, claim) {
      const key = createHash('sha256').update(bytes).digest('hex');
      const path = pathOf(key);
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
      const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes);
      await claim?.(key);
      await rename(tmp, path);
      return key;
    },
    stagingPath: () => join(dir, `staging.${randomBytes(8).toString('hex')}.tmp`),
    async putFile(path, claim) {
      const key = await sha256OfFile(path);
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
      const size = (await stat(path)).size;
      await claim?.(key);
      await rename(path, pathOf(key));
      return { key, size };
    },
    remove: (key) => rm(pathOf(key), { force: true }),
    get: (key) => readFile(pathOf(key)),
    blob: (key) => openAsBlob(pathOf(key)),
    size: async (key) => (await stat(pathOf(key))).size,
    stream: (key, start, end) => createReadStream(pathOf(key), { start, end }),
    async has(key) {
      try {
        await access(pathOf(key));
        return true;
      } catch {
        return false;
      }
    },
  };
}
