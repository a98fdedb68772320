// The thread fileHash.ts starts: it reads and hashes files, one message each, so that the service's
// main thread does neither.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parentPort } from 'node:worker_threads';

parentPort!.on('message', ({ id, path }: { id: number; path: string }) => {
  const hash = createHash('sha256');
  pipeline(createReadStream(path), hash).then(
    () => parentPort!.postMessage({ id, hex: hash.digest('hex') }),
    (err: NodeJS.ErrnoException) => parentPort!.postMessage({ id, error: err.message, code: err.code }),
  );
});
