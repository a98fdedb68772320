// Drafts of the text of scans for the human OCR product: an image file is one page, a PDF's pages
// are drawn one by one (pdf.ts) and each is recognised with Tesseract (tesseract.js: WebAssembly in
// a worker thread of the sandbox's child, ended after the job). The engine and its language data
// come from node_modules only (@tesseract.js-data/<code>): nothing is downloaded at run time.
// The engine and pdf.js are imported on first use, so that the parent process can check languages
// without loading them.
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type Tesseract from 'tesseract.js';
import { TranscriptImportError } from '../domain/transcript.js';
import { DEFAULT_OCR_LIMITS, DocumentRefusedError, refusal, type DocumentLimits, type OcrLimits } from './limits.js';

export interface OcrPage {
  /** From 1. */
  page: number;
  /** The recognised text, lines as Tesseract found them (paragraphs apart by an empty line), trailing space trimmed. */
  text: string;
  /** Tesseract's mean word confidence, 0..1 (0 for a page where it found no text). */
  confidence: number;
  /** Recognition took most of the page's CPU budget and was given up: text empty, confidence 0. */
  timedOut?: true;
}

/**
 * The pages read, or, before any work, `unsupported`: the first language asked for (its ISO 639-1
 * base, e.g. 'de') that has no installed language data or no Tesseract model, so that the caller
 * drafts nothing (a person types from the scan) rather than a draft read in the wrong language.
 */
export type OcrResult = { pages: OcrPage[] } | { pages: []; unsupported: string };

/** Tesseract's model names (ISO 639-2/T, mostly) of ISO 639-1 codes; a language is usable when its data package is installed. */
const TESSERACT_CODES: Readonly<Record<string, string>> = {
  en: 'eng',
  fr: 'fra',
  es: 'spa',
  de: 'deu',
  it: 'ita',
  pt: 'por',
  nl: 'nld',
  ca: 'cat',
  da: 'dan',
  sv: 'swe',
  fi: 'fin',
  pl: 'pol',
  cs: 'ces',
  sk: 'slk',
  sl: 'slv',
  ro: 'ron',
  lt: 'lit',
  tr: 'tur',
  az: 'aze',
  bg: 'bul',
  ru: 'rus',
  uk: 'ukr',
  sr: 'srp',
  el: 'ell',
  he: 'heb',
  ar: 'ara',
  ur: 'urd',
  hi: 'hin',
  th: 'tha',
  id: 'ind',
  ja: 'jpn',
  ko: 'kor',
};

const require = createRequire(import.meta.url);

/**
 * The gzipped LSTM model (4.0.0_best_int: what tesseract.js itself fetches for its default engine
 * mode) inside the language's package, or undefined when the package is not installed.
 */
function trainedDataFile(tesseractCode: string): string | undefined {
  try {
    return require.resolve(`@tesseract.js-data/${tesseractCode}/4.0.0_best_int/${tesseractCode}.traineddata.gz`);
  } catch {
    return undefined;
  }
}

/** ISO 639-1 codes with installed language data. */
export function installedOcrLanguages(): string[] {
  return Object.entries(TESSERACT_CODES)
    .filter(([, t]) => trainedDataFile(t))
    .map(([iso]) => iso);
}

interface LanguageData {
  code: string;
  file: string;
}

/**
 * Tesseract's codes and data files of ISO 639-1 codes (a region such as 'en-GB' counts as 'en';
 * repeats are dropped), or the first code without installed data. No language at all is the
 * caller's mistake (a TypeError).
 */
export function ocrLanguageData(languages: readonly string[]): LanguageData[] | { unsupported: string } {
  const bases = [...new Set(languages.map((l) => l.trim().toLowerCase().split(/[-_]/)[0]!))];
  if (bases.length === 0) throw new TypeError('OCR needs at least one language');
  const found: LanguageData[] = [];
  for (const iso of bases) {
    const code = TESSERACT_CODES[iso];
    const file = code === undefined ? undefined : trainedDataFile(code);
    if (!code || !file) return { unsupported: iso };
    found.push({ code, file });
  }
  return found;
}

type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | 'tiff';
interface ImageHeader {
  kind: ImageKind;
  width: number;
  height: number;
}

const ascii = (b: Uint8Array, at: number, text: string) => b.length >= at + text.length && [...text].every((c, i) => b[at + i] === c.charCodeAt(0));

/**
 * What image a file is and its size, from its header (the formats human OCR accepts, all of which
 * Tesseract's Leptonica reads), so that a small file claiming a huge picture is refused before
 * anything decodes it; undefined for anything else or a header that does not say.
 */
export function imageHeader(b: Uint8Array): ImageHeader | undefined {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const size = (kind: ImageKind, width: number, height: number) => (width > 0 && height > 0 ? { kind, width, height } : undefined);
  try {
    if (ascii(b, 0, '\x89PNG\r\n\x1A\n') && ascii(b, 12, 'IHDR')) return size('png', v.getUint32(16), v.getUint32(20));
    if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return size('gif', v.getUint16(6, true), v.getUint16(8, true));
    if (ascii(b, 0, 'BM')) {
      // A BITMAPCOREHEADER (12 bytes) has 16-bit sizes; the others 32-bit, the height negative for top-down rows.
      return v.getUint32(14, true) === 12
        ? size('bmp', v.getUint16(18, true), v.getUint16(20, true))
        : size('bmp', v.getInt32(18, true), Math.abs(v.getInt32(22, true)));
    }
    if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) {
      if (ascii(b, 12, 'VP8 ')) return size('webp', v.getUint16(26, true) & 0x3fff, v.getUint16(28, true) & 0x3fff);
      if (ascii(b, 12, 'VP8L')) {
        const bits = v.getUint32(21, true);
        return size('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
      }
      if (ascii(b, 12, 'VP8X')) return size('webp', (v.getUint32(24, true) & 0xffffff) + 1, (v.getUint32(27, true) & 0xffffff) + 1);
      return undefined;
    }
    if (ascii(b, 0, '\xFF\xD8\xFF')) return jpegSize(b, v);
    if (ascii(b, 0, 'II*\x00') || ascii(b, 0, 'MM\x00*')) return tiffSize(v, b[0] === 0x49);
  } catch {
    // A header cut short (a RangeError from the view): not an image we can size.
  }
  return undefined;
}

/** A JPEG's size from its first start-of-frame segment. */
function jpegSize(b: Uint8Array, v: DataView): ImageHeader | undefined {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    } // fill byte
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = v.getUint16(at + 5);
      const width = v.getUint16(at + 7);
      return width > 0 && height > 0 ? { kind: 'jpeg', width, height } : undefined;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan data or the end, and no frame header before it
    at += 2 + v.getUint16(at + 2);
  }
  return undefined;
}

/** A TIFF's size from its first image directory (tags 256 and 257); a multi-page TIFF is read as its first page. */
function tiffSize(v: DataView, little: boolean): ImageHeader | undefined {
  const ifd = v.getUint32(4, little);
  const entries = v.getUint16(ifd, little);
  let width = 0;
  let height = 0;
  for (let i = 0; i < entries; i++) {
    const at = ifd + 2 + i * 12;
    const tag = v.getUint16(at, little);
    if (tag !== 256 && tag !== 257) continue;
    const value = v.getUint16(at + 2, little) === 3 ? v.getUint16(at + 8, little) : v.getUint32(at + 8, little);
    if (tag === 256) width = value;
    else height = value;
  }
  return width > 0 && height > 0 ? { kind: 'tiff', width, height } : undefined;
}

const isPdf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, Math.min(b.length, 1024)).toString('latin1').includes('%PDF-');

/**
 * A Tesseract worker with `languages` loaded. tesseract.js reads all of a worker's languages from
 * one directory (`langPath`), and each package holds one language (and, in 6.0.1, languages given
 * as data fail to initialise: naptha/tesseract.js#1052): one language is read from its package;
 * several are linked into a private temporary directory, removed once the data is loaded.
 * `cacheMethod: 'none'`: no copy is written to (or read from, or deleted in) the working
 * directory, as tesseract.js does by default.
 */
async function startEngine(languages: LanguageData[]): Promise<Tesseract.Worker> {
  const { default: tesseract } = await import('tesseract.js');
  const start = (langPath: string) =>
    tesseract.createWorker(
      languages.map((l) => l.code),
      tesseract.OEM.LSTM_ONLY,
      {
        langPath,
        gzip: true,
        cacheMethod: 'none',
        // Without a handler a failed job's error is also thrown, uncaught, in the child; the job's promise rejects either way.
        errorHandler: () => undefined,
      },
    );
  if (languages.length === 1) return start(dirname(languages[0]!.file));
  const langPath = await mkdtemp(join(tmpdir(), 'ocr-languages-'));
  try {
    await Promise.all(languages.map(({ code, file }) => symlink(file, join(langPath, `${code}.traineddata.gz`))));
    return await start(langPath);
  } finally {
    await rm(langPath, { recursive: true, force: true });
  }
}

async function recognise(engine: Tesseract.Worker, image: Uint8Array, page: number): Promise<OcrPage> {
  const { data } = await engine.recognize(Buffer.from(image.buffer, image.byteOffset, image.length), {}, { text: true });
  const text = data.text.replace(/[ \t]+$/gm, '').trim();
  return { page, text, confidence: text ? Math.max(0, Math.min(1, data.confidence / 100)) : 0 };
}

/**
 * `work`'s value, or undefined once this process has spent `cpuMs` of CPU time on it (all threads:
 * the measure of the sandbox's watchdog, which a wall-clock timer would not be on a busy machine).
 */
function withinCpu<T>(work: Promise<T>, cpuMs: number): Promise<T | undefined> {
  const start = process.cpuUsage();
  return new Promise<T | undefined>((resolve, reject) => {
    const watch = setInterval(() => {
      const spent = process.cpuUsage(start);
      if ((spent.user + spent.system) / 1000 <= cpuMs) return;
      clearInterval(watch);
      resolve(undefined);
    }, 100);
    work.then(resolve, reject).finally(() => clearInterval(watch));
  });
}

/** Of a page's CPU budget, the share its recognition may take; the rest is for drawing it and restarting the engine. */
const RECOGNITION_SHARE = 0.75;

export interface OcrOptions {
  /** Called as each page's work begins (the sandbox restarts the page's CPU budget). */
  onPage?: (page: number) => void;
  maxImagePixels?: OcrLimits['maxImagePixels'];
  /**
   * The sandbox's CPU budget per page: a page whose recognition takes most of it is given up
   * (`timedOut`) and the engine restarted, so that one page (noise, a photo) does not cost the
   * draft of the others. Without it, pages are never given up.
   */
  cpuMsPerPage?: OcrLimits['cpuMsPerPage'];
}

/**
 * Pages 1..count, drawn by `image` and recognised one after another, each announced by onPage.
 * `unreadable` is the error of a page the engine cannot read.
 */
async function readPages(
  languages: LanguageData[],
  count: number,
  image: (page: number) => Promise<Uint8Array>,
  unreadable: (page: number) => Error,
  options: OcrOptions,
): Promise<OcrPage[]> {
  const pages: OcrPage[] = [];
  let engine: Tesseract.Worker | undefined = await startEngine(languages);
  try {
    for (let page = 1; page <= count; page++) {
      options.onPage?.(page);
      engine ??= await startEngine(languages);
      const recognised = recognise(engine, await image(page), page).catch(() => {
        throw unreadable(page);
      });
      const read = options.cpuMsPerPage ? await withinCpu(recognised, options.cpuMsPerPage * RECOGNITION_SHARE) : await recognised;
      if (read) {
        pages.push(read);
        continue;
      }
      // Ending the worker thread is the only way to stop Tesseract mid-page.
      await engine.terminate();
      engine = undefined;
      pages.push({ page, text: '', confidence: 0, timedOut: true });
    }
    return pages;
  } finally {
    await engine?.terminate();
  }
}

/**
 * The text of each page of a scan, recognised in `languages` (ISO 639-1): an image file (PNG, JPEG,
 * GIF, WebP, BMP, TIFF) is one page; a PDF's pages, at most `limits.maxPages`, are drawn as
 * renderPdfPage draws them for typists. A language without installed data is answered (before
 * any work) as `unsupported`; throws DocumentRefusedError past the limits, and TranscriptImportError,
 * naming `fileName`, for any other file or one that cannot be read.
 */
export async function ocrPages(
  bytes: Uint8Array,
  fileName: string,
  languages: readonly string[],
  limits: DocumentLimits,
  options: OcrOptions = {},
): Promise<OcrResult> {
  const languageData = ocrLanguageData(languages);
  if (!Array.isArray(languageData)) return { pages: [], unsupported: languageData.unsupported };
  const cannotRead = (why: string) => new TranscriptImportError(`cannot read ${fileName}: ${why}`);
  if (bytes.length === 0) throw cannotRead('the file is empty');

  if (isPdf(bytes)) {
    const { forEachPdfPage, renderPdfPage } = await import('./pdf.js');
    const named = (err: unknown) => (err instanceof TranscriptImportError && !(err instanceof DocumentRefusedError) ? cannotRead(err.message) : err);
    // The page count, checked against maxPages before any page is drawn.
    const count = await forEachPdfPage(bytes, limits, () => undefined).catch((err: unknown) => {
      throw named(err);
    });
    if (count === 0) throw cannotRead('it has no pages');
    const draw = (page: number) =>
      renderPdfPage(bytes, page, limits).catch((err: unknown) => {
        throw named(err);
      });
    return { pages: await readPages(languageData, count, draw, (page) => cannotRead(`page ${page} could not be recognised`), options) };
  }

  const header = imageHeader(bytes);
  if (!header) throw cannotRead('it is not an image or a PDF that can be read for an OCR draft (accepted: PDF, PNG, JPEG, GIF, WebP, BMP or TIFF)');
  const maxImagePixels = options.maxImagePixels ?? DEFAULT_OCR_LIMITS.maxImagePixels;
  if (header.width * header.height > maxImagePixels) throw refusal.pixels({ maxImagePixels });
  const unreadable = () => cannotRead(`it is not a readable ${header.kind.toUpperCase()} image`);
  return { pages: await readPages(languageData, 1, async () => bytes, unreadable, options) };
}
