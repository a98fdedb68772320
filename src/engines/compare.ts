// The automatic check of a supplied transcript (proofreading): how far it is from what a speech
// engine heard in the same audio. Pure: no I/O. The words are lined up as the forced alignment
// lines them up (align.ts: edit distance, a band around the diagonal for long texts).
import { alignSequences, normalise, termWords } from './align.js';
import type { EngineWord } from './types.js';

export interface TranscriptComparison {
  /** Word error rate of the supplied words against the engine's (substitutions, deletions, insertions ÷ the engine's words). */
  wer: number;
  /** The share of the engine's speech time whose words the supplied transcript has, exactly. */
  coverage: number;
  /** The engine's words (letters or digits), the reference's size. */
  heardWords: number;
}

/** The check's thresholds: a supplied transcript fails above this WER or below this coverage. */
export const TRANSCRIPT_CHECK = { maxWer: 0.5, minCoverage: 0.5 } as const;

export function compareTranscripts(suppliedText: string, heard: readonly EngineWord[], vocabulary: readonly string[] = []): TranscriptComparison {
  const supplied = suppliedText.split(/\s+/).map(normalise).filter(Boolean);
  // A word of the order's terms, spelled as listed, is right where the engine heard another word.
  const terms = termWords(vocabulary);
  const reference = heard.filter((w) => normalise(w.text));
  const ids = new Map<string, number>();
  const id = (s: string) => ids.get(s) ?? (ids.set(s, ids.size), ids.size - 1);
  const a = Int32Array.from(supplied, id);
  const b = Int32Array.from(reference, (w) => id(normalise(w.text)));
  if (b.length === 0) return { wer: supplied.length ? 1 : 0, coverage: supplied.length ? 0 : 1, heardWords: 0 };
  const pairs = alignSequences(a, b);
  let paired = 0;
  let substitutions = 0;
  const matched = new Uint8Array(b.length);
  pairs.forEach((q, p) => {
    if (q < 0) return;
    paired++;
    if (a[p] === b[q] || terms.has(supplied[p]!)) matched[q] = 1;
    else substitutions++;
  });
  const insertions = a.length - paired;
  const deletions = b.length - paired;
  const span = (w: EngineWord) => Math.max(0, w.end - w.start);
  const total = reference.reduce((s, w) => s + span(w), 0);
  const covered = reference.reduce((s, w, q) => s + (matched[q] ? span(w) : 0), 0);
  return {
    wer: (substitutions + deletions + insertions) / b.length,
    coverage: total > 0 ? covered / total : matched.reduce((s, x) => s + x, 0) / b.length,
    heardWords: b.length,
  };
}

export function transcriptCheckPasses(c: TranscriptComparison): boolean {
  return c.wer <= TRANSCRIPT_CHECK.maxWer && c.coverage >= TRANSCRIPT_CHECK.minCoverage;
}
