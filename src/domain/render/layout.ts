// The reading layout shared by the document renderers (text, html, docx, pdf, rtf/doc):
// paragraphs with optional speaker labels and timestamp marks placed by the order's
// `timestamping` (spec enumeration).
import type { Segment, Transcript } from '../transcript.js';

/** The language (a BCP 47 tag, '' when unknown) and writing direction a rendered text states. */
export interface TextScript {
  language: string;
  direction: 'ltr' | 'rtl';
}

/** A text of unknown language, left to right: what renderers assume when told nothing. */
export const LEFT_TO_RIGHT: TextScript = { language: '', direction: 'ltr' };

export type Timestamping = 'not_required' | 'every_10_seconds' | 'every_30_seconds' | 'every_2_minutes' | 'change_of_speaker';

export type Run = { mark: string } | { text: string };
export interface Paragraph {
  speaker?: string;
  runs: Run[];
}

const INTERVALS: Partial<Record<Timestamping, number>> = { every_10_seconds: 10, every_30_seconds: 30, every_2_minutes: 120 };

export function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Pieces of a segment that can carry a mark before them: its words when timed, else itself. */
function pieces(s: Segment): Array<{ text: string; start?: number }> {
  return s.words?.length ? s.words.map((w) => ({ text: w.text, start: w.start })) : [{ text: s.text, start: s.start }];
}

/**
 * Lays out a transcript. Interval modes put a mark `[hh:mm:ss]` (the interval boundary) before
 * the first word, or untimed segment, starting at or after each boundary; `change_of_speaker`
 * puts the segment's start time before each change of speaker. Text without times gets no marks.
 */
export function layoutTranscript(t: Transcript, timestamping: Timestamping): Paragraph[] {
  const interval = INTERVALS[timestamping];
  let nextBoundary = 0;
  let previousSpeaker: string | undefined;
  return t.segments.map((segment, index) => {
    const runs: Run[] = [];
    if (timestamping === 'change_of_speaker' && segment.start !== undefined && (index === 0 || segment.speaker !== previousSpeaker)) {
      runs.push({ mark: clock(segment.start) });
    }
    previousSpeaker = segment.speaker;
    const text: string[] = [];
    for (const piece of pieces(segment)) {
      if (interval && piece.start !== undefined && piece.start >= nextBoundary) {
        if (text.length) runs.push({ text: text.splice(0).join(' ') });
        const boundary = Math.floor(piece.start / interval) * interval;
        runs.push({ mark: clock(boundary) });
        nextBoundary = boundary + interval;
      }
      text.push(piece.text);
    }
    if (text.length) runs.push({ text: text.join(' ') });
    return { ...(segment.speaker ? { speaker: segment.speaker } : {}), runs };
  });
}

/** Marks at the very start of a paragraph are written before the speaker label. */
export function leadingMarks(p: Paragraph): { lead: string[]; rest: Run[] } {
  const lead: string[] = [];
  let i = 0;
  for (; i < p.runs.length; i++) {
    const run = p.runs[i]!;
    if (!('mark' in run)) break;
    lead.push(run.mark);
  }
  return { lead, rest: p.runs.slice(i) };
}

/** A paragraph as one line of plain text: `[00:00:10] Speaker: words [00:00:20] words …`. */
export function paragraphText(p: Paragraph): string {
  const { lead, rest } = leadingMarks(p);
  return [...lead.map((m) => `[${m}]`), ...(p.speaker ? [`${p.speaker}:`] : []), ...rest.map((r) => ('mark' in r ? `[${r.mark}]` : r.text))].join(' ');
}
