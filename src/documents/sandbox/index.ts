// The one way the service opens a customer's or a worker's file: in child processes under the
// document limits (pool.ts). Created once per process (main.ts) and given to the API and the
// activities as `deps.documentReader`.
import type { Readable } from 'node:stream';
import { Counter } from 'prom-client';
import { registry } from '../../metrics.js';
import type { Transcript } from '../../domain/transcript.js';
import type { ResultKind } from '../../domain/resultKinds.js';
import type { ResultFormat } from '../../domain/formats.js';
import type { RenderedFile, RenderOptions } from '../../domain/render/index.js';
import type { FileClass, OcrEstimate } from '../measure.js';
import { DEFAULT_DOCUMENT_LIMITS, DocumentRefusedError, type DocumentLimits } from '../limits.js';
import { ChildPool } from './pool.js';
import type { JobOp, MediaFormat, MediaInput } from './protocol.js';

export { ChildLostError } from './pool.js';
export { NotMediaError, STATED_IN_HEADER, type MediaFormat, type MediaInput } from './protocol.js';

export const documentsRefused = new Counter({
  name: 'documents_refused_total',
  help: 'Customer and worker files refused at the document limits, by reason (time, memory, pages, words, inflated_size, zip_entries, nesting, crashed)',
  labelNames: ['reason'] as const, registers: [registry],
});

export interface SandboxSettings {
  limits: DocumentLimits;
  /** Documents opened at once (one child process each). */
  children: number;
  /** How long a file waits for a free child before the 429. */
  queueWaitMs: number;
  /** Start a reader for documents and one for media probes at once (the API's roles), not at first use. */
  warm?: boolean;
}

export const DEFAULT_SANDBOX: SandboxSettings = { limits: DEFAULT_DOCUMENT_LIMITS, children: 2, queueWaitMs: 2_000 };

export interface DocumentReader {
  documentWords(bytes: Uint8Array, fileName: string): Promise<number>;
  ocrEstimate(bytes: Uint8Array, fileName: string, cls: FileClass): Promise<OcrEstimate>;
  importDocument(bytes: Uint8Array, fileName: string): Promise<Transcript>;
  checkResultFile(kind: ResultKind, bytes: Uint8Array, fileName: string): Promise<void>;
  renderResult(kind: ResultKind, bytes: Uint8Array, fileName: string, format: ResultFormat, options: RenderOptions): Promise<RenderedFile>;
  /** Page `page` (from 1) of a PDF drawn as a PNG, for the person who types it. */
  renderPdfPage(bytes: Uint8Array, page: number): Promise<Buffer>;
  /**
   * A media stream's container and duration, from its chunks as they arrive. Probes share a child
   * (they mostly wait for the network); `alone` gives one a child of its own, for the retry of a
   * probe whose shared child was killed (ChildLostError) for another probe's sake.
   */
  mediaDuration(input: Readable, media: MediaInput, alone?: boolean): Promise<MediaFormat>;
  close(): Promise<void>;
}

export function createDocumentSandbox(settings: SandboxSettings = DEFAULT_SANDBOX): DocumentReader {
  const { limits } = settings;
  const documents = new ChildPool({
    name: 'documents', noun: 'document', children: settings.children, jobsPerChild: 1,
    queueWaitMs: settings.queueWaitMs, limits, recycleAfterJobs: 200, preload: 'documents', nice: 10,
  });
  const media = new ChildPool({ name: 'media files', noun: 'media file', children: 1, jobsPerChild: 64, queueWaitMs: settings.queueWaitMs, limits, preload: 'media', nice: 0 });
  const mediaAlone = new ChildPool({ name: 'media files', noun: 'media file', children: 2, jobsPerChild: 1, queueWaitMs: settings.queueWaitMs, limits, preload: 'media', nice: 0 });

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

  return {
    documentWords: (bytes, fileName) => run('documentWords', bytes, fileName),
    ocrEstimate: (bytes, fileName, cls) => run('ocrEstimate', bytes, fileName, cls),
    importDocument: (bytes, fileName) => run('importDocument', bytes, fileName),
    checkResultFile: (kind, bytes, fileName) => run('checkResultFile', kind, bytes, fileName),
    async renderResult(kind, bytes, fileName, format, options) {
      const rendered = await run<RenderedFile>('renderResult', kind, bytes, fileName, format, options);
      // Across processes a Buffer arrives as a plain Uint8Array.
      return { ...rendered, body: Buffer.from(rendered.body.buffer, rendered.body.byteOffset, rendered.body.length) };
    },
    async renderPdfPage(bytes, page) {
      const png = await run<Uint8Array>('renderPdfPage', bytes, page);
      return Buffer.from(png.buffer, png.byteOffset, png.length);
    },
    mediaDuration: (input, mediaInput, alone = false) =>
      counted((alone ? mediaAlone : media).run({ op: 'mediaDuration', args: [mediaInput] }, input)),
    async close() {
      await Promise.all([documents.close(), media.close(), mediaAlone.close()]);
    },
  };
}
