// DOCX (docx) and PDF (pdfkit) renderings of the reading layout. Pure: bytes in memory.
import { createRequire } from 'node:module';
import { Document, Packer, Paragraph as DocxParagraph, TextRun as DocxTextRun } from 'docx';
import PDFDocument from 'pdfkit';
import { leadingMarks, LEFT_TO_RIGHT, type Paragraph, type TextScript } from './layout.js';

const MARK_COLOR = '666666';

export async function renderDocx(paragraphs: Paragraph[], title: string, script: TextScript = LEFT_TO_RIGHT): Promise<Buffer> {
  // Every run says its language (for right-to-left text, as its complex-script language) and
  // direction; a right-to-left paragraph is bidirectional, so Word lays it out from the right.
  const rtl = script.direction === 'rtl';
  const runOptions = {
    ...(script.language ? { language: rtl ? { bidirectional: script.language } : { value: script.language } } : {}),
    ...(rtl ? { rightToLeft: true } : {}),
  };
  const TextRun = (options: string | (ConstructorParameters<typeof DocxTextRun>[0] & object)) =>
    new DocxTextRun({ ...(typeof options === 'string' ? { text: options } : options), ...runOptions });
  const doc = new Document({
    creator: 'order-service',
    title,
    sections: [
      {
        children: [
          new DocxParagraph({ heading: 'Heading1', children: [TextRun(title)] }),
          ...paragraphs.map((p) => {
            const { lead, rest } = leadingMarks(p);
            const runs = [
              ...lead.map((m) => TextRun({ text: `[${m}] `, color: MARK_COLOR })),
              ...(p.speaker ? [TextRun({ text: `${p.speaker}: `, bold: true })] : []),
              ...rest.map((r, i) => {
                const space = i < rest.length - 1 ? ' ' : '';
                return 'mark' in r ? TextRun({ text: `[${r.mark}]${space}`, color: MARK_COLOR }) : TextRun(`${r.text}${space}`);
              }),
            ];
            return new DocxParagraph({ spacing: { after: 200 }, ...(rtl ? { bidirectional: true } : {}), children: runs });
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

// DejaVu Sans covers Latin, Greek, Cyrillic, Hebrew, Arabic and more; pdfkit's built-in fonts
// cover only Windows-1252.
const require = createRequire(import.meta.url);
const FONT = { regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') };

/** A PDF of the paragraphs; right-to-left text is aligned right (its letters in logical order: docs/formats.md). */
export function renderPdf(paragraphs: Paragraph[], title: string, script: TextScript = LEFT_TO_RIGHT): Promise<Buffer> {
  const align = script.direction === 'rtl' ? 'right' : 'left';
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Creator: 'order-service' } });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.registerFont('regular', FONT.regular);
    pdf.registerFont('bold', FONT.bold);
    pdf.font('bold').fontSize(16).text(title).moveDown();
    for (const p of paragraphs) {
      const { lead, rest } = leadingMarks(p);
      const pieces: Array<{ text: string; font: 'regular' | 'bold'; color: string }> = [
        ...lead.map((m) => ({ text: `[${m}] `, font: 'regular' as const, color: `#${MARK_COLOR}` })),
        ...(p.speaker ? [{ text: `${p.speaker}: `, font: 'bold' as const, color: '#000000' }] : []),
        ...rest.map((r, i) => {
          const space = i < rest.length - 1 ? ' ' : '';
          return 'mark' in r
            ? { text: `[${r.mark}]${space}`, font: 'regular' as const, color: `#${MARK_COLOR}` }
            : { text: `${r.text}${space}`, font: 'regular' as const, color: '#000000' };
        }),
      ];
      pieces.forEach((piece, i) => {
        pdf
          .font(piece.font)
          .fontSize(11)
          .fillColor(piece.color)
          .text(piece.text, { continued: i < pieces.length - 1, align });
      });
      pdf.moveDown(0.6);
    }
    pdf.end();
  });
}
