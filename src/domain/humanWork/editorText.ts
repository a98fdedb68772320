// The editor's text form of a transcript: [hh:mm:ss] marks, speaker labels, paragraphs, both ways,
// and a translation put back on its source's subtitle cues. Pure: callers do the I/O.
import { importTextTranscript, type Segment, type Transcript } from '../transcript.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** hh:mm:ss in whole seconds (also in submission.ts's messages). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

export function formatMark(seconds: number): string {
  return `[${clock(seconds)}]`;
}

function paragraph(segment: Segment): string {
  const mark = segment.start !== undefined ? `${formatMark(segment.start)} ` : '';
  const speaker = segment.speaker ? `${segment.speaker}: ` : '';
  return `${mark}${speaker}${segment.text}`;
}

export function editorText(transcript: Transcript): string {
  return transcript.segments.map(paragraph).join('\n\n');
}

/** The editor's text as a transcript; a timed segment ends where the next timed one starts. */
export function transcriptFromEditor(text: string, mediaEnd?: number): Transcript {
  const { segments } = importTextTranscript(text);
  const timed = segments.filter((s) => s.start !== undefined);
  timed.forEach((segment, i) => {
    const end = timed[i + 1]?.start ?? mediaEnd;
    // Marks typed out of order would give a negative length: leave such an end unknown.
    if (end !== undefined && end >= segment.start!) segment.end = end;
  });
  return { segments };
}

/**
 * A subtitle file's translation as subtitles: the translated paragraphs on the source's cues, one
 * each, in order, at the cue's times (the editor's marks, in whole seconds, would lose the cue's
 * milliseconds and its end). A paragraph's label is the cue's voice when it names it; another
 * label was typed as part of the line (SRT has no voices) and stays in the text.
 */
export function onSourceCues(translation: Transcript, source: Transcript): Transcript {
  const paragraphs = translation.segments;
  return {
    segments: source.segments.map((cue, i) => {
      const paragraph = paragraphs[i];
      // Counts are checked at Submit and approval; a surplus (a file an operator supplied) joins the last cue.
      const extra = i === source.segments.length - 1 ? paragraphs.slice(i + 1) : [];
      const texts = [paragraph, ...extra]
        .filter((p) => p !== undefined)
        .map((p) => (p.speaker && p.speaker !== cue.speaker ? `${p.speaker}: ${p.text}` : p.text));
      return { start: cue.start, end: cue.end, ...(cue.speaker ? { speaker: cue.speaker } : {}), text: texts.join(' ') };
    }),
  };
}
