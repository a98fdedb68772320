// Content-addressed blob store on local disk. Result files travel by claim-check: workflows and
// signals carry the key, never the bytes. An object store can stand behind the same interface.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, openAsBlob } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile, access } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { join } from 'node:path';

export interface FileStore {
  put(bytes: Uint8Array): Promise<string>;
  /** A fresh path in the store's own file system, to write a large file to before `putFile` (never held in memory). */
  stagingPath(): string;
  /** Moves a file written at a staging path into the store; its key and size. */
  putFile(path: string): Promise<{ key: string; size: number }>;
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
    async put(bytes) {
      const key = createHash('sha256').update(bytes).digest('hex');
      const path = pathOf(key);
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
      const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, path);
      return key;
    },
    stagingPath: () => join(dir, `staging.${randomBytes(8).toString('hex')}.tmp`),
    async putFile(path) {
      const hash = createHash('sha256');
      await pipeline(createReadStream(path), hash);
      const key = hash.digest('hex');
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
      const size = (await stat(path)).size;
      await rename(path, pathOf(key));
      return { key, size };
    },
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
