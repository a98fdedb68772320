// From what a speech engine returns to the project's transcript model (src/domain/transcript.ts).
import type { Segment, Transcript } from '../domain/transcript.js';
import type { EngineTranscript } from './types.js';

/** Segments with their times; word timings kept where the engine gave them. */
export function engineTranscriptToModel(t: EngineTranscript): Transcript {
  const segments: Segment[] = [];
  for (const s of t.segments) {
    const text = s.text.trim();
    if (!text) continue;
    const words = s.words
      .filter((w) => w.text.trim() !== '')
      .map((w) => ({ text: w.text.trim(), start: w.start, end: w.end, ...(w.probability !== undefined ? { confidence: w.probability } : {}) }));
    // The model leaves `words` out when none are known (timedWords() needs every segment's words).
    segments.push({ text, start: s.start, end: s.end, ...(words.length ? { words } : {}) });
  }
  return { segments };
}

/** Nothing was said: no segment has a letter or a digit (music notes, "...", nothing at all). */
export function isSilent(t: EngineTranscript): boolean {
  return !t.segments.some((s) => /[\p{L}\p{N}]/u.test(s.text));
}
