// OCR drafts for human OCR, through the real document sandbox (a child process running
// tesseract.js on the language data in node_modules): a page of known text drawn as a PNG, and the
// same page as a scanned PDF (only that PNG as an image), are read within a character error rate;
// a language without installed data, an oversized image and a file that is no scan are told apart;
// a page that takes most of its CPU budget is given up, and work over the budget is refused; each
// accepted kind of image is sized from its header before anything decodes it.
import { afterAll, describe, expect, it } from 'vitest';
import { createDocumentSandbox, DEFAULT_SANDBOX } from '../../src/documents/sandbox/index.js';
import { DocumentRefusedError } from '../../src/documents/limits.js';
import { imageHeader } from '../../src/documents/ocr.js';
import { TranscriptImportError } from '../../src/domain/transcript.js';
import { characterErrorRate } from '../../src/domain/textDistance.js';
import { createCanvas } from '@napi-rs/canvas';
import { scannedPage, scannedPdf } from '../helpers/pages.js';

const TEXT = [
  'The committee met on Tuesday morning to review the budget for the coming year.',
  'After a long discussion about the cost of the new library, the members agreed to',
  'postpone the decision until the architects had presented a revised plan. Residents',
  'asked whether the park near the river would stay open during the works. The chair',
  'promised that a clear answer would be published on the town website next month.',
];
/** Measured: 0 for the image and for the PDF page (tesseract.js 6.0.1, eng 4.0.0_best_int); the margin is for other builds. */
const MAX_CER = 0.03;

const reader = createDocumentSandbox(DEFAULT_SANDBOX);
afterAll(() => reader.close());
const page = scannedPage(TEXT);

describe('OCR drafts in the document sandbox', () => {
  it('reads a page image within the error bound, with its confidence', async () => {
    const read = await reader.ocrPages(await page, 'scan.png', ['en']);
    expect('unsupported' in read).toBe(false);
    expect(read.pages).toHaveLength(1);
    const [only] = read.pages;
    expect(only!.page).toBe(1);
    expect(characterErrorRate(TEXT.join('\n'), only!.text)).toBeLessThanOrEqual(MAX_CER);
    expect(only!.confidence).toBeGreaterThan(0.5);
    expect(only!.confidence).toBeLessThanOrEqual(1);
  });

  it('reads the same page as a scanned PDF (no text layer) within the same bound', async () => {
    const read = await reader.ocrPages(await scannedPdf(await page), 'scan.pdf', ['en-GB']);
    expect(read.pages.map((p) => p.page)).toEqual([1]);
    expect(characterErrorRate(TEXT.join('\n'), read.pages[0]!.text)).toBeLessThanOrEqual(MAX_CER);
    expect(read.pages[0]!.confidence).toBeGreaterThan(0.5);
  });

  it('reads with several languages at once', async () => {
    const read = await reader.ocrPages(await page, 'scan.png', ['fr', 'en', 'es']);
    expect(characterErrorRate(TEXT.join('\n'), read.pages[0]!.text)).toBeLessThanOrEqual(MAX_CER);
  });

  it('tells apart a language without data, an image too large, and a file that is no scan', async () => {
    // No child is used: the answer is immediate, not an error.
    await expect(reader.ocrPages(await page, 'scan.png', ['en', 'de'])).resolves.toEqual({ pages: [], unsupported: 'de' });
    await expect(reader.ocrPages(await page, 'scan.png', ['xx'])).resolves.toEqual({ pages: [], unsupported: 'xx' });
    await expect(reader.ocrPages(await page, 'scan.png', [])).rejects.toThrow(TypeError);
    // A PNG header claiming 30,000 × 30,000 pixels is refused before anything decodes it.
    const huge = Buffer.from(await page);
    huge.writeUInt32BE(30_000, 16);
    huge.writeUInt32BE(30_000, 20);
    const refused = await reader.ocrPages(huge, 'huge.png', ['en']).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DocumentRefusedError);
    expect((refused as DocumentRefusedError).reason).toBe('pixels');
    await expect(reader.ocrPages(Buffer.from('plain words, not a scan'), 'notes.txt', ['en'])).rejects.toThrow(TranscriptImportError);
    await expect(reader.ocrPages(Buffer.from('\x89PNG\r\n\x1A\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10 broken', 'latin1'), 'broken.png', ['en'])).rejects.toThrow(
      new TranscriptImportError('cannot read broken.png: it is not a readable PNG image'),
    );
  });

  it('gives up a page that takes most of its CPU budget, and refuses work over it', async () => {
    // Random dots: Tesseract takes tens of seconds over them (measured: 45 s of CPU for 4 megapixels).
    const side = 1500;
    const canvas = createCanvas(side, side);
    const ctx = canvas.getContext('2d');
    const dots = ctx.createImageData(side, side);
    let seed = 42;
    for (let i = 0; i < side * side; i++) {
      seed = (seed * 1_103_515_245 + 12_345) >>> 0;
      dots.data.fill(seed & 0x10000 ? 0 : 255, i * 4, i * 4 + 3);
      dots.data[i * 4 + 3] = 255;
    }
    ctx.putImageData(dots, 0, 0);
    const budgeted = createDocumentSandbox({ ...DEFAULT_SANDBOX, ocr: { cpuMsPerPage: 4_000 } });
    try {
      expect(await budgeted.ocrPages(await canvas.encode('png'), 'dots.png', ['en'])).toEqual({
        pages: [{ page: 1, text: '', confidence: 0, timedOut: true }],
      });
    } finally {
      await budgeted.close();
    }
    // Starting the engine alone takes more than 0.1 s.
    const strict = createDocumentSandbox({ ...DEFAULT_SANDBOX, ocr: { cpuMsPerPage: 100 } });
    try {
      const refused = await strict.ocrPages(await page, 'scan.png', ['en']).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(DocumentRefusedError);
      expect((refused as DocumentRefusedError).reason).toBe('time');
      expect((refused as Error).message).toBe('the page takes too long to read (more than 0.1 s of work)');
    } finally {
      await strict.close();
    }
  });
});

describe('the size of an image, from its header', () => {
  const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
  const le16 = (n: number) => [n & 0xff, n >> 8];
  const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];

  it('reads the kinds canvas encodes (PNG, JPEG, WebP)', async () => {
    const canvas = createCanvas(321, 123);
    expect(imageHeader(await canvas.encode('png'))).toEqual({ kind: 'png', width: 321, height: 123 });
    expect(imageHeader(await canvas.encode('jpeg'))).toEqual({ kind: 'jpeg', width: 321, height: 123 });
    expect(imageHeader(await canvas.encode('webp'))).toEqual({ kind: 'webp', width: 321, height: 123 });
  });

  it('reads GIF, BMP, TIFF and the three WebP headers', () => {
    expect(imageHeader(bytes('GIF89a', le16(640), le16(480), [0, 0, 0]))).toEqual({ kind: 'gif', width: 640, height: 480 });
    // A bottom-up and a top-down (negative height) BMP.
    const bmp = (height: number) => bytes('BM', le32(0), le32(0), le32(54), le32(40), le32(800), le32(height >>> 0), [1, 0, 24, 0]);
    expect(imageHeader(bmp(600))).toEqual({ kind: 'bmp', width: 800, height: 600 });
    expect(imageHeader(bmp(-600))).toEqual({ kind: 'bmp', width: 800, height: 600 });
    // Little-endian TIFF: the directory at 8, width (SHORT) and height (LONG).
    const tiff = bytes('II*\0', le32(8), le16(2), le16(256), le16(3), le32(1), le16(2480), le16(0), le16(257), le16(4), le32(1), le32(3508), le32(0));
    expect(imageHeader(tiff)).toEqual({ kind: 'tiff', width: 2480, height: 3508 });
    const webp = (chunk: string, body: number[]) => bytes('RIFF', le32(0), 'WEBP', chunk, le32(0), body);
    expect(imageHeader(webp('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(1000), ...le16(700)]))).toEqual({ kind: 'webp', width: 1000, height: 700 });
    expect(imageHeader(webp('VP8L', [0x2f, ...le32(999 | (699 << 14))]))).toEqual({ kind: 'webp', width: 1000, height: 700 });
  });

  it('says nothing of what is not an image, or of a header cut short', () => {
    expect(imageHeader(Buffer.from('plain text'))).toBeUndefined();
    expect(imageHeader(Buffer.from('\x89PNG\r\n\x1A\n\0\0\0\rIHDR\0\0', 'latin1'))).toBeUndefined();
    expect(imageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).toBeUndefined();
    expect(imageHeader(Buffer.from('II*\0\xff\xff\0\0', 'latin1'))).toBeUndefined();
  });
});
