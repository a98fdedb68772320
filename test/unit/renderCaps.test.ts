// The caps on what one paragraph of a PDF may ask of the layout (src/domain/render/caps.ts, issue
// 41): marks on one letter, unbreakable words, clusters and clusters per line, and segmenting in
// windows (V8's segmenter in Node 20 costs the square of the text's length). Pure functions, and
// the layout with DejaVu Sans (from npm, always there).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import bidiModule, { type Bidi } from 'bidi-js';
import { BidiNesting, CAPS, capText, codePoints, segmentsOf } from '../../src/domain/render/caps.js';
import { createWidths, layoutParagraph, type LayoutSettings } from '../../src/domain/render/lineLayout.js';
import { FontChooser, type PdfFont } from '../../src/domain/render/fonts.js';

const require = createRequire(import.meta.url);
const data = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
const DEJAVU: PdfFont = { name: 'DejaVuSans', face: fontkit.create(data) as fontkit.Font, data };
const settings = (): LayoutSettings => ({
  fonts: { regular: new FontChooser({ at: (i) => (i ? undefined : DEJAVU) }), bold: new FontChooser({ at: (i) => (i ? undefined : DEJAVU) }) },
  widths: createWidths(),
  size: 11,
  maxWidth: 480,
  direction: 'ltr',
});
const layout = (text: string) => layoutParagraph([{ text, color: '#000000' }], settings());
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ACUTE = '\u0301';
const ZWJ = '\u200D';

describe('capText', () => {
  it('keeps 30 marks on one letter (the Stream-Safe Text Format) and counts the rest', () => {
    const { text, dropped } = capText(`before a${ACUTE.repeat(100_000)} after`);
    expect(text).toBe(`before a${ACUTE.repeat(CAPS.marksPerBase)} after`);
    expect(dropped).toBe(100_000 - CAPS.marksPerBase);
    expect(capText(`a${ACUTE.repeat(30)}`)).toEqual({ text: `a${ACUTE.repeat(30)}`, dropped: 0 });
    expect(capText(`a${ACUTE.repeat(31)}`)).toEqual({ text: `a${ACUTE.repeat(30)}`, dropped: 1 });
  });

  it('caps runs of joiners, variation selectors and marks mixed, each run on its own', () => {
    expect(capText(`x ${ZWJ.repeat(250_000)} y`).text).toBe(`x ${ZWJ.repeat(30)} y`);
    const mixed = `e${`${ACUTE}${ZWJ}\uFE0F`.repeat(20)}`;
    expect(codePoints(capText(mixed).text)).toBe(31);
    // Many letters, each with 29 marks: nothing is too many.
    const many = `a${ACUTE.repeat(29)}`.repeat(100);
    expect(capText(many)).toEqual({ text: many, dropped: 0 });
  });

  it('cuts a word with no break past the cap, says so with an ellipsis, and keeps the words around it', () => {
    const { text, dropped } = capText(`before ${'abcdefghij'.repeat(500_000)} after`);
    expect(text).toBe(`before ${'abcdefghij'.repeat(CAPS.unbroken / 10)}\u2026 after`);
    expect(dropped).toBe(5_000_000 - CAPS.unbroken);
    // A long run of spaces is one space.
    expect(capText(`a${' '.repeat(CAPS.unbroken + 10)}b`)).toEqual({ text: 'a b', dropped: CAPS.unbroken + 9 });
  });

  it('leaves out embeddings and isolates nested past the depth of the bidi algorithm, and what closes them', () => {
    const FSI = '\u2068';
    const PDI = '\u2069';
    const { text, dropped } = capText(`before ${FSI.repeat(80_000)}x${PDI.repeat(80_000)} after`);
    expect(text).toBe(`before ${FSI.repeat(CAPS.bidiDepth)}x${PDI.repeat(CAPS.bidiDepth)} after`);
    expect(dropped).toBe(2 * (80_000 - CAPS.bidiDepth));
    // Across the spans of a paragraph: one count.
    const nesting = new BidiNesting();
    expect(capText('\u202B'.repeat(100), nesting).text).toBe('\u202B'.repeat(100));
    expect(capText('\u202B'.repeat(100), nesting).text).toBe('\u202B'.repeat(CAPS.bidiDepth - 100));
  });

  it('the letters keep their bidi levels when what overflows is left out', () => {
    const bidi = (bidiModule as unknown as () => Bidi)();
    const controls = ['\u202B', '\u202A', '\u202E', '\u202D', '\u2067', '\u2066', '\u2068'];
    let text = 'start ';
    for (let i = 0; i < 300; i++) text += controls[i % 7]! + (i % 3 ? '' : i % 2 ? 'abc ' : 'שלום ');
    for (let i = 0; i < 300; i++) text += (i % 4 ? '\u202C' : '\u2069') + (i % 5 ? '' : 'end ');
    const lettersOf = (t: string) => {
      const { levels } = bidi.getEmbeddingLevels(t, 'ltr');
      return [...t].flatMap((c, i) => (/\p{L}/u.test(c) ? [`${c}${levels[i]}`] : []));
    };
    const capped = capText(text);
    expect(capped.dropped).toBeGreaterThan(0);
    expect(lettersOf(capped.text)).toEqual(lettersOf(text));
  });

  it('never cuts a surrogate pair in two', () => {
    const { text } = capText('\u{1D400}'.repeat(CAPS.unbroken));
    expect(text.endsWith('\u2026')).toBe(true);
    expect(text.slice(0, -1)).toBe('\u{1D400}'.repeat(CAPS.unbroken / 2));
  });

  it('leaves ordinary text alone, and Thai without spaces breaks between its words, so nothing is cut', () => {
    const english = 'The school children need teachers, and we will talk about education today.';
    expect(capText(english)).toEqual({ text: english, dropped: 0 });
    const thai = 'สวัสดีครับวันนี้เราจะพูดเรื่องการศึกษา'.repeat(400);
    expect(thai.length).toBeGreaterThan(CAPS.unbroken);
    expect(capText(thai)).toEqual({ text: thai, dropped: 0 });
  });
});

describe('segmentsOf', () => {
  it('finds the same segments as the whole text at once, emoji sequences, flags, marks and Thai included', () => {
    const text = 'héllo wörld 👨‍👩‍👧‍👦 ก้า 🇫🇷🇩🇪 e\u0301\u0302 สวัสดีครับ '.repeat(40);
    for (const granularity of ['grapheme', 'word'] as const) {
      const segmenter = new Intl.Segmenter('th', { granularity });
      const whole = [...segmenter.segment(text)].map(({ segment, index }) => [segment, index]);
      for (const window of [16, 64, 256]) expect([...segmentsOf(segmenter, text, window)].map(({ segment, index }) => [segment, index])).toEqual(whole);
    }
  });

  it('finds a segment longer than its window whole, and covers the whole text', () => {
    const text = `x a${ACUTE.repeat(1_000)}b ${'\u{1F469}\u200D'.repeat(700)}\u{1F469}!`;
    expect([...segmentsOf(graphemes, text, 16)].map((s) => s.segment)).toEqual([
      'x',
      ' ',
      `a${ACUTE.repeat(1_000)}`,
      'b',
      ' ',
      `${'\u{1F469}\u200D'.repeat(700)}\u{1F469}`,
      '!',
    ]);
    // A long text of ordinary letters comes out whole, a segment each.
    const long = 'abcdefghij'.repeat(20_000);
    let same = 0;
    for (const { segment, index } of segmentsOf(graphemes, long)) if (segment === long[index]) same++;
    expect(same).toBe(long.length);
  });
});

describe('the layout within the caps', () => {
  it('draws 100,000 marks on one letter as 30, on one line with the words around them, and counts the rest', () => {
    const { lines, dropped } = layout(`before a${ACUTE.repeat(100_000)} after`);
    expect(lines.map((l) => l.text)).toEqual([`before a${ACUTE.repeat(30)} after`]);
    expect(dropped).toBe(100_000 - 30);
  });

  it('sets a 5 MB line with no break in lines inside the margins, cut at the cap, the words after it kept', () => {
    const { lines, dropped } = layout(`before ${'abcdefghij'.repeat(500_000)} after`);
    expect(lines[0]!.text.startsWith('before')).toBe(true);
    expect(lines.at(-1)!.text.endsWith('\u2026 after') || lines.at(-1)!.text === 'after').toBe(true);
    expect(lines.map((l) => l.text).join('')).toContain('\u2026');
    for (const line of lines) expect(line.width).toBeLessThanOrEqual(480 + 0.01);
    expect(dropped).toBe(5_000_000 - CAPS.unbroken);
  });

  it('keeps a cluster to its first code points: an emoji sequence joined without end', () => {
    const { lines, dropped } = layout(`before ${'\u{1F469}\u200D'.repeat(1_000)} after`);
    const text = lines.map((l) => l.text).join(' ');
    expect(text).toMatch(/^before .* after$/u);
    for (const { segment } of graphemes.segment(text)) expect(codePoints(segment)).toBeLessThanOrEqual(CAPS.clusterCodePoints);
    expect(dropped).toBeGreaterThan(0);
  });

  it('puts at most CAPS.lineClusters clusters on a line, however narrow they are', () => {
    // Word joiners: invisible, no break between them, each a cluster of its own.
    const { lines } = layout(`before ${'\u2060'.repeat(3_000)} after`);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect([...graphemes.segment(line.text)].length).toBeLessThanOrEqual(CAPS.lineClusters);
    expect(lines.map((l) => l.text).join('') === `before ${'\u2060'.repeat(3_000)} after`).toBe(true);
  });

  it('sets a bomb of nested bidi controls, with the words around it', () => {
    const open = ['\u202B', '\u202A', '\u202E', '\u202D', '\u2067', '\u2066', '\u2068'];
    let bomb = '';
    for (let i = 0; i < 50_000; i++) bomb += open[i % 7]!;
    for (let i = 0; i < 50_000; i++) bomb += i % 2 ? '\u202C' : '\u2069';
    const { lines } = layout(`before ${bomb} after`);
    const text = lines.map((l) => l.text).join(' ');
    expect(text.startsWith('before')).toBe(true);
    expect(text.endsWith('after')).toBe(true);
  });
});
