// The one way the service opens a customer's or a worker's file: in child processes under the
// document limits (pool.ts). Created once per process (main.ts) and given to the API and the
// activities as `deps.documentReader`.
import type { Readable } from 'node:stream';
import { Counter } from 'prom-client';
import { registry } from '../../metrics.js';
import type { Transcript } from '../../domain/transcript.js';
import type { ResultKind, ResultNeeds } from '../../domain/resultKinds.js';
import type { ResultFormat } from '../../domain/formats.js';
import type { RenderedFile, RenderOptions } from '../../domain/render/index.js';
import type { FileClass, OcrEstimate } from '../measure.js';
import { DEFAULT_DOCUMENT_LIMITS, DEFAULT_OCR_LIMITS, DocumentRefusedError, type DocumentLimits, type OcrLimits } from '../limits.js';
import { ocrLanguageData, type OcrResult } from '../ocr.js';
import { ChildPool } from './pool.js';
import type { BlockSource, JobOp, MediaFormat, MediaInput, RangedMediaInput } from './protocol.js';

export { ChildLostError } from './pool.js';
export { NotMediaError, STATED_IN_HEADER, type BlockSource, type MediaFormat, type MediaInput, type RangedMediaInput } from './protocol.js';
export { installedOcrLanguages, type OcrPage, type OcrResult } from '../ocr.js';

export const documentsRefused = new Counter({
  name: 'documents_refused_total',
  help: 'Customer and worker files refused at the document limits, by reason (time, memory, pages, words, inflated_size, zip_entries, nesting, pixels, crashed)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export interface SandboxSettings {
  limits: DocumentLimits;
  /** Documents opened at once (one child process each). */
  children: number;
  /** How long a file waits for a free child before the 503. */
  queueWaitMs: number;
  /**
   * The same for result files and page images: people and downloads wait for these, and a page's
   * images ask at once, so a cold reader (pdf.js, the canvas library) must not turn them into 503s.
   */
  renderWaitMs?: number;
  /**
   * The CPU time a result file's rendering may take: a PDF of ten hours of Chinese (the longest
   * media taken) sets and shapes 150,000 characters, about 10 s here, where a document read for a
   * quote gets `limits.cpuMs`.
   */
  renderCpuMs?: number;
  /**
   * Result files rendered at once (one child each, started when needed): with two, one file that
   * takes its whole CPU budget leaves the other reader to everyone else's downloads.
   */
  renderChildren?: number;
  /** Start a reader for documents and one for media probes at once (the API's roles), not at first use. */
  warm?: boolean;
  /** Drafting text from scans (ocrPages): its own children, so that minutes of OCR never hold the readers the API measures with. */
  ocr?: Partial<OcrSettings>;
}

export interface OcrSettings extends OcrLimits {
  /** Scans read at once (one child process each, one CPU core each while it recognises). */
  children: number;
  /** How long a scan waits for a free child before the 503 (its callers are activities, which retry). */
  queueWaitMs: number;
}

export const DEFAULT_SANDBOX: SandboxSettings = { limits: DEFAULT_DOCUMENT_LIMITS, children: 2, queueWaitMs: 2_000 };
export const DEFAULT_RENDER_WAIT_MS = 15_000;
export const DEFAULT_RENDER_CPU_MS = 30_000;
export const DEFAULT_RENDER_CHILDREN = 2;
export const DEFAULT_OCR_SETTINGS: OcrSettings = { ...DEFAULT_OCR_LIMITS, children: 1, queueWaitMs: 30_000 };

export interface DocumentReader {
  documentWords(bytes: Uint8Array, fileName: string): Promise<number>;
  ocrEstimate(bytes: Uint8Array, fileName: string, cls: FileClass): Promise<OcrEstimate>;
  importDocument(bytes: Uint8Array, fileName: string): Promise<Transcript>;
  /** Refuses a result file that does not read, or lacks what `needs` asks (times, word timings). */
  checkResultFile(needs: ResultNeeds, bytes: Uint8Array, fileName: string): Promise<void>;
  renderResult(kind: ResultKind, bytes: Uint8Array, fileName: string, format: ResultFormat, options: RenderOptions): Promise<RenderedFile>;
  /** Page `page` (from 1) of a PDF drawn as a PNG, for the person who types it. */
  renderPdfPage(bytes: Uint8Array, page: number): Promise<Buffer>;
  /**
   * A media stream's container and duration, from its chunks as they arrive. Probes share a child
   * (they mostly wait for the network); `alone` gives one a child of its own, for the retry of a
   * probe whose shared child was killed (ChildLostError) for another probe's sake.
   */
  mediaDuration(input: Readable, media: MediaInput, alone?: boolean): Promise<MediaFormat>;
  /**
   * A media file's container and duration read by ranges: the child asks `source` for the parts the
   * parser reads (the header, the index, the tail). No duration: the container states none where it
   * was read, and the file must be scanned whole (mediaDuration with scanWholeFile).
   */
  mediaDurationByRanges(source: BlockSource, media: RangedMediaInput, alone?: boolean): Promise<MediaFormat>;
  /**
   * A draft of the text of each page of a scan by OCR (ocr.ts): an image file (PNG, JPEG, GIF,
   * WebP, BMP, TIFF) is page 1; a PDF's pages (at most maxPages) are drawn and read in turn, each
   * within OcrLimits.cpuMsPerPage of CPU time: a page whose recognition takes three quarters of it
   * comes back empty with `timedOut` and the others are still read. `languages`: ISO 639-1 codes
   * ('en'; 'en-GB' counts as 'en'), at least one (none: TypeError). A language without installed
   * data answers at once `{ pages: [], unsupported: 'de' }` (the first such code). Rejects with
   * DocumentRefusedError past the limits (time: other work over a page's budget; memory; pages;
   * pixels), TranscriptImportError for a file that is not a readable image or PDF, and
   * ServiceBusyError when the OCR children stay busy.
   */
  ocrPages(bytes: Uint8Array, fileName: string, languages: readonly string[]): Promise<OcrResult>;
  close(): Promise<void>;
}

export function createDocumentSandbox(settings: SandboxSettings = DEFAULT_SANDBOX): DocumentReader {
  const { limits } = settings;
  /** Readers of documents, one job a child, at a lower CPU priority. */
  const documentReaders = (name: string, noun: string, children: number, queueWaitMs: number, cpuMs = limits.cpuMs) =>
    new ChildPool({ name, noun, children, jobsPerChild: 1, queueWaitMs, limits: { ...limits, cpuMs }, recycleAfterJobs: 200, preload: 'documents', nice: 10 });
  const documents = documentReaders('documents', 'document', settings.children, settings.queueWaitMs);
  const media = new ChildPool({
    name: 'media files',
    noun: 'media file',
    children: 1,
    jobsPerChild: 64,
    queueWaitMs: settings.queueWaitMs,
    limits,
    preload: 'media',
    nice: 0,
  });
  const mediaAlone = new ChildPool({
    name: 'media files',
    noun: 'media file',
    children: 2,
    jobsPerChild: 1,
    queueWaitMs: settings.queueWaitMs,
    limits,
    preload: 'media',
    nice: 0,
  });
  // Result files people download have readers of their own: a burst of quotes never keeps a
  // finished order's file waiting (issue 31), nor does one file that takes its whole budget (issue 41).
  const renderings = documentReaders(
    'result files',
    'result file',
    settings.renderChildren ?? DEFAULT_RENDER_CHILDREN,
    settings.renderWaitMs ?? DEFAULT_RENDER_WAIT_MS,
    settings.renderCpuMs ?? DEFAULT_RENDER_CPU_MS,
  );
  const ocrSettings: OcrSettings = { ...DEFAULT_OCR_SETTINGS, ...settings.ocr };
  const ocrLimits: OcrLimits = { cpuMsPerPage: ocrSettings.cpuMsPerPage, memoryMb: ocrSettings.memoryMb, maxImagePixels: ocrSettings.maxImagePixels };
  // The CPU limit is per page: each page restarts it (JobStep).
  const ocr = new ChildPool({
    name: 'scans',
    noun: 'page',
    children: ocrSettings.children,
    jobsPerChild: 1,
    queueWaitMs: ocrSettings.queueWaitMs,
    limits: { cpuMs: ocrSettings.cpuMsPerPage, memoryMb: ocrSettings.memoryMb },
    recycleAfterJobs: 200,
    preload: 'ocr',
    nice: 10,
  });

  if (settings.warm) {
    documents.warm();
    media.warm();
  }

  const counted = async <T>(work: Promise<unknown>): Promise<T> => {
    try {
      return (await work) as T;
    } catch (err) {
      if (err instanceof DocumentRefusedError) documentsRefused.inc({ reason: err.reason });
      throw err;
    }
  };
  const run = <T>(op: JobOp, ...args: unknown[]) => counted<T>(documents.run({ op, args: [...args, limits] }));
  const render = <T>(op: JobOp, ...args: unknown[]) => counted<T>(renderings.run({ op, args: [...args, limits] }));

  return {
    documentWords: (bytes, fileName) => run('documentWords', bytes, fileName),
    ocrEstimate: (bytes, fileName, cls) => run('ocrEstimate', bytes, fileName, cls),
    importDocument: (bytes, fileName) => run('importDocument', bytes, fileName),
    checkResultFile: (needs, bytes, fileName) => run('checkResultFile', needs, bytes, fileName),
    async renderResult(kind, bytes, fileName, format, options) {
      const rendered = await render<RenderedFile>('renderResult', kind, bytes, fileName, format, options);
      // Across processes a Buffer arrives as a plain Uint8Array.
      return { ...rendered, body: Buffer.from(rendered.body.buffer, rendered.body.byteOffset, rendered.body.length) };
    },
    async renderPdfPage(bytes, page) {
      const png = await render<Uint8Array>('renderPdfPage', bytes, page);
      return Buffer.from(png.buffer, png.byteOffset, png.length);
    },
    mediaDuration: (input, mediaInput, alone = false) => counted((alone ? mediaAlone : media).run({ op: 'mediaDuration', args: [mediaInput] }, input)),
    mediaDurationByRanges: (source, mediaInput, alone = false) =>
      counted((alone ? mediaAlone : media).run({ op: 'mediaDurationByRanges', args: [mediaInput] }, source)),
    async ocrPages(bytes, fileName, languages) {
      // Answered here, without a child's time.
      const data = ocrLanguageData(languages);
      if (!Array.isArray(data)) return { pages: [], unsupported: data.unsupported };
      return counted<OcrResult>(ocr.run({ op: 'ocrPages' satisfies JobOp, args: [bytes, fileName, [...languages], limits, ocrLimits] }));
    },
    async close() {
      await Promise.all([documents.close(), renderings.close(), media.close(), mediaAlone.close(), ocr.close()]);
    },
  };
}
