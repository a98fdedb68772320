// The one copy of an order's media (issue 27): the customer's file fetched once, streamed to the
// file store (never held in memory), kept only when its bytes are audio or video, and for video
// reduced once to its audio (src/engines/audioRendition.ts), so that a gigabyte of video becomes
// megabytes. The engines (drafts, AI transcription, alignment, the proofreading check, timing) and
// the workbench's player all read this copy, `input_files.media`; none fetches the customer's URL again.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RequestError } from '../contracts/failures.js';
import type { Db } from '../db/connection.js';
import { keepInputFile } from '../db/orders.js';
import type { InputFile, OrderRow } from '../db/schema.js';
import { SIGNATURE_BYTES, servedTypeOf } from '../documents/measure.js';
import type { AudioExtractor } from '../engines/audioRendition.js';
import { FetchError, type Limits, type OutboundClient } from '../net/outbound.js';
import { mediaUrlOf } from '../products/registry.js';
import type { FileStore } from '../storage/fileStore.js';
import { log } from '../log.js';

export interface OrderMediaDeps {
  db: Db;
  files: FileStore;
  outbound: OutboundClient;
  media: Limits;
  /** Extracts a video's audio; without it (no ffmpeg) a video is kept as it is. */
  audioExtractor?: AudioExtractor;
}

/** Fetching a customer's file whole may take this long (5 GiB at 50 Mbit/s is about 14 minutes). */
const FETCH_TIMEOUT_MS = 30 * 60_000;
/** Containers that may hold video: reduced to their audio. */
const VIDEO = new Set(['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska']);

/** A customer's media that is not audio or video by its bytes: never kept, played or sent to an engine. */
export class MediaRefusedError extends RequestError {
  constructor(message: string) {
    super(message, 415);
  }
}

const fetching = new Map<number, Promise<InputFile | undefined>>();

/** The order's kept media (fetched and kept on first use; one fetch at a time per order in this process); undefined when it has none. */
export function orderMedia(deps: OrderMediaDeps, order: OrderRow): Promise<InputFile | undefined> {
  const kept = order.inputFiles.media;
  if (kept) return Promise.resolve(kept);
  const url = mediaUrlOf(order);
  if (!url) return Promise.resolve(undefined);
  let pending = fetching.get(order.id);
  if (!pending) {
    pending = keepMedia(deps, order, url).finally(() => fetching.delete(order.id));
    fetching.set(order.id, pending);
  }
  return pending;
}

async function keepMedia(deps: OrderMediaDeps, order: OrderRow, url: string): Promise<InputFile> {
  const [download, rendition] = [deps.files.stagingPath(), deps.files.stagingPath()];
  await mkdir(dirname(download), { recursive: true });
  try {
    const started = Date.now();
    const fetched = await fetchTo(deps, url, download);
    const served = servedTypeOf(await headOf(download));
    if (served?.cls !== 'media') throw new MediaRefusedError(`the customer's media for order ${order.id} is not audio or video by its content; it is not kept`);
    let file: InputFile | undefined;
    if (VIDEO.has(served.type) && deps.audioExtractor) {
      try {
        await deps.audioExtractor.extract(download, rendition, order.seconds);
        const { key, size } = await deps.files.putFile(rendition);
        file = { key, fileName: 'audio.ogg', contentType: 'audio/ogg' };
        log('order media kept: the audio of a video', { orderId: order.id, videoBytes: fetched, audioBytes: size, ms: Date.now() - started });
      } catch (err) {
        // A video without audio, or one ffmpeg cannot read: kept as it is (the engines say what they hear in it).
        log("the audio of an order's video was not extracted: the video is kept", { orderId: order.id, error: String((err as Error).message) });
      }
    }
    if (!file) {
      const { key } = await deps.files.putFile(download);
      file = { key, fileName: `media.${served.ext}`, contentType: served.type };
      log('order media kept', { orderId: order.id, bytes: fetched, type: served.type, ms: Date.now() - started });
    }
    await keepInputFile(deps.db, order.id, 'media', file);
    return file;
  } finally {
    await Promise.all([rm(download, { force: true }), rm(rendition, { force: true })]);
  }
}

/** Streams the customer's file to `path` under the size limit; its size. */
async function fetchTo(deps: OrderMediaDeps, url: string, path: string): Promise<number> {
  const opened = await deps.outbound.openCustomerUrl(url, 'url', FETCH_TIMEOUT_MS);
  let size = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(size > deps.media.maxBytes ? new FetchError(`url: the file is larger than ${deps.media.maxBytes} bytes`) : null, chunk);
    },
  });
  try {
    await pipeline(opened.body, capped, createWriteStream(path));
    return size;
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw opened.fail(opened.signal.aborted ? 'timed out' : String((err as { code?: string }).code ?? (err as Error).message));
  } finally {
    opened.done();
  }
}

async function headOf(path: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(path, { start: 0, end: SIGNATURE_BYTES - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
