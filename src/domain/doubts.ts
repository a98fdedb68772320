// Doubtful words of a machine draft: the words the speech engine was unsure of, which the editor
// marks for the worker, and whether people fix those more than the others. They are kept with the
// draft's paragraphs that hold them (the paragraph's text, and the doubtful words' token indices in
// it: whitespace-separated tokens, mark and speaker label included), so a part's draft, or a
// worker's text, finds its marks in every paragraph it still has unchanged. Pure.
import { splitWords, tokenDiff } from './humanWork/diff.js';
import { editorText } from './humanWork/editorText.js';
import type { Transcript } from './transcript.js';

/** A word the engine gave less than this confidence is doubtful (Whisper's probability, 0–1). */
export const DOUBTFUL_CONFIDENCE = 0.5;

/** A paragraph of the draft with doubtful words: its text, and their token indices in it. */
export interface DoubtfulParagraph {
  paragraph: string;
  tokens: number[];
}

/** The transcript as editor text, and its paragraphs that hold doubtful words. */
export function draftWithDoubts(t: Transcript): { text: string; doubts: DoubtfulParagraph[] } {
  const doubts: DoubtfulParagraph[] = [];
  const paragraphs = t.segments.map((segment) => {
    const paragraph = editorText({ segments: [segment] });
    const words = segment.words ?? [];
    // The words are the text's tokens, after the paragraph's mark and label; a segment whose text
    // was rewritten (another count) is left unmarked rather than marked wrongly.
    if (words.length === splitWords(segment.text).length) {
      const lead = splitWords(paragraph).length - words.length;
      const tokens = words.flatMap((w, i) => (w.confidence !== undefined && w.confidence < DOUBTFUL_CONFIDENCE ? [lead + i] : []));
      if (tokens.length) doubts.push({ paragraph, tokens });
    }
    return paragraph;
  });
  return { text: paragraphs.join('\n\n'), doubts };
}

/**
 * The doubtful words' token indices in `text` (a part's draft, or a worker's text): a paragraph the
 * draft had, unchanged, keeps its marks, in order; a paragraph the worker changed has none.
 */
export function doubtsIn(text: string, doubts: readonly DoubtfulParagraph[]): number[] {
  const found: number[] = [];
  let cursor = 0;
  let offset = 0;
  for (const p of text.split(/\n\s*\n/)) {
    const match = doubts.findIndex((d, i) => i >= cursor && d.paragraph === p.trim());
    if (match !== -1) {
      found.push(...doubts[match]!.tokens.map((t) => offset + t));
      cursor = match + 1;
    }
    offset += splitWords(p).length;
  }
  return found;
}

export interface ChangedShares {
  /** Of the draft's doubtful words, the share people changed or removed. */
  doubtful: number;
  /** Of its other words (marks and labels aside), the share people changed. */
  confident: number;
}

/**
 * Whether the marks point at the words people fix: the share of doubtful and of confident draft
 * words that the delivered text does not keep. Undefined without doubtful words, or for texts too
 * long to align word by word.
 */
export function changedShares(draft: string, delivered: string, doubtful: readonly number[]): ChangedShares | undefined {
  const diff = tokenDiff(draft, delivered);
  if (!doubtful.length || !diff) return undefined;
  const flagged = new Set(doubtful);
  const mark = /^\[\d{1,2}:\d{2}:\d{2}\]$/;
  const counts = { doubtful: [0, 0], confident: [0, 0] };
  let index = 0;
  for (const part of diff) {
    if (part.op === 'add') continue;
    const kind = flagged.has(index) ? 'doubtful' : 'confident';
    if (kind === 'doubtful' || !mark.test(part.text)) {
      counts[kind][1]!++;
      if (part.op === 'del') counts[kind][0]!++;
    }
    index++;
  }
  const share = ([changed, total]: number[]) => (total ? changed! / total : 0);
  return { doubtful: share(counts.doubtful), confident: share(counts.confident) };
}
