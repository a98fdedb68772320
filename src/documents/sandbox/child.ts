// A child process that opens files for the pool (pool.ts): it answers each job with a value or an
// error meant for the customer. Readers are loaded on first use, so a media child never loads
// pdf.js. Its CPU time and memory are watched, and it is killed past them, by the parent.
// argv: the readers to preload, then the service's channel and this child's token (childChannel.ts).
import { PassThrough } from 'node:stream';
import { connectToParent } from '../../runtime/childChannel.js';
import type { DocumentLimits, OcrLimits } from '../limits.js';
import type { FileClass } from '../measure.js';
import type { ResultKind, ResultNeeds } from '../../domain/resultKinds.js';
import type { ResultFormat } from '../../domain/formats.js';
import type { RenderOptions } from '../../domain/render/index.js';
import {
  serializeError,
  type JobBlock,
  type JobInput,
  type JobReply,
  type JobRequest,
  type JobStep,
  type MediaFormat,
  type MediaInput,
  type RangedMediaInput,
} from './protocol.js';
import type { RemoteFile } from './rangedMedia.js';
import { StreamWatch } from './streamedMedia.js';

const inputs = new Map<number, PassThrough>();
/** Streamed media files, by job: what passes of them, beside the parser. */
const streamWatches = new Map<number, StreamWatch>();
/** Files read by ranges, by job: the parent's blocks are answered to them. */
const remoteFiles = new Map<number, RemoteFile>();
/** A job that has answered already (a media header that stated its duration). */
const ANSWERED = Symbol('answered');
const [preloadName, channelName, token] = process.argv.slice(2);
const parent = await connectToParent(channelName!, token!);
// The service is gone (or let go of this child): so is the reason to live.
parent.once('close', () => process.exit(0));
const reply = (message: JobReply) => parent.send(message);

/** The duration of a media stream (streamedMedia.ts); ANSWERED once it was answered before the stream's end. */
async function mediaDuration(id: number, input: PassThrough, media: MediaInput): Promise<MediaFormat | typeof ANSWERED> {
  const { streamedMediaDuration } = await import('./streamedMedia.js');
  try {
    const format = await streamedMediaDuration(input, streamWatches.get(id)!, media, (ok) => reply({ id, ok }));
    return format ?? ANSWERED;
  } finally {
    inputs.delete(id);
    streamWatches.delete(id);
  }
}

async function run({ id, op, args }: JobRequest): Promise<unknown> {
  switch (op) {
    case 'documentWords': {
      const { documentWords } = await import('../measure.js');
      const [bytes, fileName, limits] = args as [Uint8Array, string, DocumentLimits];
      return documentWords(bytes, fileName, limits);
    }
    case 'ocrEstimate': {
      const { estimateOcrWords } = await import('../measure.js');
      const [bytes, fileName, cls, limits] = args as [Uint8Array, string, FileClass, DocumentLimits];
      return estimateOcrWords(bytes, fileName, cls, limits);
    }
    case 'importDocument': {
      const { importDocument } = await import('../importers.js');
      const [bytes, fileName, limits] = args as [Uint8Array, string, DocumentLimits];
      return importDocument(bytes, fileName, limits);
    }
    case 'checkResultFile': {
      const { checkResultFile } = await import('../validate.js');
      const [needs, bytes, fileName, limits] = args as [ResultNeeds, Uint8Array, string, DocumentLimits];
      return checkResultFile(needs, bytes, fileName, limits);
    }
    case 'renderResult': {
      const [{ importDocument }, { renderResult }, { fontLibrary }] = await Promise.all([
        import('../importers.js'),
        import('../../domain/render/index.js'),
        import('../fonts.js'),
      ]);
      const [kind, bytes, fileName, format, options, limits] = args as [ResultKind, Uint8Array, string, ResultFormat, RenderOptions, DocumentLimits];
      return renderResult(kind, await importDocument(bytes, fileName, limits), format, options, fontLibrary());
    }
    case 'renderPdfPage': {
      const { renderPdfPage } = await import('../pdf.js');
      const [bytes, page, limits] = args as [Uint8Array, number, DocumentLimits];
      return renderPdfPage(bytes, page, limits);
    }
    case 'ocrPages': {
      const { ocrPages } = await import('../ocr.js');
      const [bytes, fileName, languages, limits, { maxImagePixels, cpuMsPerPage }] = args as [Uint8Array, string, string[], DocumentLimits, OcrLimits];
      // Each page tells the parent it began: the watchdog gives each page its own CPU budget.
      return ocrPages(bytes, fileName, languages, limits, { maxImagePixels, cpuMsPerPage, onPage: () => parent.send({ id, step: true } satisfies JobStep) });
    }
    case 'mediaDurationByRanges': {
      const { RemoteFile, rangedMediaDuration } = await import('./rangedMedia.js');
      const input = args[0] as RangedMediaInput;
      const file = new RemoteFile(id, input.size, input.mimeType ?? '', (read) => parent.send(read));
      remoteFiles.set(id, file);
      try {
        return await rangedMediaDuration(file, input);
      } finally {
        remoteFiles.delete(id);
      }
    }
    case 'mediaDuration': {
      // Registered before the first await: the chunks follow the request at once.
      const input = new PassThrough();
      inputs.set(id, input);
      streamWatches.set(id, new StreamWatch((args[0] as MediaInput).scanWholeFile));
      return mediaDuration(id, input, args[0] as MediaInput);
    }
  }
}

parent.on('message', (message: JobRequest | JobInput | JobBlock) => {
  if ('seq' in message) return void remoteFiles.get(message.id)?.answer(message);
  if (!('op' in message)) {
    const input = inputs.get(message.id);
    if (!input || input.destroyed) return; // answered already: the rest is not needed
    if (message.chunk) {
      streamWatches.get(message.id)?.push(message.chunk);
      input.write(message.chunk);
    }
    if (message.end) input.end();
    return;
  }
  // One chain, so that an answer that cannot be sent (a value the channel cannot carry) is the job's error, not an unhandled rejection.
  run(message)
    .then((ok) => {
      if (ok !== ANSWERED) reply({ id: message.id, ok });
    })
    .catch((err: unknown) => {
      const known = serializeError(err);
      if (!known)
        process.stderr.write(
          `${JSON.stringify({ level: 'warn', msg: 'a file reader failed', op: message.op, error: String((err as Error)?.stack ?? err) })}\n`,
        );
      reply({ id: message.id, error: known ?? { kind: 'import', message: 'the file could not be read' } });
    });
});
// Readers loaded before the first job (documents, media or ocr), so that no file pays for them.
const preload =
  preloadName === 'media'
    ? [import('music-metadata'), import('strtok3'), import('./rangedMedia.js'), import('./streamedMedia.js')]
    : preloadName === 'ocr'
      ? [import('../ocr.js'), import('../pdf.js'), import('tesseract.js'), import('@napi-rs/canvas')]
      : [import('../measure.js'), import('../importers.js'), import('../validate.js'), import('../../domain/render/index.js')];
// A reader that cannot load ends the child: the pool reports a reader that exited before it was ready.
Promise.all(preload).then(
  () => parent.send({ ready: true }),
  (err: unknown) => {
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'a file reader could not load', error: String((err as Error)?.stack ?? err) })}\n`);
    process.exit(1);
  },
);
