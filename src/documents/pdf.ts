// Opens a PDF with pdf.js (unpdf) under the document limits: the page count is checked before any
// page is read, and the text of each page is handed to the caller page by page so that it can
// stop at the word limit; a page is drawn as a PNG (with @napi-rs/canvas) for the people who type it.
import { getDocumentProxy, renderPageAsImage } from 'unpdf';
import { TranscriptImportError } from '../domain/transcript.js';
import { refusal, type DocumentLimits } from './limits.js';

export interface PdfTextItem {
  str: string;
  transform: number[];
  height: number;
  hasEOL?: boolean;
}

/** The PDF opened with pdf.js; encrypted or broken files throw TranscriptImportErrors saying why. */
async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  if (bytes.length === 0) throw new TranscriptImportError('the file is empty');
  try {
    // A copy: pdf.js may take over (detach) the buffer it is given. No eval: fonts are never
    // compiled to code (CVE-2024-4367).
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  } catch (err) {
    const { name } = err as Error;
    const reason =
      name === 'PasswordException'
        ? 'it is password-protected'
        : name === 'InvalidPDFException'
          ? 'it is not a valid PDF file'
          : 'it is not a readable PDF file';
    throw new TranscriptImportError(reason);
  }
}
type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * Calls `visit` with the text items of each page in turn (marked-content markers left out).
 * Encrypted, broken or oversized files throw TranscriptImportErrors saying why, for the caller to
 * prefix with the file's name.
 */
export async function forEachPdfPage(bytes: Uint8Array, limits: DocumentLimits, visit: (items: PdfTextItem[], page: number) => void): Promise<number> {
  const pdf = await openPdf(bytes);
  try {
    if (pdf.numPages > limits.maxPages) throw refusal.pages(limits);
    for (let n = 1; n <= pdf.numPages; n++) {
      let items: PdfTextItem[];
      try {
        items = ((await (await pdf.getPage(n)).getTextContent()).items as Array<Partial<PdfTextItem>>).filter(
          (item): item is PdfTextItem => item.str !== undefined,
        );
      } catch {
        throw new TranscriptImportError(`it is not a readable PDF file (page ${n} cannot be read)`);
      }
      visit(items, n);
    }
    return pdf.numPages;
  } finally {
    await pdf.destroy();
  }
}

/** The most pixels a drawn page has across and down: readable when zoomed, a few hundred kB as PNG. */
export const PAGE_IMAGE_MAX = { width: 1400, height: 2800 };

/** Page `page` (from 1) drawn as a PNG as large as fits PAGE_IMAGE_MAX (a page of odd shape stays small). */
export async function renderPdfPage(bytes: Uint8Array, page: number, limits: DocumentLimits): Promise<Uint8Array> {
  const pdf = await openPdf(bytes);
  try {
    if (pdf.numPages > limits.maxPages) throw refusal.pages(limits);
    if (!Number.isInteger(page) || page < 1 || page > pdf.numPages) throw new TranscriptImportError(`it has no page ${page} (it has ${pdf.numPages})`);
    try {
      const { width, height } = (await pdf.getPage(page)).getViewport({ scale: 1 });
      const scale = Math.min(PAGE_IMAGE_MAX.width / width, PAGE_IMAGE_MAX.height / height);
      return new Uint8Array(await renderPageAsImage(pdf, page, { canvasImport: () => import('@napi-rs/canvas'), scale }));
    } catch {
      throw new TranscriptImportError(`it is not a readable PDF file (page ${page} cannot be drawn)`);
    }
  } finally {
    await pdf.destroy();
  }
}
