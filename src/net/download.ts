// A customer's file streamed to disk whole, through the one guarded client: a transfer that breaks
// (a reset, a body shorter than its Content-Length, a server gone for a moment) is taken up again
// where it stopped when the server answers ranges of the same file (If-Range with its validator),
// from the start otherwise, a few times with a pause. Never held in memory; capped in size.
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { FetchError, type Limits, type OpenedBody, type OutboundClient } from './outbound.js';

type Opener = Pick<OutboundClient, 'openCustomerUrl'>;

/** Tries of one download, and the pause before the n-th retry (n × this). */
export const DOWNLOAD_TRIES = 3;
const RETRY_PAUSE_MS = 1_000;
/** A transfer that brings less than this in a stall window has stalled (a server dribbling bytes). */
const STALL_BYTES = 64 * 1024;

export interface DownloadLimits extends Limits {
  /** The window in which a transfer must bring STALL_BYTES (or end). */
  stallMs: number;
}

class StalledError extends Error {}

const one = (headers: OpenedBody['headers'], name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** What vouches that a resumed range is of the same file: a strong ETag, else Last-Modified. */
function validatorOf(opened: OpenedBody): string | undefined {
  const etag = one(opened.headers, 'etag');
  if (etag && !etag.startsWith('W/')) return etag;
  return one(opened.headers, 'last-modified');
}

/** Where a 206 resuming at `from` starts, when its Content-Range says it does. */
const resumesAt = (opened: OpenedBody, from: number) =>
  opened.statusCode === 206 && new RegExp(`^bytes ${from}-\\d+/(\\d+|\\*)$`).test(String(one(opened.headers, 'content-range') ?? '').trim());

/**
 * Streams `url` to `path`; its size. Throws FetchError (naming `field`) when the file is over
 * `limits.maxBytes`, or could not be fetched whole after DOWNLOAD_TRIES.
 */
export async function downloadToFile(client: Opener, url: string, field: string, path: string, limits: DownloadLimits): Promise<number> {
  let size = 0;
  let validator: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const resume = size > 0 && validator !== undefined;
    const opened = await client.openCustomerUrl(url, field, limits.timeoutMs, resume ? { range: `bytes=${size}-`, 'if-range': validator! } : undefined);
    // A server that sent the whole file again (or never answers ranges) is read from the start.
    if (!resume || !resumesAt(opened, size)) size = 0;
    validator = validatorOf(opened);
    let windowBytes = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        windowBytes += chunk.length;
        done(size > limits.maxBytes ? new FetchError(`${field}: the file is larger than ${limits.maxBytes} bytes`) : null, chunk);
      },
    });
    const stallWatch = setInterval(() => {
      if (windowBytes < STALL_BYTES) opened.body.destroy(new StalledError(`stalled: less than ${STALL_BYTES} bytes in ${limits.stallMs} ms`));
      windowBytes = 0;
    }, limits.stallMs);
    const file = createWriteStream(path, { flags: size > 0 ? 'a' : 'w' });
    try {
      await pipeline(opened.body, capped, file);
      return size;
    } catch (err) {
      if (err instanceof FetchError) throw err;
      const detail =
        err instanceof StalledError ? err.message : opened.signal.aborted ? 'timed out' : String((err as { code?: string }).code ?? (err as Error).message);
      if (attempt >= DOWNLOAD_TRIES) throw opened.fail(`${detail}, after ${attempt} tries`);
    } finally {
      clearInterval(stallWatch);
      opened.done();
    }
    // What reached the disk, not what passed by, once the file is closed: a write still under way
    // would land after the size was read, and the next try's bytes after it, a seam in the file.
    if (!file.closed) await new Promise<void>((closed) => file.once('close', () => closed()));
    size = await stat(path).then(
      (s) => s.size,
      () => 0,
    );
    await sleep(attempt * RETRY_PAUSE_MS);
  }
}
