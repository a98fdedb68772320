// A PDF's pages drawn for the people who type them (human OCR in the workbench), in the document
// sandbox: a PNG as large as fits PAGE_IMAGE_MAX, a page that is not there named, a page of odd
// shape kept small, a PDF over the page limit refused before anything is drawn.
import { afterAll, describe, expect, it } from 'vitest';
import PDFDocument from 'pdfkit';
import { createDocumentSandbox, DEFAULT_SANDBOX } from '../../src/documents/sandbox/index.js';
import { DocumentRefusedError } from '../../src/documents/limits.js';
import { PAGE_IMAGE_MAX } from '../../src/documents/pdf.js';
import { TranscriptImportError } from '../../src/domain/transcript.js';
import { blankPdf, pdfOf } from '../helpers/documents.js';

const reader = createDocumentSandbox({ ...DEFAULT_SANDBOX, limits: { ...DEFAULT_SANDBOX.limits, maxPages: 3 } });
afterAll(() => reader.close());

/** Width and height from a PNG's header, after checking its signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** One page of `width` × `height` points, with a line of text. */
function oddPage(width: number, height: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const pdf = new PDFDocument({ size: [width, height], margin: 2 });
    const chunks: Buffer[] = [];
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.fontSize(4).text('x');
    pdf.end();
  });
}

describe('drawing a PDF page in the sandbox', () => {
  it('draws a scanned page and a text page as PNGs as wide as PAGE_IMAGE_MAX allows', async () => {
    const scanned = pngSize(await reader.renderPdfPage(await blankPdf(2), 2));
    // A4 (595 × 842 pt): the width is the bound.
    expect(scanned.width).toBe(PAGE_IMAGE_MAX.width);
    expect(scanned.height).toBeGreaterThan(1900);
    expect(scanned.height).toBeLessThanOrEqual(PAGE_IMAGE_MAX.height);
    const text = await reader.renderPdfPage(await pdfOf([['A page of text to type.']]), 1);
    expect(pngSize(text).width).toBe(PAGE_IMAGE_MAX.width);
  });

  it('keeps a page of odd shape within both bounds', async () => {
    const tall = pngSize(await reader.renderPdfPage(await oddPage(20, 14_000), 1));
    expect(tall.height).toBe(PAGE_IMAGE_MAX.height);
    expect(tall.width).toBeLessThanOrEqual(5);
  });

  it('names a page that is not there, and refuses a PDF over the page limit', async () => {
    const two = await blankPdf(2);
    await expect(reader.renderPdfPage(two, 3)).rejects.toThrow(new TranscriptImportError('it has no page 3 (it has 2)'));
    await expect(reader.renderPdfPage(two, 0)).rejects.toThrow(TranscriptImportError);
    await expect(reader.renderPdfPage(await blankPdf(4), 1)).rejects.toThrow(DocumentRefusedError);
    await expect(reader.renderPdfPage(Buffer.from('%PDF-1.7 not really'), 1)).rejects.toThrow(TranscriptImportError);
  });
});
