// Real customer documents made on the fly (no fixtures): DOCX, PDF (text and scanned pages), RTF,
// PNG and JPEG bytes, and a loopback server that serves them as a customer's URL would.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import PDFDocument from 'pdfkit';
import { close, listen } from './net.js';

export function docxOf(paragraphs: string[]): Promise<Buffer> {
  const doc = new Document({ sections: [{ children: paragraphs.map((p) => new Paragraph({ children: [new TextRun(p)] })) }] });
  return Packer.toBuffer(doc);
}

// pdfkit's built-in fonts cover only Windows-1252; DejaVu Sans lets tests write other scripts.
const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

export interface PdfOptions {
  /** Encrypts the PDF: it cannot be opened without this password. */
  userPassword?: string;
}

/** A contract of `pages` full pages of text: a document that keeps a reader busy a while (capacity tests). */
export function longContractPdf(pages: number): Promise<Buffer> {
  const page = Array.from({ length: 40 }, (_, n) => `Line ${n} of a long contract that a customer wants translated into Spanish.`);
  return pdfOf(Array.from({ length: pages }, () => page));
}

/** A PDF with one page per entry, each a list of paragraphs; a page without any is a scan (an image, no text layer). */
export function pdfOf(pages: string[][], options: PdfOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: 'A4', margin: 56, autoFirstPage: false, ...(options.userPassword ? { userPassword: options.userPassword } : {}) });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.registerFont('regular', FONT);
    const scan = pngImage(64, 64);
    for (const paragraphs of pages) {
      pdf.addPage();
      if (paragraphs.length === 0) pdf.image(scan, 56, 56, { width: 480 });
      for (const p of paragraphs) pdf.font('regular').fontSize(11).text(p).moveDown(0.6);
    }
    pdf.end();
  });
}

/** A PDF of `pages` scanned pages: images only, no text layer. */
export function blankPdf(pages: number): Promise<Buffer> {
  return pdfOf(Array.from({ length: pages }, () => []));
}

/** RTF with one paragraph per line of `text`; non-ASCII as \uN escapes with a '?' fallback, as Word writes them. */
export function rtfOf(text: string): string {
  const escape = (line: string) =>
    [...line]
      .map((c) => {
        if (c === '\\' || c === '{' || c === '}') return `\\${c}`;
        const code = c.codePointAt(0)!;
        if (code < 0x80) return c;
        // RTF's \uN is a signed 16-bit UTF-16 unit: astral characters take two.
        return Array.from(c, (unit) => `\\u${(unit.charCodeAt(0) << 16) >> 16}?`).join('');
      })
      .join('');
  const body = text
    .split('\n')
    .map((line) => `${escape(line)}\\par\n`)
    .join('');
  return `{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc1{\\fonttbl{\\f0\\fswiss Helvetica;}}\n\\f0\\fs22 ${body}}`;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid greyscale PNG (a grey gradient, like a faint scan), `width` x `height` pixels. */
export function pngImage(width = 4, height = 4): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  // Each row: filter type 0, then one byte per pixel.
  const rows = Buffer.concat(Array.from({ length: height }, (_, y) => Buffer.from([0, ...Array.from({ length: width }, (_, x) => 160 + ((x + y) % 64))])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The first bytes of a JFIF JPEG (SOI and APP0): what a signature check reads. */
export function jpegHeader(): Buffer {
  return Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
}

export interface DocumentServer {
  url: string;
  /** Serves `bytes` at `path` (with `contentType`, or no Content-Type at all) and returns its URL. */
  serve(path: string, bytes: Uint8Array | string, contentType?: string): string;
  close(): Promise<void>;
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const files = new Map<string, { body: Buffer; contentType?: string }>();
  const server = createServer((req, res) => {
    const file = files.get(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (!file) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-length': file.body.length, ...(file.contentType ? { 'content-type': file.contentType } : {}) });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  });
  const url = await listen(server);
  return {
    url,
    serve(path, bytes, contentType) {
      const normalized = path.startsWith('/') ? path : `/${path}`;
      files.set(new URL(normalized, 'http://localhost').pathname, { body: Buffer.from(bytes), ...(contentType ? { contentType } : {}) });
      return `${url}${normalized}`;
    },
    close: () => close(server),
  };
}
