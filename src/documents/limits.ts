// Limits on the work of opening one customer's (or a worker's) file, not only on its bytes: a
// small file can cost minutes and gigabytes (a PDF page tree listing one page 400,000 times, a
// DOCX whose XML inflates to 800 MB). The checks inside the readers use the structural limits;
// the sandbox (sandbox/pool.ts) enforces CPU time and memory by killing the child process.
import { TranscriptImportError } from '../domain/transcript.js';

export interface DocumentLimits {
  /** CPU time one document may take (the child's own CPU time, read from the OS). */
  cpuMs: number;
  /** Resident memory of the child process reading one document. */
  memoryMb: number;
  /** Pages of a PDF. */
  maxPages: number;
  /** Words in one document. */
  maxWords: number;
  /** Bytes a ZIP container (DOCX) may inflate to, declared and actual. */
  maxInflatedBytes: number;
  /** Entries of a ZIP container. */
  maxZipEntries: number;
  /** Depth of nested RTF groups or XML elements. */
  maxNesting: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  cpuMs: 5_000,
  memoryMb: 512,
  maxPages: 2_000,
  maxWords: 1_000_000,
  maxInflatedBytes: 200 * 1024 ** 2,
  maxZipEntries: 5_000,
  maxNesting: 200,
};

/**
 * Limits of drafting text from scans (OCR, ocr.ts), which costs seconds and hundreds of MB per
 * page where reading a text layer costs milliseconds: a pool of its own (sandbox/index.ts) whose
 * CPU budget is per page, restarted as each page begins, so a PDF of `maxPages` pages is bounded
 * at `maxPages` × `cpuMsPerPage`.
 */
export interface OcrLimits {
  /** CPU time of one page (drawing it and recognising its text; the first also opens the file and starts the engine). */
  cpuMsPerPage: number;
  /** Resident memory of the child process that recognises text (the engine, its language data, one page). */
  memoryMb: number;
  /** Pixels (width × height, from the file's header, before it is decoded) of an image file. */
  maxImagePixels: number;
}

export const DEFAULT_OCR_LIMITS: OcrLimits = {
  cpuMsPerPage: 30_000,
  memoryMb: 1_024,
  maxImagePixels: 25_000_000,
};

/** Why a file was refused before it was read through: the label of the refusals metric. */
export type RefusalReason = 'time' | 'memory' | 'pages' | 'words' | 'inflated_size' | 'zip_entries' | 'nesting' | 'pixels' | 'crashed';

/**
 * A file that goes over a limit. Its message is for the customer (the API prefixes the field):
 * what was too much, in words a person understands, never an internal message.
 */
export class DocumentRefusedError extends TranscriptImportError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

const mb = (bytes: number) => (bytes >= 1024 ** 2 ? `${Math.round(bytes / 1024 ** 2)} MB` : `${Math.ceil(bytes / 1024)} KB`);
const count = (n: number) => n.toLocaleString('en-US');

/** The customer's wording of each refusal. */
export const refusal = {
  time: (limits: Pick<DocumentLimits, 'cpuMs'>, noun = 'document') =>
    new DocumentRefusedError('time', `the ${noun} takes too long to read (more than ${limits.cpuMs / 1000} s of work)`),
  memory: (limits: Pick<DocumentLimits, 'memoryMb'>, noun = 'document') =>
    new DocumentRefusedError('memory', `the ${noun} needs too much memory to read (more than ${limits.memoryMb} MB)`),
  pages: (limits: Pick<DocumentLimits, 'maxPages'>) => new DocumentRefusedError('pages', `the PDF has more than ${count(limits.maxPages)} pages`),
  words: (limits: Pick<DocumentLimits, 'maxWords'>) => new DocumentRefusedError('words', `the document has more than ${count(limits.maxWords)} words`),
  inflated: (limits: Pick<DocumentLimits, 'maxInflatedBytes'>) =>
    new DocumentRefusedError('inflated_size', `the document unpacks to more than ${mb(limits.maxInflatedBytes)}`),
  entries: (limits: Pick<DocumentLimits, 'maxZipEntries'>) =>
    new DocumentRefusedError('zip_entries', `the document holds more than ${count(limits.maxZipEntries)} parts`),
  nesting: (limits: Pick<DocumentLimits, 'maxNesting'>) =>
    new DocumentRefusedError('nesting', `the document is nested more than ${count(limits.maxNesting)} levels deep`),
  pixels: (limits: Pick<OcrLimits, 'maxImagePixels'>) => new DocumentRefusedError('pixels', `the image has more than ${count(limits.maxImagePixels)} pixels`),
  crashed: () => new DocumentRefusedError('crashed', 'the file could not be read'),
};
