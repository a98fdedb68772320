// The PDF's line setting (src/domain/render/lineLayout.ts): bidirectional order, mirrored
// brackets, font-by-font fallback, line breaks where a script has no spaces, and characters no
// font covers. Font stacks here are real fonts (DejaVu Sans from npm, always there), or stacks
// that cover only what a test names, to see the fallback choose.
import { describe, expect, it } from 'vitest';
import * as fontkit from 'fontkit';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { createWidths, layoutParagraph, type LaidLine, type LayoutSettings, type StyledSpan } from '../../src/domain/render/lineLayout.js';
import { FontChooser, type FontStack, type PdfFont } from '../../src/domain/render/fonts.js';

const require = createRequire(import.meta.url);
const dejavuData = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
const DEJAVU: PdfFont = { name: 'DejaVuSans', face: fontkit.create(dejavuData) as fontkit.Font, data: dejavuData };

/** A font that is DejaVu Sans, but covers only the characters `only` matches (to see the fallback). */
function coveringOnly(name: string, only: RegExp): PdfFont {
  const face = Object.create(DEJAVU.face, {
    hasGlyphForCodePoint: { value: (cp: number) => only.test(String.fromCodePoint(cp)) && DEJAVU.face.hasGlyphForCodePoint(cp) },
  }) as fontkit.Font;
  return { name, face, data: dejavuData };
}

const stackOf = (...fonts: PdfFont[]): FontStack => ({ at: (i) => fonts[i] });
const settings = (over: Partial<LayoutSettings> = {}): LayoutSettings => ({
  fonts: { regular: new FontChooser(stackOf(DEJAVU)), bold: new FontChooser(stackOf(DEJAVU)) },
  widths: createWidths(),
  size: 11,
  maxWidth: 480,
  direction: 'ltr',
  ...over,
});
const span = (text: string, bold = false): StyledSpan => ({ text, color: '#000000', bold });
/** A line as drawn, left to right: its runs' texts in visual order. */
const visual = (line: LaidLine) => line.runs.map((r) => r.text);

describe('bidirectional order (UAX #9)', () => {
  it('a right-to-left paragraph puts its full stop at the left end, and numbers and Latin words read left to right', () => {
    const { lines } = layoutParagraph([span('مرحبا John في 10:30.')], settings({ direction: 'rtl' }));
    expect(lines).toHaveLength(1);
    const runs = visual(lines[0]!);
    // Left to right: the full stop, the time, "في", "John", "مرحبا" (the first word is rightmost).
    expect(runs[0]).toBe('.');
    expect(runs.join('').indexOf('10:30')).toBeGreaterThan(0);
    expect(runs.indexOf('10:30')).toBeLessThan(runs.indexOf('John'));
    expect(runs.indexOf('John')).toBeLessThan(runs.indexOf('مرحبا'));
    expect(runs.at(-1)).toBe('مرحبا');
    expect(lines[0]!.rightToLeft).toBe(true);
    // Placed from the left edge, each after the last.
    const xs = lines[0]!.runs.map((r) => r.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  });

  it('an Arabic word in an English sentence stays where it is said, its brackets mirrored', () => {
    const { lines } = layoutParagraph([span('The word (سلام) means peace.')], settings());
    const runs = visual(lines[0]!).join('|');
    // "(" at a right-to-left level is drawn as ")" and the other way round, so they still enclose.
    expect(runs.indexOf('The word')).toBeLessThan(runs.indexOf('سلام'));
    expect(runs.indexOf('سلام')).toBeLessThan(runs.indexOf('means'));
    expect(runs).toContain('(');
    expect(runs).toContain(')');
  });

  it('a left-to-right paragraph is left to right', () => {
    const { lines } = layoutParagraph([span('Hello world, again.')], settings());
    expect(visual(lines[0]!).join('')).toBe('Hello world, again.');
    expect(lines[0]!.rightToLeft).toBe(false);
    expect(lines[0]!.text).toBe('Hello world, again.');
  });
});

describe('fonts, font by font', () => {
  it('each character comes from the first font that covers it; a label in bold keeps its own font', () => {
    const latin = coveringOnly('latin', /[\p{sc=Latin}\p{sc=Zyyy}]/u);
    const cyrillic = coveringOnly('cyrillic', /[\p{sc=Cyrillic}\p{sc=Zyyy}]/u);
    const bold = coveringOnly('bold', /./u);
    const { lines, missing } = layoutParagraph(
      [span('Anna: ', true), span('Hello привет world')],
      settings({ fonts: { regular: new FontChooser(stackOf(latin, cyrillic)), bold: new FontChooser(stackOf(bold)) } }),
    );
    expect(missing).toEqual([]);
    expect(lines[0]!.runs.map((r) => [r.text, r.font.name])).toEqual([
      ['Anna: ', 'bold'],
      ['Hello ', 'latin'],
      ['привет ', 'cyrillic'],
      ['world', 'latin'],
    ]);
  });

  it('a character no font covers is drawn as U+FFFD and listed', () => {
    const { lines, missing } = layoutParagraph([span('a \u{F0041} b')], settings());
    expect(missing).toEqual(['\u{F0041}']);
    expect(visual(lines[0]!).join('')).toBe('a \uFFFD b');
    expect(lines[0]!.text).toBe('a \u{F0041} b');
  });

  it('joiners a font lacks are left out of what it draws, not drawn as boxes', () => {
    const noJoiners = coveringOnly('no joiners', /[^\u200c\u200d\ufe0f]/u);
    const { lines, missing } = layoutParagraph(
      [span('a\u200db\ufe0f')],
      settings({ fonts: { regular: new FontChooser(stackOf(noJoiners)), bold: new FontChooser(stackOf(noJoiners)) } }),
    );
    expect(missing).toEqual([]);
    expect(visual(lines[0]!).join('')).toBe('ab');
  });
});

describe('line breaking', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

  it('fills lines up to the width and breaks between words, without the spaces at the ends', () => {
    const { lines } = layoutParagraph([span(words(60))], settings({ maxWidth: 200 }));
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      expect(line.width).toBeLessThanOrEqual(200.5);
      expect(line.text).toMatch(/^word\d+( word\d+)*$/);
    }
    expect(lines.map((l) => l.text).join(' ')).toBe(words(60));
  });

  it('breaks Thai between its words (no spaces), by the dictionary Intl.Segmenter uses', () => {
    const thai = 'วันนี้เราจะพูดคุยเกี่ยวกับการศึกษาและอนาคตของเด็กๆในประเทศไทย'.repeat(3);
    const { lines } = layoutParagraph([span(thai)], settings({ maxWidth: 120 }));
    expect(lines.length).toBeGreaterThan(2);
    const ends = new Set([...new Intl.Segmenter('th', { granularity: 'word' }).segment(thai)].map((s) => s.index + s.segment.length));
    let at = 0;
    for (const line of lines) {
      at += line.text.length;
      expect(ends.has(at), `…${line.text.slice(-6)}`).toBe(true);
    }
    expect(lines.map((l) => l.text).join('')).toBe(thai);
  });

  it('breaks Chinese between characters but never before a closing comma or full stop', () => {
    const text = '你好，今天我们讨论教育。我们的孩子需要更好的学校和老师，这是非常重要的问题。'.repeat(4);
    // DejaVu has no Han (each is drawn as U+FFFD here): the breaks are the text's, whatever the font.
    const { lines } = layoutParagraph([span(text)], settings({ maxWidth: 90 }));
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(line.text).not.toMatch(/^[，。]/u);
    expect(lines.map((l) => l.text).join('')).toBe(text);
  });

  it('a word longer than a line is broken between its characters', () => {
    const { lines } = layoutParagraph([span('x'.repeat(200))], settings({ maxWidth: 100 }));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.width).toBeLessThanOrEqual(100.5);
    expect(lines.map((l) => l.text).join('')).toBe('x'.repeat(200));
  });

  it('a newline in the text ends a line', () => {
    const { lines } = layoutParagraph([span('one\ntwo')], settings());
    expect(lines.map((l) => l.text)).toEqual(['one', 'two']);
  });
});
