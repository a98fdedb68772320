// A child process that opens files for the pool (pool.ts): it answers each job with a value or an
// error meant for the customer. Readers are loaded on first use, so a media child never loads
// pdf.js. Its CPU time and memory are watched, and it is killed past them, by the parent.
import { PassThrough } from 'node:stream';
import type { DocumentLimits, OcrLimits } from '../limits.js';
import type { FileClass } from '../measure.js';
import type { ResultKind, ResultNeeds } from '../../domain/resultKinds.js';
import type { ResultFormat } from '../../domain/formats.js';
import type { RenderOptions } from '../../domain/render/index.js';
import {
  NotMediaError,
  serializeError,
  STATED_IN_HEADER,
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
import { MovieHeaderWatch, statesDuration } from '../mediaDuration.js';

const inputs = new Map<number, PassThrough>();
/** Streamed media files, by job: their movie header (`mvhd`) as it passes. */
const movieWatches = new Map<number, MovieHeaderWatch>();
/** Files read by ranges, by job: the parent's blocks are answered to them. */
const remoteFiles = new Map<number, RemoteFile>();
/** A job that has answered already (a media header that stated its duration). */
const ANSWERED = Symbol('answered');
const reply = (message: JobReply) => process.send!(message);

/** The duration of a media stream; with `scanWholeFile` false, the first duration a header states. */
async function mediaDuration(id: number, input: PassThrough, { mimeType, size, scanWholeFile }: MediaInput): Promise<MediaFormat | typeof ANSWERED> {
  const { parseStream } = await import('music-metadata');
  let stated: number | undefined;
  // Parsers read on past the header (to trailing tags); once it has given the duration, answer.
  let container: string | undefined;
  const observer = scanWholeFile
    ? undefined
    : ({ tag }: { tag: { type: string; id: string; value: unknown } }) => {
        if (tag.type === 'format' && tag.id === 'container' && typeof tag.value === 'string') container = tag.value;
        if (
          stated === undefined &&
          statesDuration(container) &&
          tag.type === 'format' &&
          tag.id === 'duration' &&
          typeof tag.value === 'number' &&
          tag.value > 0 &&
          Number.isFinite(tag.value)
        ) {
          stated = tag.value;
          reply({ id, ok: { container: STATED_IN_HEADER, duration: stated } });
          input.destroy();
        }
      };
  // QuickTime files the parser knows but states no duration for: their movie header, seen on the way (in).
  const { isMovie } = await import('./rangedMedia.js');
  const movie = movieWatches.get(id);
  try {
    const { format } = await parseStream(input, { mimeType, size }, { duration: scanWholeFile, skipCovers: true, observer: observer as never });
    const duration = format.duration ?? (isMovie(format.container) ? movie?.duration : undefined);
    return stated === undefined ? { container: format.container, duration } : ANSWERED;
  } catch {
    if (stated !== undefined) return ANSWERED;
    throw new NotMediaError('the file is not a recognised audio or video file');
  } finally {
    inputs.delete(id);
    movieWatches.delete(id);
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
      return ocrPages(bytes, fileName, languages, limits, { maxImagePixels, cpuMsPerPage, onPage: () => process.send!({ id, step: true } satisfies JobStep) });
    }
    case 'mediaDurationByRanges': {
      const { RemoteFile, rangedMediaDuration } = await import('./rangedMedia.js');
      const input = args[0] as RangedMediaInput;
      const file = new RemoteFile(id, input.size, input.mimeType ?? '');
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
      movieWatches.set(id, new MovieHeaderWatch());
      return mediaDuration(id, input, args[0] as MediaInput);
    }
  }
}

process.on('message', (message: JobRequest | JobInput | JobBlock) => {
  if ('seq' in message) return void remoteFiles.get(message.id)?.answer(message);
  if (!('op' in message)) {
    const input = inputs.get(message.id);
    if (!input || input.destroyed) return; // answered already: the rest is not needed
    if (message.chunk) {
      movieWatches.get(message.id)?.push(message.chunk);
      input.write(message.chunk);
    }
    if (message.end) input.end();
    return;
  }
  run(message).then(
    (ok) => {
      if (ok !== ANSWERED) reply({ id: message.id, ok });
    },
    (err: unknown) => {
      const known = serializeError(err);
      if (!known)
        process.stderr.write(
          `${JSON.stringify({ level: 'warn', msg: 'a file reader failed', op: message.op, error: String((err as Error)?.stack ?? err) })}\n`,
        );
      reply({ id: message.id, error: known ?? { kind: 'import', message: 'the file could not be read' } });
    },
  );
});
// Readers loaded before the first job (argv: documents, media or ocr), so that no file pays for them.
const preload =
  process.argv[2] === 'media'
    ? [import('music-metadata'), import('strtok3'), import('./rangedMedia.js')]
    : process.argv[2] === 'ocr'
      ? [import('../ocr.js'), import('../pdf.js'), import('tesseract.js'), import('@napi-rs/canvas')]
      : [import('../measure.js'), import('../importers.js'), import('../validate.js'), import('../../domain/render/index.js')];
void Promise.all(preload).then(() => process.send!({ ready: true }));

// The parent is gone: so is the reason to live.
process.on('disconnect', () => process.exit(0));
