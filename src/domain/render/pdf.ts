// The PDF rendering of the reading layout (pdfkit): every line set by lineLayout.ts in the fonts
// of the library it is given, only the glyphs used embedded. Pure: bytes in memory.
import PDFDocument from 'pdfkit';
import { FontChooser, type FontLibrary, type PdfFont } from './fonts.js';
import { leadingMarks, LEFT_TO_RIGHT, type Paragraph, type TextScript } from './layout.js';
import { createWidths, layoutParagraph, type LaidLine, type StyledSpan } from './lineLayout.js';

const MARK_COLOR = '#666666';
const TEXT_COLOR = '#000000';
const MARGIN = 56;
const BODY_SIZE = 11;
const TITLE_SIZE = 16;

/** The spans of a paragraph: leading marks, the speaker in bold, the words, marks in grey. */
function spansOf(p: Paragraph): StyledSpan[] {
  const { lead, rest } = leadingMarks(p);
  return [
    ...lead.map((m) => ({ text: `[${m}] `, color: MARK_COLOR })),
    ...(p.speaker ? [{ text: `${p.speaker}: `, bold: true, color: TEXT_COLOR }] : []),
    ...rest.map((r, i) => {
      const space = i < rest.length - 1 ? ' ' : '';
      return 'mark' in r ? { text: `[${r.mark}]${space}`, color: MARK_COLOR } : { text: `${r.text}${space}`, color: TEXT_COLOR };
    }),
  ];
}

/**
 * A PDF of the paragraphs. Right-to-left paragraphs are aligned right. `missing`: the characters
 * no font of the library covers (drawn as U+FFFD), and `dropped`: how many code points were past
 * the layout's caps (caps.ts) and left out, for the caller to log and count.
 */
export function renderPdf(
  paragraphs: Paragraph[],
  title: string,
  fonts: FontLibrary,
  script: TextScript = LEFT_TO_RIGHT,
): Promise<{ body: Buffer; missing: string[]; dropped: number }> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: title, Creator: 'order-service' },
    ...(script.language ? { lang: script.language } : {}),
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const settings = {
    fonts: { regular: new FontChooser(fonts.stack(script.language, 'regular')), bold: new FontChooser(fonts.stack(script.language, 'bold')) },
    widths: createWidths(),
    maxWidth: pdf.page.width - 2 * MARGIN,
    direction: script.direction,
  };
  const registered = new Set<string>();
  const use = (font: PdfFont) => {
    if (!registered.has(font.name)) {
      pdf.registerFont(font.name, font.data, font.postscriptName);
      registered.add(font.name);
    }
    pdf.font(font.name);
  };
  const missing: string[] = [];
  let dropped = 0;
  let y = MARGIN;

  const draw = (lines: LaidLine[], size: number) => {
    for (const line of lines) {
      const height = (line.ascent + line.descent) * 1.15;
      if (y + height > pdf.page.height - MARGIN && y > MARGIN) {
        pdf.addPage();
        y = MARGIN;
      }
      const left = MARGIN + (script.direction === 'rtl' ? settings.maxWidth - line.width : 0);
      const baseline = y + line.ascent;
      // A reader copies the line as written: its glyphs alone do not say it where shaping moved
      // them (an Indic vowel sign drawn before its consonant, Thai marks). Not on lines with
      // right-to-left text, whose glyph order readers turn themselves (poppler would turn this
      // text too), nor in right-to-left documents: poppler puts lines with and without it in
      // separate flows, so every line of a document is one way or the other.
      const actualText = script.direction === 'ltr' && !line.rightToLeft;
      if (actualText) pdf.markContent('Span', { actual: line.text });
      for (const run of line.runs) {
        use(run.font);
        pdf
          .fontSize(size)
          .fillColor(run.color)
          .text(run.text, left + run.x, baseline, { lineBreak: false, baseline: 'alphabetic' });
      }
      if (actualText) pdf.endMarkedContent();
      y += height;
    }
  };
  const set = (spans: StyledSpan[], size: number) => {
    const laid = layoutParagraph(spans, { ...settings, size });
    missing.push(...laid.missing);
    dropped += laid.dropped;
    draw(laid.lines, size);
  };

  set([{ text: title, bold: true, color: TEXT_COLOR }], TITLE_SIZE);
  y += TITLE_SIZE * 0.8;
  for (const p of paragraphs) {
    set(spansOf(p), BODY_SIZE);
    y += BODY_SIZE * 0.6;
  }
  pdf.end();
  return done.then((body) => ({ body, missing, dropped }));
}
