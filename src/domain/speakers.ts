// Speaker turns (from a diarizer) laid on a transcript's timed words: who said each word.
import type { Segment, Transcript, Word } from './transcript.js';

/** A stretch of the media one speaker holds; `speaker` is the diarizer's own label. */
export interface SpeakerTurn {
  speaker: string;
  start: number;
  end: number;
}

/** The turn holding `at`, else the nearest one (words at a turn's edge, pauses between turns). */
function speakerAt(turns: readonly SpeakerTurn[], at: number): string {
  let best = turns[0]!;
  let bestDistance = Infinity;
  for (const turn of turns) {
    const distance = at < turn.start ? turn.start - at : at > turn.end ? at - turn.end : 0;
    if (distance < bestDistance) [best, bestDistance] = [turn, distance];
    if (distance === 0) break;
  }
  return best.speaker;
}

const midpoint = (w: { start: number; end: number }) => (w.start + w.end) / 2;

/** A segment's words grouped into runs of one speaker each. */
function splitBySpeaker(segment: Segment, turns: readonly SpeakerTurn[]): Array<{ speaker: string; segment: Segment }> {
  const words = segment.words;
  if (!words?.length) {
    const at = segment.start !== undefined ? midpoint({ start: segment.start, end: segment.end ?? segment.start }) : undefined;
    return [{ speaker: at === undefined ? turns[0]!.speaker : speakerAt(turns, at), segment }];
  }
  const runs: Array<{ speaker: string; words: Word[] }> = [];
  for (const word of words) {
    const speaker = speakerAt(turns, midpoint(word));
    if (runs.at(-1)?.speaker === speaker) runs.at(-1)!.words.push(word);
    else runs.push({ speaker, words: [word] });
  }
  if (runs.length === 1) return [{ speaker: runs[0]!.speaker, segment }];
  return runs.map((run) => ({
    speaker: run.speaker,
    segment: { text: run.words.map((w) => w.text).join(' '), start: run.words[0]!.start, end: run.words.at(-1)!.end, words: run.words },
  }));
}

/**
 * The transcript with a speaker on every segment, a segment split where the speaker changes
 * within it. Speakers are named "Speaker 1", "Speaker 2", … in the order they first speak.
 * Without turns the transcript is returned as it is.
 */
export function withSpeakerTurns(transcript: Transcript, turns: readonly SpeakerTurn[]): Transcript {
  if (turns.length === 0) return transcript;
  const names = new Map<string, string>();
  const nameOf = (label: string) => {
    if (!names.has(label)) names.set(label, `Speaker ${names.size + 1}`);
    return names.get(label)!;
  };
  const segments = transcript.segments.flatMap((s) => splitBySpeaker(s, turns)).map(({ speaker, segment }) => ({ ...segment, speaker: nameOf(speaker) }));
  return { segments };
}

/** How many speakers the turns hold. */
export const speakerCount = (turns: readonly SpeakerTurn[]): number => new Set(turns.map((t) => t.speaker)).size;
