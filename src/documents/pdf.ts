// Opens a PDF with pdf.js (unpdf) under the document limits: the page count is checked before any
// page is read, and the text of each page is handed to the caller page by page so that it can
// stop at the word limit.
import { getDocumentProxy } from 'unpdf';
import { TranscriptImportError } from '../domain/transcript.js';
import { refusal, type DocumentLimits } from './limits.js';

export interface PdfTextItem { str: string; transform: number[]; height: number; hasEOL?: boolean }

/**
 * Calls `visit` with the text items of each page in turn (marked-content markers left out).
 * Encrypted, broken or oversized files throw TranscriptImportErrors saying why, for the caller to
 * prefix with the file's name.
 */
export async function forEachPdfPage(
  bytes: Uint8Array, limits: DocumentLimits, visit: (items: PdfTextItem[], page: number) => void,
): Promise<number> {
  if (bytes.length === 0) throw new TranscriptImportError('the file is empty');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js may take over (detach) the buffer it is given. No eval: fonts are never
    // compiled to code (CVE-2024-4367).
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  } catch (err) {
    const { name } = err as Error;
    const reason = name === 'PasswordException' ? 'it is password-protected'
      : name === 'InvalidPDFException' ? 'it is not a valid PDF file' : 'it is not a readable PDF file';
    throw new TranscriptImportError(reason);
  }
  try {
    if (pdf.numPages > limits.maxPages) throw refusal.pages(limits);
    for (let n = 1; n <= pdf.numPages; n++) {
      let items: PdfTextItem[];
      try {
        items = ((await (await pdf.getPage(n)).getTextContent()).items as Array<Partial<PdfTextItem>>)
          .filter((item): item is PdfTextItem => item.str !== undefined);
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
