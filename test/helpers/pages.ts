// Pages of known text as a scanner gives them: a PNG drawn with DejaVu Sans (an npm dependency),
// and a PDF whose page is only that image (no text layer), for the OCR tests.
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';

GlobalFonts.registerFromPath(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), 'DejaVu Sans');

/** An A4 page at 200 dpi (1654 × 2339 px) with `lines` in 11 pt DejaVu Sans at the top. */
export async function scannedPage(lines: readonly string[]): Promise<Buffer> {
  const dpi = 200;
  const px = (points: number) => Math.round((points / 72) * dpi);
  const canvas = createCanvas(Math.round(8.27 * dpi), Math.round(11.69 * dpi));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = 'black';
  ctx.font = `${px(11)}px "DejaVu Sans"`;
  lines.forEach((line, i) => ctx.fillText(line, px(54), px(72) + i * px(17)));
  return canvas.encode('png');
}

/** A PDF whose one A4 page is only `png`, drawn over the whole page: a scan with no text layer. */
export function scannedPdf(png: Buffer): Promise<Buffer> {
  return new Promise((resolve) => {
    const pdf = new PDFDocument({ size: 'A4', margin: 0 });
    const chunks: Buffer[] = [];
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.image(png, 0, 0, { width: pdf.page.width, height: pdf.page.height });
    pdf.end();
  });
}
