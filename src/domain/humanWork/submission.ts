// Checks before a worker submits: what the text lacks that the order asks for (timestamps, speaker
// labels, one paragraph per subtitle cue), in words for the worker. Pure: callers do the I/O.
import { importTextTranscript, TranscriptImportError, type Segment } from '../transcript.js';
import { clock } from './editorText.js';

export interface SubmissionRules {
  timestamping: string;
  numberOfSpeakers?: string;
  /** A subtitle file's translation: its number of cues, each translated as one paragraph. */
  cues?: number;
}

const INTERVALS: Record<string, number> = { every_10_seconds: 10, every_30_seconds: 30, every_2_minutes: 120 };
const TIMESTAMPING_WORDS: Record<string, string> = {
  every_10_seconds: 'every 10 seconds',
  every_30_seconds: 'every 30 seconds',
  every_2_minutes: 'every 2 minutes',
  change_of_speaker: 'at each change of speaker',
};
const SPEAKER_WORDS: Record<string, string> = { '1_or_2': '1 or 2 speakers', '3_or_more': '3 or more speakers' };
const words = (table: Record<string, string>, value: string) => table[value] ?? value.replace(/_/g, ' ');

// Anywhere in the text: workers also type marks inside paragraphs.
const MARK = /\[(\d{1,2}):(\d{2}):(\d{2})\]/g;

function markSeconds(text: string): number[] {
  return [...text.matchAll(MARK)].map(([, h, m, s]) => Number(h) * 3600 + Number(m) * 60 + Number(s)).sort((a, b) => a - b);
}

/** What the text lacks that the order asks for, in words for the worker; [] when it is ready. */
export function submissionProblems(text: string, rules: SubmissionRules): string[] {
  let segments: Segment[];
  try {
    segments = importTextTranscript(text).segments;
  } catch (error) {
    if (error instanceof TranscriptImportError) return ['The transcript is empty.'];
    throw error;
  }
  return [...timestampProblems(text, segments, rules.timestamping), ...speakerProblems(segments, rules.numberOfSpeakers), ...cueProblems(segments, rules.cues)];
}

function cueProblems(segments: Segment[], cues: number | undefined): string[] {
  if (cues === undefined || segments.length === cues) return [];
  return [
    `The subtitle file has ${cues} cue${cues === 1 ? '' : 's'} and the translation ${segments.length} paragraph${segments.length === 1 ? '' : 's'}: translate each cue as one paragraph, in order (the source beside shows them).`,
  ];
}

function timestampProblems(text: string, segments: Segment[], timestamping: string): string[] {
  if (!timestamping || timestamping === 'not_required') return [];
  const ordered = words(TIMESTAMPING_WORDS, timestamping);
  const problems: string[] = [];
  const marks = markSeconds(text);
  if (marks.length === 0) problems.push(`The order asks for timestamps ${ordered}; the transcript has no [hh:mm:ss] marks.`);
  if (timestamping === 'change_of_speaker') {
    const labelled = segments.filter((s) => s.speaker);
    const unmarked = labelled.filter((s) => s.start === undefined).length;
    if (unmarked > 0) {
      problems.push(
        `${unmarked} of ${labelled.length} paragraphs with a speaker label ${unmarked === 1 ? 'has' : 'have'} no [hh:mm:ss] mark (timestamps ${ordered} were ordered).`,
      );
    }
  }
  const interval = INTERVALS[timestamping];
  if (interval !== undefined) {
    const i = marks.findIndex((m, i) => i > 0 && m - marks[i - 1]! > 1.5 * interval);
    if (i > 0) problems.push(`No timestamp between ${clock(marks[i - 1]!)} and ${clock(marks[i]!)} (${ordered} was ordered).`);
  }
  return problems;
}

function speakerProblems(segments: Segment[], numberOfSpeakers: string | undefined): string[] {
  if (!numberOfSpeakers) return [];
  const ordered = words(SPEAKER_WORDS, numberOfSpeakers);
  const labels = new Set(segments.flatMap((s) => (s.speaker ? [s.speaker.toLowerCase()] : [])));
  if (labels.size === 0) return [`Speaker labels are missing (the order has ${ordered}).`];
  if (numberOfSpeakers === '3_or_more' && labels.size < 2) {
    return [`Only one speaker is labelled (${segments.find((s) => s.speaker)!.speaker}); the order has ${ordered}.`];
  }
  return [];
}
