// The one copy of an order's media (issue 27): the customer's file fetched once, streamed to the
// file store (never held in memory), kept only when its bytes are an accepted audio or video format
// (documents/mediaFormats.ts), measured again by what it decodes to, and cut at the length paid for
// (issue 41: the price is what is worked); a video, or a format a browser does not play, reduced
// once to its audio (src/engines/audioRendition.ts), so that a gigabyte of video becomes megabytes.
// The engines (drafts, AI transcription, alignment, the proofreading check, timing) and the
// workbench's player all read this copy, `input_files.media`; none fetches the customer's URL again.
import { createReadStream } from 'node:fs';
import { link, mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RequestError } from '../contracts/failures.js';
import type { Db } from '../db/connection.js';
import { keepInputFile, noteOrderMedia } from '../db/orders.js';
import { forOrder } from '../db/orderBlobs.js';
import type { InputFile, OrderRow } from '../db/schema.js';
import { SIGNATURE_BYTES } from '../documents/measure.js';
import { MEDIA_FORMATS, mediaFormatOf, type MediaFormatKey } from '../documents/mediaFormats.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import type { AudioRenderer, RenderPriority } from '../engines/audioRendition.js';
import { downloadToFile } from '../net/download.js';
import { FetchError, type MediaLimits, type OutboundClient } from '../net/outbound.js';
import type { UploadedFiles } from '../net/uploadedFiles.js';
import { mediaUrlOf } from '../products/registry.js';
import type { FileStore } from '../storage/fileStore.js';
import { log } from '../log.js';

export interface OrderMediaDeps {
  db: Db;
  files: FileStore;
  outbound: OutboundClient;
  media: MediaLimits;
  /** ffmpeg: measures what the file decodes to and renders its audio; without it, only formats kept as they are are worked. */
  audioRenderer?: AudioRenderer;
  /** The sandbox's parser measures the kept file again where ffmpeg is missing. */
  documentReader: Pick<DocumentReader, 'mediaDuration'>;
  /** This service's uploads: an order placed on one keeps a link to its file, not a copy. */
  uploads?: UploadedFiles;
}

/** Fetching a customer's file whole may take this long (5 GiB at 50 Mbit/s is about 14 minutes). */
const FETCH_TIMEOUT_MS = 30 * 60_000;

/** A customer's media that is not audio or video by its bytes: never kept, played or sent to an engine. */
export class MediaRefusedError extends RequestError {
  constructor(message: string) {
    super(message, 415);
  }
}

const fetching = new Map<number, Promise<InputFile | undefined>>();

/**
 * The order's kept media (fetched and kept on first use; one fetch at a time per order in this
 * process); undefined when it has none. `background`: for a draft, ffmpeg runs under SCHED_IDLE.
 */
export function orderMedia(deps: OrderMediaDeps, order: OrderRow, priority: RenderPriority = {}): Promise<InputFile | undefined> {
  const kept = order.inputFiles.media;
  if (kept) return Promise.resolve(kept);
  const url = mediaUrlOf(order);
  if (!url) return Promise.resolve(undefined);
  let pending = fetching.get(order.id);
  if (!pending) {
    pending = keepMedia(deps, order, url, priority).finally(() => fetching.delete(order.id));
    fetching.set(order.id, pending);
  }
  return pending;
}

async function keepMedia(deps: OrderMediaDeps, order: OrderRow, url: string, priority: RenderPriority): Promise<InputFile> {
  const [download, rendition] = [deps.files.stagingPath(), deps.files.stagingPath()];
  await mkdir(dirname(download), { recursive: true });
  try {
    const started = Date.now();
    const upload = deps.uploads?.idOf(url);
    const fetched = upload
      ? await linkUpload(deps.uploads!.pathOf(upload), download)
      : await downloadToFile(deps.outbound, url, 'url', download, {
          maxBytes: deps.media.maxBytes,
          timeoutMs: FETCH_TIMEOUT_MS,
          stallMs: deps.media.timeoutMs,
        });
    const format = mediaFormatOf(await headOf(download));
    if (!format) throw new MediaRefusedError(`the customer's media for order ${order.id} is not audio or video by its content; it is not kept`);
    const kept = await workedCopy(deps, order, format, download, rendition, priority);
    const file = kept.rendered
      ? { key: (await deps.files.putFile(rendition, forOrder(deps.db, order.id))).key, fileName: 'audio.ogg', contentType: 'audio/ogg' }
      : {
          key: (await deps.files.putFile(download, forOrder(deps.db, order.id))).key,
          fileName: `media.${MEDIA_FORMATS[format].ext}`,
          contentType: MEDIA_FORMATS[format].type,
        };
    if (kept.note) await noteOrderMedia(deps.db, order.id, kept.note);
    await keepInputFile(deps.db, order.id, 'media', file);
    log('order media kept', {
      orderId: order.id,
      bytes: fetched,
      format,
      kept: file.contentType,
      seconds: kept.seconds,
      cut: Boolean(kept.note),
      ms: Date.now() - started,
    });
    return file;
  } finally {
    await Promise.all([rm(download, { force: true }), rm(rendition, { force: true })]);
  }
}

/** Past what was paid for, this much more is worked (a container's rounding, an encoder's padding): 2 s and 0.5 %. */
export const workedTolerance = (paidSeconds: number) => 2 + paidSeconds * 0.005;

/**
 * Where the paid part of an order's media ends: its `seconds` from `from` on (a `till` past the
 * media's end was taken as its end at placement). Every product that takes media is priced so.
 */
export const paidEnd = (order: Pick<OrderRow, 'seconds' | 'params'>) => (order.params.from ?? 0) + order.seconds;

/**
 * What of the customer's file is worked: the file itself where the player and the engines take it
 * and it decodes to no more than was paid for; else its audio, rendered (a video, a format a browser
 * does not play), never more than the paid length and the tolerance. A file longer than that
 * (changed after its quote, or a header that understated it) is worked up to there, and the order
 * says so. Without ffmpeg the parser measures the file again, and one longer is refused.
 */
async function workedCopy(
  deps: OrderMediaDeps,
  order: OrderRow,
  format: MediaFormatKey,
  download: string,
  rendition: string,
  priority: RenderPriority,
): Promise<{ rendered: boolean; seconds: number; note?: string }> {
  const paid = paidEnd(order);
  const limit = Math.min(paid, deps.media.maxSeconds) + workedTolerance(paid);
  const ffmpeg = deps.audioRenderer;
  if (!ffmpeg) return measuredByParser(deps, order, format, download, limit);
  const failed = (err: unknown): never => {
    log("an order's media could not be decoded", { orderId: order.id, format, error: String((err as Error).message) });
    throw new MediaRefusedError(`the customer's media for order ${order.id} could not be decoded as audio (${MEDIA_FORMATS[format].name}); it is not worked`);
  };
  // One second past the limit tells a longer file from one that ends there.
  const { kept, demuxer } = MEDIA_FORMATS[format];
  const decoded = kept === 'as-is' ? await ffmpeg.decodedSeconds(download, demuxer, limit + 1, priority).catch(failed) : undefined;
  if (decoded !== undefined && decoded <= limit) return { rendered: false, seconds: decoded };
  const seconds = await ffmpeg.render(download, demuxer, rendition, limit, priority).catch(failed);
  const cut = decoded !== undefined || seconds >= limit - 0.1;
  return { rendered: true, seconds, ...(cut ? { note: cutNote(order, paid) } : {}) };
}

const clock = (seconds: number) => new Date(Math.round(seconds) * 1000).toISOString().slice(11, 19);

const cutNote = (order: OrderRow, paid: number) =>
  `The media is longer than the ${clock(order.seconds)} paid for (it changed after the order was placed, or its header understated its length): only ${
    paid > order.seconds ? `${clock(paid - order.seconds)} to ${clock(paid)}` : `its first ${clock(paid)}`
  } is worked.`;

/** Without ffmpeg: the kept file measured again by the probe's parser (in the sandbox); longer than paid for, refused. */
async function measuredByParser(deps: OrderMediaDeps, order: OrderRow, format: MediaFormatKey, download: string, limit: number) {
  if (MEDIA_FORMATS[format].kept !== 'as-is') {
    throw new MediaRefusedError(`order ${order.id}: ${MEDIA_FORMATS[format].name} media needs ffmpeg, which is not installed; it is not worked`);
  }
  const measured = await deps.documentReader.mediaDuration(createReadStream(download), { size: (await stat(download)).size, scanWholeFile: true });
  const seconds = measured.duration ?? 0;
  if (!(seconds > 0) || seconds > limit) {
    throw new MediaRefusedError(
      `order ${order.id}: the customer's media is ${seconds > 0 ? `${clock(seconds)} long, longer than the ${clock(order.seconds)} paid for` : 'not measurable'}; it is not worked`,
    );
  }
  return { rendered: false, seconds };
}

/** An upload's file as the staging file of the kept copy: a second name for the same bytes; its size. */
async function linkUpload(uploadPath: string, path: string): Promise<number> {
  try {
    await link(uploadPath, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new FetchError("url: the upload's file is gone (it expired or was deleted)");
    throw err;
  }
  return (await stat(path)).size;
}

async function headOf(path: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(path, { start: 0, end: SIGNATURE_BYTES - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
