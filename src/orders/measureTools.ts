// The I/O behind products' measuring (src/products/types.ts MeasureTools): customer URLs through
// the one outbound client, documents and media through the sandbox (child processes under the
// document limits). Failures name the field.
// Probes are bounded: quotes (mode=test) get lower limits than live orders, and each account has
// a few probes at once, so a customer's slow URLs cannot hold the API for others.
import { createMediaProber, type ProbeOptions } from '../net/probe.js';
import { FetchError, type Limits, type MediaLimits, type OutboundClient } from '../net/outbound.js';
import { classifyFile, documentFileName } from '../documents/measure.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import { TranscriptImportError } from '../domain/transcript.js';
import { RateLimitedError, RequestError } from '../contracts/failures.js';
import type { FetchedFile, MeasureTools } from '../products/types.js';
import type { UploadedFiles } from '../net/uploadedFiles.js';

/** Enough of a file to recognise it by its signature. */
const SNIFF_BYTES = 64 * 1024;

export interface ProbePolicy {
  /**
   * A quote's deadline, below the live one's (the lower applies). Sizes and lengths are the live
   * limits: a quote and a live order of the same file measure the same.
   */
  quote: { timeoutMs: number };
  /** Probes one account may run at once. */
  perAccount: number;
  /** How long a probe over that number waits for a free slot before the 429. */
  waitMs: number;
  /** Media durations remembered by URL, reused while the server vouches the file is the same (0: none). */
  cacheEntries: number;
}

async function named<T>(field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof TranscriptImportError) throw new RequestError(`${field}: ${err.message}`);
    throw err;
  }
}

const sooner = <L extends Limits>(limits: L, timeoutMs: number): L => ({ ...limits, timeoutMs: Math.min(limits.timeoutMs, timeoutMs) });

/** `h:mm:ss` of whole seconds, for refusals. */
const clock = (seconds: number) =>
  `${Math.floor(seconds / 3600)}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;

/** Per-account slots: a short wait absorbs a burst of quick probes; slots held by slow ones give 429. */
function probeSlots(policy: ProbePolicy) {
  const busy = new Map<number, number>();
  const waiting = new Map<number, Array<() => void>>();
  const release = (account: number) => {
    const next = waiting.get(account)?.shift();
    if (next) return next(); // the slot passes on
    const left = (busy.get(account) ?? 1) - 1;
    if (left > 0) busy.set(account, left);
    else busy.delete(account);
  };
  const acquire = (account: number): Promise<void> => {
    const count = busy.get(account) ?? 0;
    if (count < policy.perAccount) {
      busy.set(account, count + 1);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const queue = waiting.get(account) ?? [];
      waiting.set(account, queue);
      const take = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(take), 1);
        if (queue.length === 0) waiting.delete(account);
        reject(new RateLimitedError(`too many files of this account are being measured at once (at most ${policy.perAccount}); retry in a second`, 1));
      }, policy.waitMs);
      queue.push(take);
    });
  };
  return async <T>(account: number, work: () => Promise<T>): Promise<T> => {
    await acquire(account);
    try {
      return await work();
    } finally {
      release(account);
    }
  };
}

/** Tools for one request: `toolsFor(accountId, mode)`. */
export function measureTools(
  outbound: OutboundClient,
  reader: DocumentReader,
  limits: { media: MediaLimits; documents: Limits; probes: ProbePolicy },
  options: ProbeOptions = {},
  uploads?: UploadedFiles,
) {
  const inSlot = probeSlots(limits.probes);
  const probeMedia = createMediaProber(outbound, reader, limits.probes.cacheEntries, options);
  return (accountId: number, mode: string): MeasureTools => {
    const quote = mode === 'test';
    const media = quote ? sooner(limits.media, limits.probes.quote.timeoutMs) : limits.media;
    const documents = quote ? sooner(limits.documents, limits.probes.quote.timeoutMs) : limits.documents;
    /** An upload's URL (read by `outbound` from the store) is this account's to order, whole and unexpired. */
    const mayOrder = async (url: string, field: string) => {
      const id = uploads?.idOf(url);
      if (id) await uploads!.checkOrderable(id, accountId, field);
    };
    return {
      mediaSeconds: (url, field) =>
        inSlot(accountId, async () => {
          await mayOrder(url, field);
          const seconds = await probeMedia(url, field, media);
          if (seconds > media.maxSeconds) throw new FetchError(`${field}: the media is ${clock(seconds)} long; at most ${clock(media.maxSeconds)} is accepted`);
          return seconds;
        }),

      fetchFile: (url, field) =>
        inSlot(accountId, async (): Promise<FetchedFile> => {
          await mayOrder(url, field);
          // An upload has no name to go by: what it is comes from its bytes alone.
          const path = uploads?.idOf(url) ? '' : new URL(url).pathname;
          const fetched = await outbound.fetchCustomerFile(url, field, documents, {
            bytes: SNIFF_BYTES,
            stop: (head) => classifyFile(head, undefined, path) === 'media',
          });
          const fileClass = classifyFile(fetched.bytes, fetched.contentType, path);
          return { fileClass, bytes: fetched.bytes, fileName: documentFileName(fetched.bytes, fetched.contentType, path) };
        }),

      readTranscript: (file, field, accepted) =>
        named(field, async () => {
          const extension = file.fileName.split('.').pop() ?? '';
          if (!accepted.includes(extension)) {
            throw new RequestError(
              `${field}: a ${extension === 'bin' ? 'file of unknown type' : `.${extension} file`} is not accepted here (accepted: ${accepted.join(', ')})`,
            );
          }
          return reader.importDocument(file.bytes, file.fileName);
        }),

      documentWords: (file, field) => named(field, () => reader.documentWords(file.bytes, file.fileName)),
      ocrWords: (file, field) => named(field, async () => (await reader.ocrEstimate(file.bytes, file.fileName, file.fileClass)).words),
    };
  };
}
