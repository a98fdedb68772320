// Issue 30: a PDF result in every script of the language sets reads as its text, to a program
// (pdftotext, which copies what a reader copies) and to a person (the page drawn by pdftoppm and
// read back by tesseract with the language's data), with no glyph drawn as .notdef (an empty box).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderResult } from '../../src/domain/render/index.js';
import { fontLibrary } from '../../src/documents/fonts.js';
import { languageTag, writingDirection } from '../../src/domain/languages.js';
import { characterErrorRate } from '../../src/domain/textDistance.js';
import type { Transcript } from '../../src/domain/transcript.js';
import { describeNeeding } from '../helpers/legs.js';
import { drawnGlyphIds, ocrPdfPage, pdfFonts, pdfLineBoxes, pdfLines } from '../helpers/pdfReaders.js';

interface Sample {
  /** The language set's slug. */
  language: string;
  text: string;
  /** tesseract's language data, where Debian has it, and the character error rate allowed. */
  ocr?: { data: string; maxCer: number };
}

/**
 * A sentence or two in a language of each script of the sets (bench/pdfFonts.mjs reads them too):
 * one per script the issue names is read back by OCR as well.
 */
const SAMPLES: Sample[] = JSON.parse(readFileSync(new URL('../helpers/scriptSamples.json', import.meta.url), 'utf8'));
const READ_BY_OCR = SAMPLES.filter((s) => s.ocr);

const A4_WIDTH = 595.28;
const MARGIN = 56;
const TITLE = 'Order 1 transcription';

async function renderPdf(language: string, text: string): Promise<{ body: Buffer; missing?: string[] }> {
  const transcript: Transcript = { segments: [{ start: 0, end: 5, text }] };
  const options = { title: TITLE, timestamping: 'not_required' as const, language: languageTag(language), direction: writingDirection(language) };
  const rendered = await renderResult('transcription', transcript, 'pdf', options, fontLibrary());
  return { body: rendered.body, ...(rendered.missingCharacters ? { missing: rendered.missingCharacters } : {}) };
}

const withoutSpaces = (s: string) => s.normalize('NFC').replace(/\s+/g, '');

/**
 * What a copied text is compared by: NFC, without the invisible joiners a PDF draws no glyph for
 * (Persian's zero-width non-joiner); in right-to-left text, its words without punctuation, since
 * poppler puts the neutral punctuation of a right-to-left line by rules of its own (a comma
 * before the word after it). Where the punctuation is drawn is OCR's to check.
 */
function asCopied(text: string, language: string): string[] {
  const plain = text.normalize('NFC').replace(/\p{Default_Ignorable_Code_Point}/gu, '');
  return writingDirection(language) === 'rtl' ? plain.split(/[\s\p{P}]+/u).filter(Boolean) : [plain.replace(/\s+/g, ' ').trim()];
}
/** Scripts written without spaces between words: their lines break inside what pdftotext reads as one text. */
const NO_SPACES = /[\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Tibetan}]/u;

describeNeeding('scripts', 'PDF results in every script of the language sets', () => {
  it.each(SAMPLES.map((s) => [s.language, s] as const))(
    '%s: every glyph embedded and real, and the text reads back word for word',
    async (_name, { language, text }) => {
      const { body, missing } = await renderPdf(language, text);
      expect(missing).toBeUndefined();
      // No glyph drawn is .notdef (glyph 0, the empty box), and every font is embedded.
      const glyphs = drawnGlyphIds(body);
      expect(glyphs.length).toBeGreaterThan(20);
      expect(glyphs.filter((g) => g === 0)).toEqual([]);
      const fonts = await pdfFonts(body);
      expect(fonts.length).toBeGreaterThan(0);
      expect(fonts.filter((f) => !f.embedded)).toEqual([]);
      // pdftotext reads the title, then the text as written (logical order, right to left included).
      const lines = await pdfLines(body);
      expect(lines[0]).toBe(TITLE);
      expect(asCopied(lines.slice(1).join(' '), language)).toEqual(asCopied(text, language));
    },
  );

  it.each(READ_BY_OCR.map((s) => [s.language, s] as const))('%s: the page drawn reads back by OCR (tesseract)', async (_name, { language, text, ocr }) => {
    const { body } = await renderPdf(language, text);
    const read = (await ocrPdfPage(body, ocr!.data)).split('\n').filter((l) => l.trim());
    // The first line is the English title, which the language's data does not read.
    const cer = characterErrorRate(withoutSpaces(text), withoutSpaces(read.slice(1).join('')));
    expect(cer, `tesseract read: ${read.slice(1).join(' / ')}`).toBeLessThanOrEqual(ocr!.maxCer);
  });

  it.each(['thai', 'khmer', 'chinese-simplified', 'japanese', 'hindi', 'arabic'].map((l) => [l]))(
    '%s: a long paragraph breaks into lines inside the margins, at word boundaries where a script has no spaces',
    async (language) => {
      const sample = READ_BY_OCR.find((s) => s.language === language)!;
      const text = Array.from({ length: 8 }, () => sample.text).join(' ');
      const { body } = await renderPdf(language, text);
      const boxes = await pdfLineBoxes(body);
      expect(boxes.length).toBeGreaterThan(4);
      for (const box of boxes) {
        expect(box.xMin).toBeGreaterThanOrEqual(MARGIN - 1);
        expect(box.xMax).toBeLessThanOrEqual(A4_WIDTH - MARGIN + 1);
      }
      const lines = (await pdfLines(body)).slice(1);
      expect(withoutSpaces(lines.join(''))).toBe(withoutSpaces(text));
      if (NO_SPACES.test(sample.text) && !/\p{sc=Han}/u.test(sample.text)) {
        // Thai and Khmer lines end where a word does (ICU's dictionary, the one Intl.Segmenter uses).
        const words = new Set([...new Intl.Segmenter(languageTag(language), { granularity: 'word' }).segment(text)].map((w) => w.index + w.segment.length));
        // Where each line ends in the text: its characters other than spaces, counted on.
        const ends = [...text.matchAll(/\S/gu)].map((m) => m.index + m[0].length);
        let read = 0;
        for (const line of lines.slice(0, -1)) {
          read += [...line.matchAll(/\S/gu)].length;
          expect(words.has(ends[read - 1]!), `a line of ${language} ends inside a word: …${line.slice(-12)}`).toBe(true);
        }
      }
      if (writingDirection(language) === 'rtl') {
        // Right-to-left paragraphs are aligned right: every line ends at the right margin.
        for (const box of boxes.slice(1)) expect(box.xMax).toBeGreaterThan(A4_WIDTH - MARGIN - 2);
      }
    },
  );
});

describe('a character no font covers', () => {
  it('is drawn as U+FFFD, never as an empty box, and is reported', async () => {
    // A private-use character: no font has it.
    const { body, missing } = await renderPdf('english', 'A sign \u{F0041} no font has.');
    expect(missing).toEqual(['\u{F0041}']);
    expect(drawnGlyphIds(body).filter((g) => g === 0)).toEqual([]);
  });
});
