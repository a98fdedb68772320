// A paragraph set in lines for the PDF: fonts chosen character by character from a stack, line
// breaks by the Unicode line breaking algorithm (UAX #14) plus word boundaries in the scripts
// written without spaces, and each line put in visual order by the bidirectional algorithm
// (UAX #9). Shaping (Indic conjuncts, Arabic joining, Thai marks) is fontkit's, run by run. What a
// paragraph may ask of all this is capped (caps.ts): marks per letter, clusters, unbreakable words
// and clusters per line, so its cost grows with its length, never with the square of it.
import bidiModule, { type Bidi } from 'bidi-js';
import LineBreaker from 'linebreak';
import { BidiNesting, CAPS, capText, codePoints, firstCodePoints, NO_SPACES, segmentsOf } from './caps.js';
import { drawable, type FontChooser, type PdfFont } from './fonts.js';

export interface StyledSpan {
  text: string;
  bold?: boolean;
  /** `#rrggbb` */
  color: string;
}

/** A run of one font, direction and colour, placed on its line. */
export interface PlacedRun {
  /** What is drawn, in the order fontkit lays it out (it turns right-to-left script runs itself). */
  text: string;
  font: PdfFont;
  color: string;
  /** From the line's left edge, in points. */
  x: number;
  width: number;
}

export interface LaidLine {
  runs: PlacedRun[];
  width: number;
  /** Above and below the baseline, in points: the largest of the line's fonts. */
  ascent: number;
  descent: number;
  /** The line's text in logical order, as written (what a reader of the PDF copies). */
  text: string;
  /** Whether any of it runs right to left. */
  rightToLeft: boolean;
}

export interface LayoutSettings {
  /** The fonts of each weight, chosen from their stacks (one chooser per stack for the whole document). */
  fonts: { regular: FontChooser; bold: FontChooser };
  /** Widths of the pieces laid out so far, for the whole document (createWidths). */
  widths: Widths;
  size: number;
  maxWidth: number;
  direction: 'ltr' | 'rtl';
}

// The package's types describe an ES module; Node hands over its CommonJS export, the factory itself.
const bidi = (bidiModule as unknown as () => Bidi)();
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
/** Controls other than the newline, drawn as the space they stand for. */
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const REPLACEMENT = '\uFFFD';
/** The first character of a script of its own, as fontkit finds it to choose a run's direction. */
const SCRIPTED = /[^\p{sc=Zyyy}\p{sc=Zinh}\p{sc=Zzzz}]/u;
/** The scripts fontkit lays out right to left (its own list). */
const FONTKIT_RTL =
  /[\p{sc=Arabic}\p{sc=Hebrew}\p{sc=Syriac}\p{sc=Thaana}\p{sc=Cypriot}\p{sc=Kharoshthi}\p{sc=Phoenician}\p{sc=Nko}\p{sc=Lydian}\p{sc=Avestan}\p{sc=Imperial_Aramaic}\p{sc=Inscriptional_Pahlavi}\p{sc=Inscriptional_Parthian}\p{sc=Old_South_Arabian}\p{sc=Old_Turkic}\p{sc=Samaritan}\p{sc=Mandaic}\p{sc=Meroitic_Cursive}\p{sc=Meroitic_Hieroglyphs}\p{sc=Manichaean}\p{sc=Mende_Kikakui}\p{sc=Nabataean}\p{sc=Old_North_Arabian}\p{sc=Palmyrene}\p{sc=Psalter_Pahlavi}]/u;
/** Whether fontkit turns a run (lays its glyphs out right to left). */
const fontkitTurns = (drawn: string) => FONTKIT_RTL.test(SCRIPTED.exec(drawn)?.[0] ?? '');

interface Cluster {
  start: number;
  end: number;
  /** As written, within CAPS.clusterCodePoints. */
  logical: string;
  /** As drawn: mirrored where right to left, without ignorables the font lacks; U+FFFD where no font covers it. */
  drawn: string;
  font: PdfFont;
  level: number;
  span: number;
  space: boolean;
  /** A line may start here. */
  breakBefore: boolean;
}

/**
 * Sets `spans` (one paragraph) in lines of at most `maxWidth` points. `missing` lists the
 * characters no font of the stack covers: each is drawn as U+FFFD, never as an empty box.
 * `dropped`: the code points past the caps (caps.ts), left out.
 */
export function layoutParagraph(spans: StyledSpan[], settings: LayoutSettings): { lines: LaidLine[]; missing: string[]; dropped: number } {
  const bidiNesting = new BidiNesting();
  const capped = spans.map((s) => capText(s.text.replace(CONTROLS, ' '), bidiNesting));
  const texts = capped.map((c) => c.text);
  const text = texts.join('');
  const dropped = { count: capped.reduce((sum, c) => sum + c.dropped, 0) };
  if (!text) return { lines: [], missing: [], dropped: dropped.count };
  const missing: string[] = [];
  const clusters = clustersOf(text, texts, spans, settings, missing, dropped);
  const width: Width = (font, drawn) => (settings.widths(font, drawn) * settings.size) / font.face.unitsPerEm;
  const lines = breakLines(text, clusters, settings.maxWidth, width).map(([from, to]) => buildLine(clusters.slice(from, to), spans, settings.size, width));
  return { lines, missing, dropped: dropped.count };
}

function clustersOf(text: string, texts: string[], spans: StyledSpan[], settings: LayoutSettings, missing: string[], dropped: { count: number }): Cluster[] {
  const embedding = bidi.getEmbeddingLevels(text, settings.direction);
  const mirrored = bidi.getMirroredCharactersMap(text, embedding.levels);
  const spanEnds: number[] = [];
  for (const t of texts) spanEnds.push((spanEnds.at(-1) ?? 0) + t.length);
  const clusters: Cluster[] = [];
  let span = 0;
  // The font before, at each weight (a bold label's font must not run on into the words after it).
  const previousAt = new Map<FontChooser, PdfFont>();
  for (const { segment, index } of segmentsOf(graphemes, text)) {
    while (index >= spanEnds[span]!) span++;
    const chooser = spans[span]!.bold ? settings.fonts.bold : settings.fonts.regular;
    const previous = previousAt.get(chooser);
    // A cluster past the cap (an emoji sequence or jamo run without end) keeps its first code points.
    const logical = segment.length > CAPS.clusterCodePoints ? firstCodePoints(segment, CAPS.clusterCodePoints) : segment;
    if (logical !== segment) dropped.count += codePoints(segment) - CAPS.clusterCodePoints;
    let chars = '';
    for (let i = index; i < index + logical.length; i++) chars += mirrored.get(i) ?? text[i];
    let font = chooser.fontFor(chars, previous);
    let drawn: string;
    if (font) {
      drawn = drawable(font, chars);
    } else {
      missing.push(segment);
      font = chooser.fontFor(REPLACEMENT) ?? chooser.fontFor('?')!;
      drawn = font.face.hasGlyphForCodePoint(0xfffd) ? REPLACEMENT : '?';
    }
    previousAt.set(chooser, font);
    clusters.push({
      start: index,
      end: index + segment.length,
      logical,
      drawn,
      font,
      level: embedding.levels[index]!,
      span,
      space: /^\s+$/u.test(segment),
      breakBefore: false,
    });
  }
  return clusters;
}

/** A piece's advance width in its font's units. */
export type Widths = (font: PdfFont, drawn: string) => number;
/** In points, at the paragraph's size. */
type Width = (font: PdfFont, drawn: string) => number;

/** Widths that lay out each piece (a word, a character of Han) once for a whole document: speech repeats its words. */
export function createWidths(): Widths {
  const cache = new Map<PdfFont, Map<string, number>>();
  return (font, drawn) => {
    let byText = cache.get(font);
    if (!byText) cache.set(font, (byText = new Map()));
    let width = byText.get(drawn);
    if (width === undefined) byText.set(drawn, (width = font.face.layout(drawn).advanceWidth));
    return width;
  };
}

/**
 * Consecutive clusters of one font, level and span: what is laid out (shaped) as one piece. At a
 * right-to-left level each word and space is a piece of its own: a PDF reader (poppler) puts the
 * words of one right-to-left piece back in the wrong order when it copies the text.
 */
function runsOf(clusters: Cluster[]): Cluster[][] {
  const runs: Cluster[][] = [];
  for (const c of clusters) {
    const last = runs.at(-1)?.at(-1);
    if (last && last.font === c.font && last.level === c.level && last.span === c.span && !(c.level % 2 && last.space !== c.space)) runs.at(-1)!.push(c);
    else runs.push([c]);
  }
  return runs;
}

/**
 * The width of clusters: the sum of their pieces (runs, cut where a line may break), each
 * measured once. Shaping never joins across a break (a space, a word of Thai, a Han character),
 * so the sum is the width of the clusters laid out whole, less kerning against a space.
 */
function widthOf(clusters: Cluster[], width: Width): number {
  let sum = 0;
  for (const run of runsOf(clusters)) {
    let piece = '';
    for (const [i, c] of run.entries()) {
      if (c.breakBefore && i > 0) {
        sum += width(c.font, piece);
        piece = '';
      }
      piece += c.drawn;
    }
    sum += width(run[0]!.font, piece);
  }
  return sum;
}

/** Where lines may break, as cluster indices (a line may start there); `true`: it must. */
function breakOpportunities(text: string, clusters: Cluster[]): Map<number, boolean> {
  const clusterAt = new Map(clusters.map((c, i) => [c.start, i]));
  const breaks = new Map<number, boolean>();
  const breaker = new LineBreaker(text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    const i = bk.position === text.length ? clusters.length : clusterAt.get(bk.position);
    if (i !== undefined) breaks.set(i, bk.required);
  }
  if (NO_SPACES.test(text)) {
    for (const { index } of segmentsOf(words, text)) {
      const i = clusterAt.get(index);
      if (i && NO_SPACES.test(text[index - 1]!) && NO_SPACES.test(text[index]!) && !breaks.has(i)) breaks.set(i, false);
    }
  }
  for (const i of breaks.keys()) if (clusters[i]) clusters[i].breakBefore = true;
  return breaks;
}

/**
 * Greedy filling: [from, to) cluster ranges of each line, without the spaces that end it. A line
 * holds at most CAPS.lineClusters clusters, however narrow.
 */
function breakLines(text: string, clusters: Cluster[], maxWidth: number, measure: Width): Array<[number, number]> {
  const breaks = [...breakOpportunities(text, clusters)].sort(([a], [b]) => a - b);
  const lines: Array<[number, number]> = [];
  let from = 0;
  let contentEnd = 0;
  let width = 0;
  let pendingSpace = 0;
  let wordStart = 0;
  const emit = () => {
    lines.push([from, contentEnd]);
    width = pendingSpace = 0;
  };
  for (const [wordEnd, required] of breaks) {
    let spaceFrom = wordEnd;
    while (spaceFrom > wordStart && clusters[spaceFrom - 1]!.space) spaceFrom--;
    const word = clusters.slice(wordStart, spaceFrom);
    const wordWidth = widthOf(word, measure);
    if (contentEnd > from && (width + pendingSpace + wordWidth > maxWidth || spaceFrom - from > CAPS.lineClusters)) {
      emit();
      from = contentEnd = wordStart;
    }
    if (wordWidth > maxWidth || spaceFrom - wordStart > CAPS.lineClusters) {
      // Longer than a line by itself: broken between clusters.
      for (let i = wordStart; i < spaceFrom; i++) {
        const w = widthOf(clusters.slice(i, i + 1), measure);
        if (contentEnd > from && (width + w > maxWidth || i - from >= CAPS.lineClusters)) {
          emit();
          from = i;
        }
        width += w;
        contentEnd = i + 1;
      }
    } else if (spaceFrom > wordStart) {
      width += pendingSpace + wordWidth;
      contentEnd = spaceFrom;
    }
    pendingSpace = widthOf(clusters.slice(spaceFrom, wordEnd), measure);
    wordStart = wordEnd;
    if (required) {
      emit();
      from = contentEnd = wordEnd;
    }
  }
  if (contentEnd > from || !lines.length) lines.push([from, contentEnd]);
  return lines.filter(([a, b]) => b > a);
}

/** A line's runs in visual order (UAX #9, L2), placed left to right. */
function buildLine(clusters: Cluster[], spans: StyledSpan[], size: number, width: Width): LaidLine {
  const runs = runsOf(clusters).map((run) => {
    const { font, level, span } = run[0]!;
    // fontkit turns a run whose first letter is of a right-to-left script; where that is not the
    // run's direction (neutrals at a right-to-left level, Arabic-Indic digits at a left-to-right
    // one), the clusters are turned here first.
    const pieces = run.map((c) => c.drawn);
    const logical = pieces.join('');
    const drawn = fontkitTurns(logical) === (level % 2 === 1) ? logical : pieces.reverse().join('');
    return { text: drawn, font, color: spans[span]!.color, level, x: 0, width: widthOf(run, width) };
  });
  const levels = runs.map((r) => r.level);
  const odd = levels.filter((l) => l % 2);
  for (let level = Math.max(...levels); odd.length && level >= Math.min(...odd); level--) {
    for (let i = 0; i < runs.length; i++) {
      if (runs[i]!.level < level) continue;
      let j = i;
      while (j < runs.length && runs[j]!.level >= level) j++;
      runs.splice(i, j - i, ...runs.slice(i, j).reverse());
      i = j;
    }
  }
  let x = 0;
  for (const run of runs) {
    run.x = x;
    x += run.width;
  }
  const faces = [...new Set(runs.map((r) => r.font.face))];
  return {
    runs: runs.map(({ level: _level, ...run }) => run),
    width: x,
    ascent: Math.max(...faces.map((f) => (f.ascent * size) / f.unitsPerEm)),
    descent: Math.max(...faces.map((f) => (-f.descent * size) / f.unitsPerEm)),
    text: clusters.map((c) => c.logical).join(''),
    rightToLeft: clusters.some((c) => c.level % 2 === 1),
  };
}
