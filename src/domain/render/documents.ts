// The DOCX rendering (docx) of the reading layout. Pure: bytes in memory.
import { Document, Packer, Paragraph as DocxParagraph, TextRun as DocxTextRun } from 'docx';
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
