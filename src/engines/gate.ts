// The gate an AI transcript (or the engine's translation) passes before it is delivered as
// finished: machine output a person would be ashamed of goes to a person instead (docs/decisions/transcript-gate.md,
// The transcript gate). Each check uses a figure the engine gave, and is left out when it gave none
// (a user's engine without word probabilities); the text's own repetition is always measured.
import { deflateRawSync } from 'node:zlib';
import { normalise, termWords } from './align.js';
import type { EngineTranscript } from './types.js';

/** Thresholds, measured on whisper-base (docs/engines.md, The transcript gate). */
export const GATE = {
  /** Whisper's own rule: a text compressing more than this repeats itself. */
  maxCompressionRatio: 2.4,
  /** Of the text's 4-word sequences, the share that repeat an earlier one; honest speech stays far below. */
  maxRepeatedShare: 0.25,
  /** Whisper's own rule for a decode gone wrong, as the segments' average weighted by their length. */
  minAvgLogprob: -1.0,
  /** The words' mean probability: honest English 0.81–0.93, noise-drowned English and bad translations 0.09–0.55. */
  minWordConfidence: 0.6,
  /** The words' spoken time over the speech the voice detector found. */
  minCoverage: 0.5,
  /** Texts shorter than this many words are too short for the repetition figures to mean anything. */
  minWordsForRepetition: 12,
  /**
   * Words this sure may repeat: people say things again (a chorus, a litany, a test recording), a
   * model looping is unsure of its words (every repeating bad output measured was under 0.5).
   */
  confidentRepetition: 0.75,
} as const;

export interface GateFigures {
  words: number;
  compressionRatio: number;
  repeatedShare: number;
  avgLogprob?: number;
  wordConfidence?: number;
  coverage?: number;
}

export interface GateVerdict {
  passes: boolean;
  figures: GateFigures;
  /** Why it fails, in words for the order's note; empty when it passes. */
  failures: string[];
}

/** The text's UTF-8 length over its zlib-compressed length, as Whisper measures it. */
export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length === 0 ? 0 : bytes.length / deflateRawSync(bytes).length;
}

/** Of the text's 4-word sequences, the share that repeat one seen before. */
export function repeatedShare(words: readonly string[]): number {
  const grams = words.length - 3;
  if (grams <= 0) return 0;
  const seen = new Set<string>();
  let repeats = 0;
  for (let i = 0; i < grams; i++) {
    const gram = words
      .slice(i, i + 4)
      .join(' ')
      .toLowerCase();
    if (seen.has(gram)) repeats++;
    else seen.add(gram);
  }
  return repeats / grams;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The figures of `t` and whether they pass the gate. */
export function checkTranscript(t: EngineTranscript, vocabulary: readonly string[] = []): GateVerdict {
  const text = t.segments.map((s) => s.text.trim()).join(' ');
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  const engineWords = t.segments.flatMap((s) => s.words);
  // A word spelled as one of the order's terms is the term the engine was prompted with: sure, however
  // unusual the word was to it.
  const terms = termWords(vocabulary);
  const probabilities = engineWords.flatMap((w) => (w.probability === undefined ? [] : [terms.has(normalise(w.text)) ? 1 : w.probability]));
  const scored = t.segments.filter((s) => s.avgLogprob !== undefined);
  const scoredSeconds = scored.reduce((sum, s) => sum + Math.max(s.end - s.start, 0.01), 0);
  const spoken = engineWords.reduce((sum, w) => sum + Math.max(w.end - w.start, 0), 0);

  const figures: GateFigures = {
    words: words.length,
    compressionRatio: round(compressionRatio(text)),
    repeatedShare: round(repeatedShare(words)),
    ...(scored.length ? { avgLogprob: round(scored.reduce((sum, s) => sum + s.avgLogprob! * Math.max(s.end - s.start, 0.01), 0) / scoredSeconds) } : {}),
    ...(probabilities.length ? { wordConfidence: round(probabilities.reduce((a, b) => a + b, 0) / probabilities.length) } : {}),
    ...(t.speechDuration && engineWords.length ? { coverage: round(Math.min(spoken / t.speechDuration, 1)) } : {}),
  };
  const failures: string[] = [];
  const sure = figures.wordConfidence !== undefined && figures.wordConfidence >= GATE.confidentRepetition;
  const repetitive = figures.words >= GATE.minWordsForRepetition && !sure;
  if (repetitive && figures.compressionRatio > GATE.maxCompressionRatio)
    failures.push(`the text compresses ${figures.compressionRatio} times (over ${GATE.maxCompressionRatio}: it repeats itself)`);
  if (repetitive && figures.repeatedShare > GATE.maxRepeatedShare) {
    failures.push(`${Math.round(figures.repeatedShare * 100)}% of its 4-word sequences repeat (over ${GATE.maxRepeatedShare * 100}%)`);
  }
  if (figures.avgLogprob !== undefined && figures.avgLogprob < GATE.minAvgLogprob)
    failures.push(`its average log-probability is ${figures.avgLogprob} (under ${GATE.minAvgLogprob})`);
  if (figures.wordConfidence !== undefined && figures.wordConfidence < GATE.minWordConfidence) {
    failures.push(`its words' mean confidence is ${figures.wordConfidence} (under ${GATE.minWordConfidence})`);
  }
  if (figures.coverage !== undefined && figures.coverage < GATE.minCoverage) {
    failures.push(`its words cover ${Math.round(figures.coverage * 100)}% of the speech heard (under ${GATE.minCoverage * 100}%)`);
  }
  return { passes: failures.length === 0, figures, failures };
}

/** The figures in words, for the order's note. */
export function describeFigures(f: GateFigures): string {
  return [
    `${f.words} words`,
    ...(f.wordConfidence !== undefined ? [`mean confidence ${f.wordConfidence}`] : []),
    ...(f.avgLogprob !== undefined ? [`average log-probability ${f.avgLogprob}`] : []),
    `compression ratio ${f.compressionRatio}`,
    `${Math.round(f.repeatedShare * 100)}% repeated 4-word sequences`,
    ...(f.coverage !== undefined ? [`${Math.round(f.coverage * 100)}% of the speech covered`] : []),
  ].join(', ');
}
