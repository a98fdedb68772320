// The fonts a PDF is drawn with, as the renderer sees them: a stack per weight, tried font by font
// for each character (src/documents/fonts.ts finds them on disk and opens them lazily).
import type { Font } from 'fontkit';

export interface PdfFont {
  /** Unique within a library: the file and, in a collection, the face. */
  name: string;
  /** The parsed font, for coverage and widths. */
  face: Font;
  /** What pdfkit embeds (a subset of it): the file's bytes and, in a collection (.ttc), the face's PostScript name. */
  data: Buffer;
  postscriptName?: string;
}

/** Fonts in the order they are tried; `at(i)` opens the i-th on first use (undefined past the last). */
export interface FontStack {
  at(index: number): PdfFont | undefined;
}

export interface FontLibrary {
  /** The stack for a text in `language` (a BCP 47 tag, '' when unknown: it picks Han glyph forms). */
  stack(language: string, weight: 'regular' | 'bold'): FontStack;
}

/** Code points no font needs to draw (joiners, variation selectors, bidi controls). */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;

/** Whether `font` has a glyph for every code point of `cluster` that needs one. */
export function covers(font: PdfFont, cluster: string): boolean {
  for (const ch of cluster) if (!IGNORABLE.test(ch) && !font.face.hasGlyphForCodePoint(ch.codePointAt(0)!)) return false;
  return true;
}

/** `cluster` as `font` draws it: without the ignorable code points it lacks (they would be drawn as boxes). */
export function drawable(font: PdfFont, cluster: string): string {
  let out = '';
  for (const ch of cluster) if (!IGNORABLE.test(ch) || font.face.hasGlyphForCodePoint(ch.codePointAt(0)!)) out += ch;
  return out;
}

/**
 * Chooses fonts for grapheme clusters: the font before keeps going while it covers (so spaces and
 * punctuation stay in their text's font), else the first of the stack that covers, else none.
 */
export class FontChooser {
  private readonly firstCovering = new Map<string, PdfFont | null>();

  constructor(private readonly stack: FontStack) {}

  fontFor(cluster: string, previous?: PdfFont): PdfFont | undefined {
    if (previous && covers(previous, cluster)) return previous;
    let found = this.firstCovering.get(cluster);
    if (found === undefined) {
      found = null;
      for (let i = 0, font = this.stack.at(0); font; font = this.stack.at(++i)) {
        if (covers(font, cluster)) {
          found = font;
          break;
        }
      }
      this.firstCovering.set(cluster, found);
    }
    return found ?? undefined;
  }
}
