// Measures customers' documents for pricing: what a fetched file is, and how many words a
// translation or a human OCR order of it is priced by.
import { importDocument } from './importers.js';
import { segmentsOf } from '../domain/render/caps.js';
import { MEDIA_FORMATS, mediaFormatOf } from './mediaFormats.js';
import { forEachPdfPage } from './pdf.js';
import { DEFAULT_DOCUMENT_LIMITS, DocumentRefusedError, refusal, type DocumentLimits } from './limits.js';
import { TranscriptImportError } from '../domain/transcript.js';

// One segmenter for the process: ICU's word dictionaries split CJK text without spaces.
const WORDS = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Words in a text, counted with Intl.Segmenter (word granularity, isWordLike), so CJK text counts
 * sensibly too; in windows (segmentsOf), as Node 20's segmenter copies the whole text per segment.
 */
export function countWords(text: string): number {
  let n = 0;
  for (const s of segmentsOf(WORDS, text)) if (s.isWordLike) n++;
  return n;
}

export type FileClass = 'document' | 'image' | 'media' | 'unknown';

interface Kind {
  cls: FileClass;
  ext: string;
}

const ascii = (bytes: Uint8Array, at: number, text: string) => bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));
const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
const latin1 = (bytes: Uint8Array, end = bytes.length) => view(bytes.subarray(0, end)).toString('latin1');

/** How much of a file is looked at to tell text from binary and what the text holds. */
const SNIFF_BYTES = 64 * 1024;

/**
 * The start of a file as text, if it is text: valid UTF-8 and no NUL bytes (binary formats nearly
 * always have both). Only the start is read, on the event loop; the readers check the rest.
 */
function textStart(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return undefined;
  try {
    // stream: a character cut at the end of the sniffed bytes is not an error.
    return new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.length < bytes.length });
  } catch {
    return undefined;
  }
}

function bySignature(b: Uint8Array): Kind | undefined {
  // The PDF header may follow up to 1 KiB of junk (the spec's allowance).
  if (latin1(b, 1024).includes('%PDF-')) return { cls: 'document', ext: 'pdf' };
  if (ascii(b, 0, 'PK\x03\x04')) {
    // An OpenDocument text names its type in a first, stored entry called mimetype (ODF 1.2 §3.3).
    if (ascii(b, 30, 'mimetypeapplication/vnd.oasis.opendocument.text')) return { cls: 'document', ext: 'odt' };
    // A DOCX is a zip holding word/document.xml; other zips (xlsx, a spreadsheet) are not documents here.
    return view(b).includes('word/document.xml') ? { cls: 'document', ext: 'docx' } : { cls: 'unknown', ext: 'zip' };
  }
  if (ascii(b, 0, '\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1')) return { cls: 'document', ext: 'doc' };
  if (ascii(b, 0, '{\\rtf')) return { cls: 'document', ext: 'rtf' };
  if (ascii(b, 0, '\x89PNG\r\n\x1A\n')) return { cls: 'image', ext: 'png' };
  if (ascii(b, 0, '\xFF\xD8\xFF')) return { cls: 'image', ext: 'jpg' };
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return { cls: 'image', ext: 'gif' };
  if (ascii(b, 0, 'II*\x00') || ascii(b, 0, 'MM\x00*')) return { cls: 'image', ext: 'tiff' };
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return { cls: 'image', ext: 'webp' };
  // 'BM' alone is too weak (text may start so): also require the zero reserved field and a known DIB header size.
  if (ascii(b, 0, 'BM') && b.length >= 18 && b[6] === 0 && b[7] === 0 && b[8] === 0 && b[9] === 0 && [12, 40, 52, 56, 108, 124].includes(b[14]!)) {
    return { cls: 'image', ext: 'bmp' };
  }
  if (ascii(b, 4, 'ftyp')) {
    const brand = latin1(b.subarray(8, 12));
    // HEIF/AVIF photos share the ISO container with MP4.
    if (/^(heic|heix|mif1|msf1|avif)$/.test(brand)) return { cls: 'image', ext: brand === 'avif' ? 'avif' : 'heic' };
  }
  const media = mediaFormatOf(b);
  if (media) return { cls: 'media', ext: MEDIA_FORMATS[media].ext };
  // Media of a codec the service does not work is still media (the probe names what it accepts).
  if (ascii(b, 0, 'OggS')) return { cls: 'media', ext: 'ogg' };
  return undefined;
}

/** The Content-Type each image signature is served as (a browser shows it as that, nothing else); media's are in MEDIA_FORMATS. */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  tiff: 'image/tiff',
  webp: 'image/webp',
  bmp: 'image/bmp',
  avif: 'image/avif',
  heic: 'image/heic',
};

/** How many bytes of a file `servedTypeOf` needs (the longest signature it reads, with room). */
export const SIGNATURE_BYTES = 4096;

/**
 * What a stored customer file may be served to a browser as: audio, video or an image, by its
 * signature alone (never its name or the Content-Type its server gave); undefined for anything
 * else (HTML, a document, text), which is never served.
 */
export function servedTypeOf(head: Uint8Array): { cls: 'media' | 'image'; type: string; ext: string } | undefined {
  const bytes = head.subarray(0, SIGNATURE_BYTES);
  const media = mediaFormatOf(bytes);
  if (media) return { cls: 'media', type: MEDIA_FORMATS[media].type, ext: MEDIA_FORMATS[media].ext };
  const signed = bySignature(bytes);
  const type = signed?.cls === 'image' ? IMAGE_TYPES[signed.ext] : undefined;
  return type ? { cls: 'image', type, ext: signed!.ext } : undefined;
}

const TYPES: Record<string, Kind> = {
  'application/pdf': { cls: 'document', ext: 'pdf' },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { cls: 'document', ext: 'docx' },
  'application/vnd.oasis.opendocument.text': { cls: 'document', ext: 'odt' },
  'application/msword': { cls: 'document', ext: 'doc' },
  'application/rtf': { cls: 'document', ext: 'rtf' },
  'text/rtf': { cls: 'document', ext: 'rtf' },
  'text/plain': { cls: 'document', ext: 'txt' },
  'application/json': { cls: 'document', ext: 'json' },
  'text/json': { cls: 'document', ext: 'json' },
  'application/x-subrip': { cls: 'document', ext: 'srt' },
  'text/vtt': { cls: 'document', ext: 'vtt' },
  'text/html': { cls: 'document', ext: 'html' },
  'image/jpeg': { cls: 'image', ext: 'jpg' },
  'audio/mpeg': { cls: 'media', ext: 'mp3' },
  'application/ogg': { cls: 'media', ext: 'ogg' },
};

const EXTENSIONS: Record<string, FileClass> = {
  pdf: 'document',
  docx: 'document',
  odt: 'document',
  doc: 'document',
  rtf: 'document',
  txt: 'document',
  json: 'document',
  srt: 'document',
  vtt: 'document',
  html: 'document',
  htm: 'document',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  tif: 'image',
  tiff: 'image',
  webp: 'image',
  bmp: 'image',
  wav: 'media',
  mp3: 'media',
  mp4: 'media',
  m4a: 'media',
  ogg: 'media',
  flac: 'media',
  webm: 'media',
  mov: 'media',
  mkv: 'media',
};

function byType(contentType: string | undefined): Kind | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const known = TYPES[type];
  if (known) return known;
  const [major, minor = ''] = type.split('/');
  const ext = minor.replace(/^x-/, '').replace(/[^a-z0-9]/g, '') || 'bin';
  if (major === 'image') return { cls: 'image', ext };
  if (major === 'audio' || major === 'video') return { cls: 'media', ext };
  return undefined;
}

const urlExtension = (urlPath: string) => /\.([a-z0-9]+)$/i.exec(urlPath.replace(/[?#].*$/, ''))?.[1]?.toLowerCase();

function byExtension(urlPath: string): Kind | undefined {
  const ext = urlExtension(urlPath);
  const cls = ext ? EXTENSIONS[ext] : undefined;
  return ext && cls ? { cls, ext } : undefined;
}

/** What UTF-8 text holds, from its start: JSON (an object or an array), WebVTT, SRT cues, or plain text. */
function byText(bytes: Uint8Array): Kind | undefined {
  const text = textStart(bytes)
    ?.replace(/^\uFEFF/, '')
    .trimStart();
  if (!text) return undefined;
  // JSON by its opening tokens (`{"`, `{}`, `[{`, `["`, `[[`, `[]`), not `[00:00:05]` (our text
  // format's times): the JSON reader parses it, in the sandbox.
  if (/^(\{\s*["}]|\[\s*[[{"\]])/.test(text)) return { cls: 'document', ext: 'json' };
  if (/^WEBVTT(\s|$)/.test(text)) return { cls: 'document', ext: 'vtt' };
  if (/^(<!doctype html|<html[\s>])/i.test(text)) return { cls: 'document', ext: 'html' };
  if (/^\d+\r?\n\d{1,2}:\d{2}:\d{2}[,.]\d{3} --> /.test(text)) return { cls: 'document', ext: 'srt' };
  return { cls: 'document', ext: 'txt' };
}

/**
 * What a file is, by what it is: the signature of a binary format first (it cannot be mistaken);
 * then, for text, what the text holds (JSON, WebVTT, SRT cues, HTML), and for plain text the text
 * format its Content-Type or extension names (plain text called JSON is refused by the JSON reader,
 * clearly); a file that is neither goes by its Content-Type, then its URL's extension.
 */
function detect(bytes: Uint8Array, contentType: string | undefined, urlPath: string): Kind {
  const signed = bySignature(bytes);
  const typed = byType(contentType);
  const named = byExtension(urlPath);
  if (signed?.ext === 'zip') {
    // A ZIP that its name or type calls a DOCX or ODT is one, if a broken one (its reader says so); xlsx, a plain zip are not.
    const office = [typed, named].find((k) => k?.ext === 'docx' || k?.ext === 'odt');
    return office ?? { cls: 'unknown', ext: urlExtension(urlPath) ?? 'zip' };
  }
  if (signed) return signed;
  const read = byText(bytes);
  if (read) return read.ext !== 'txt' ? read : ([typed, named].find((k) => k && TEXT_FORMATS.has(k.ext)) ?? read);
  return [typed, named].find((k) => k && !TEXT_FORMATS.has(k.ext)) ?? { cls: 'unknown', ext: urlExtension(urlPath) ?? 'bin' };
}

const TEXT_FORMATS = new Set(['txt', 'json', 'srt', 'vtt', 'html', 'htm']);

/** What a fetched file is, from its first bytes (magic numbers) first, then the Content-Type, then the URL path's extension. */
export function classifyFile(bytes: Uint8Array, contentType: string | undefined, urlPath: string): FileClass {
  return detect(bytes, contentType, urlPath).cls;
}

/** A file name with the right extension for importDocument, from the class/signature (e.g. 'document.pdf'). */
export function documentFileName(bytes: Uint8Array, contentType: string | undefined, urlPath: string): string {
  const { cls, ext } = detect(bytes, contentType, urlPath);
  return `${cls === 'unknown' ? 'file' : cls}.${ext}`;
}

const extensionOf = (fileName: string) => /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
const TRANSLATABLE = ['txt', 'text', 'docx', 'odt', 'doc', 'rtf', 'pdf', 'html', 'htm'];

/** Words of each PDF page's text layer, refused past the limits (pages, words). */
async function pdfPageWords(bytes: Uint8Array, fileName: string, limits: DocumentLimits): Promise<number[]> {
  const counts: number[] = [];
  let total = 0;
  await forEachPdfPage(bytes, limits, (items) => {
    // Items on one line join as they are (pdf.js splits words across items); a new line is a break.
    // Counted line by line, so a page of millions of words is refused at the limit, not after.
    let [line, words] = ['', 0];
    let lastY: number | undefined;
    const endLine = () => {
      words += countWords(line);
      line = '';
      if (total + words > limits.maxWords) throw refusal.words(limits);
    };
    for (const item of items) {
      const y = item.transform?.[5];
      if (lastY !== undefined && y !== undefined && Math.abs(lastY - y) > 0.5) endLine();
      line += item.str;
      if (item.hasEOL) endLine();
      if (y !== undefined) lastY = y;
    }
    endLine();
    total += words;
    counts.push(words);
  }).catch((err: unknown) => {
    if (err instanceof DocumentRefusedError || !(err instanceof TranscriptImportError)) throw err;
    throw new TranscriptImportError(`cannot read ${fileName}: ${err.message}`);
  });
  return counts;
}

/** Words of a translatable document (txt, docx, odt, doc, rtf, pdf; an HTML page's visible text): throws TranscriptImportError for an unreadable or empty one. */
export async function documentWords(bytes: Uint8Array, fileName: string, limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): Promise<number> {
  const ext = extensionOf(fileName);
  if (!TRANSLATABLE.includes(ext)) {
    throw new TranscriptImportError(
      `cannot read ${fileName}: ${ext ? `.${ext} files are` : 'it is'} not accepted for translation (accepted: TXT, DOCX, ODT, DOC, RTF, PDF, HTML)`,
    );
  }
  let words: number;
  if (ext === 'pdf') {
    words = (await pdfPageWords(bytes, fileName, limits)).reduce((a, b) => a + b, 0);
    if (words === 0) throw new TranscriptImportError(`cannot read ${fileName}: it has no text layer (a scanned PDF needs OCR first)`);
  } else {
    // A leading 'Name:' is lifted out as a speaker by the importer; it is still text to translate.
    const { segments } = await importDocument(bytes, fileName, limits);
    words = segments.reduce((sum, s) => sum + countWords(s.speaker ?? '') + countWords(s.text), 0);
  }
  if (words === 0) throw new TranscriptImportError(`cannot read ${fileName}: it holds no words`);
  return words;
}

export const OCR_WORDS_PER_PAGE = 250;
/** Below this many words a PDF page's text layer is a stray label on a scan, not the page's text. */
const SCAN_THRESHOLD = 20;

export interface OcrEstimate {
  words: number;
  pages: number;
  scannedPages: number;
}

/** Words a human OCR order is priced by: DOCX counted; PDF counted per page, a page with fewer than 20 words of text layer counts as a scan of OCR_WORDS_PER_PAGE words; an image is one scanned page. Other files throw TranscriptImportError naming what is accepted (DOCX, PDF or an image). */
export async function estimateOcrWords(
  bytes: Uint8Array,
  fileName: string,
  cls: FileClass,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): Promise<OcrEstimate> {
  if (cls === 'image') return { words: OCR_WORDS_PER_PAGE, pages: 1, scannedPages: 1 };
  const ext = extensionOf(fileName);
  if (ext === 'docx') {
    const words = await documentWords(bytes, fileName, limits);
    // A DOCX carries no reliable page count: pages are estimated at a page's worth of words.
    return { words, pages: Math.ceil(words / OCR_WORDS_PER_PAGE), scannedPages: 0 };
  }
  if (ext === 'pdf') {
    const pages = await pdfPageWords(bytes, fileName, limits);
    if (pages.length === 0) throw new TranscriptImportError(`cannot read ${fileName}: it has no pages`);
    const scannedPages = pages.filter((w) => w < SCAN_THRESHOLD).length;
    const words = pages.reduce((sum, w) => sum + (w < SCAN_THRESHOLD ? OCR_WORDS_PER_PAGE : w), 0);
    return { words, pages: pages.length, scannedPages };
  }
  throw new TranscriptImportError(`cannot read ${fileName}: ${ext ? `.${ext} files are` : 'it is'} not accepted for OCR (accepted: DOCX, PDF or an image)`);
}
