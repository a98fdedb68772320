// Long media split into parts, one task each: planning the spans, a draft's text for a part, and
// merging the parts' texts back into one. Pure: callers do the I/O.
import { importTextTranscript, type Segment } from '../transcript.js';
import { editorText, transcriptFromEditor } from './editorText.js';

export interface PartSpan {
  start: number;
  end: number;
}

/** Consecutive parts of `partSeconds`; a remainder under a quarter part is too short to be a task of its own. */
export function planParts(seconds: number, partSeconds: number): PartSpan[] {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`media length must be a finite number of seconds ≥ 0, not ${seconds}`);
  if (!(partSeconds > 0) || seconds <= partSeconds) return [{ start: 0, end: seconds }];
  const whole = Math.floor(seconds / partSeconds);
  const remainder = seconds - whole * partSeconds;
  const count = remainder >= partSeconds / 4 ? whole + 1 : whole;
  // Starts from the index, not by adding up, so float steps do not drift.
  return Array.from({ length: count }, (_, i) => ({
    start: i * partSeconds,
    end: i === count - 1 ? seconds : (i + 1) * partSeconds,
  }));
}

/** The paragraphs of a draft that start inside a part's span (a part's worker starts from these). */
export function textInSpan(text: string, span: PartSpan): string {
  if (text.trim() === '') return '';
  const inside = transcriptFromEditor(text).segments.filter((s) => s.start !== undefined && s.start >= span.start && s.start < span.end);
  return inside.length ? editorText({ segments: inside }) : '';
}

export interface PartText {
  start: number;
  end: number;
  text: string;
}

/**
 * The parts' texts as one editor text, in time order. A worker starting mid-conversation often
 * leaves the first paragraphs unlabelled: they take the speaker the previous part ended with.
 */
export function mergeParts(parts: readonly PartText[]): string {
  const merged: Segment[] = [];
  let lastSpeaker: string | undefined;
  for (const part of [...parts].sort((a, b) => a.start - b.start)) {
    if (!part.text.trim()) continue;
    const { segments } = importTextTranscript(part.text);
    // Anchors the part in time even when its worker typed no first mark.
    if (segments[0]!.start === undefined) segments[0]!.start = part.start;
    for (const segment of segments) {
      if (segment.speaker) break;
      if (lastSpeaker) segment.speaker = lastSpeaker;
    }
    lastSpeaker = segments.filter((s) => s.speaker).at(-1)?.speaker ?? lastSpeaker;
    merged.push(...segments);
  }
  return editorText({ segments: merged });
}
