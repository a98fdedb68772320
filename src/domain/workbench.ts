// The worker's side of a task: skills, splitting media into parts, the editor's text form,
// checks before submission, diffs for review, and pay. Pure: callers do the I/O.
import { importTextTranscript, TranscriptImportError, type Segment, type Transcript } from './transcript.js';
import { editDistance } from './textDistance.js';
import type { TaskStage } from '../contracts/tasks.js';

// ---- Skills -------------------------------------------------------------------------------

export const SKILL_KINDS = ['transcription', 'review', 'translation', 'ocr'] as const;
export type SkillKind = (typeof SKILL_KINDS)[number];

export class SkillError extends Error {}

const LANGUAGE = '[a-z][a-z_]*';
const SKILL = new RegExp(`^(?:(?:transcription|review|ocr):${LANGUAGE}|translation:${LANGUAGE}>${LANGUAGE})$`);

/** A comma-separated skill list, normalised (trimmed, lowercased, deduplicated in order). */
export function parseSkills(list: string): string[] {
  const items = list
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const item of items) {
    if (!SKILL.test(item)) {
      throw new SkillError(`skill '${item}' is not kind:language (kinds: ${SKILL_KINDS.join(', ')}; translation takes source>target)`);
    }
  }
  if (items.length === 0) throw new SkillError('at least one skill is needed');
  return [...new Set(items)];
}

export function skillCovers(skills: readonly string[], needed: string): boolean {
  const want = needed.trim().toLowerCase();
  return skills.some((s) => s.trim().toLowerCase() === want);
}

// ---- Who may check whose work ------------------------------------------------------------

/** A task of the order someone submitted, as far as the rule below needs it. */
export interface DoneTask {
  stage: TaskStage;
  submittedBy: number | null;
}

/**
 * Nobody checks their own work: for each stage, the stages of the same order whose submitters may
 * not take it. A review is closed to whoever did the work (a part, a fix); the second review also to
 * the first reviewer; a quality check to whoever submitted any of the order's tasks. A reviewer who
 * sent work back may review the fix. db/tasks.ts's queue applies the same table in SQL.
 */
export const BARRED_BY: Readonly<Record<TaskStage, readonly TaskStage[]>> = {
  work: [],
  review: ['work'],
  second_review: ['work', 'review'],
  qc: ['work', 'review', 'second_review', 'qc'],
};

export function checksOwnWork(stage: TaskStage, done: readonly DoneTask[], workerId: number): boolean {
  return done.some((t) => t.submittedBy === workerId && BARRED_BY[stage].includes(t.stage));
}

// ---- Parts --------------------------------------------------------------------------------

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

// ---- Editor text --------------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, '0');

function clock(seconds: number): string {
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

// ---- Merging parts ------------------------------------------------------------------------

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

// ---- Submission checks --------------------------------------------------------------------

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

// ---- Diffs --------------------------------------------------------------------------------

export type DiffPart = { op: 'same' | 'add' | 'del'; text: string };

const MAX_DIFF_CELLS = 4_000_000;
/** A text's whitespace-separated tokens (words, marks and speaker labels alike). */
export const splitWords = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** Word-level diff (longest common subsequence); very long texts get a whole replacement instead. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const parts = tokenDiff(before, after);
  if (parts) return joinParts(parts);
  const whole: DiffPart[] = [
    { op: 'del', text: splitWords(before).join(' ') },
    { op: 'add', text: splitWords(after).join(' ') },
  ];
  return whole.filter((part) => part.text);
}

/** The diff token by token (each part one token of `before` or `after`); undefined past the size bound. */
export function tokenDiff(before: string, after: string): DiffPart[] | undefined {
  const a = splitWords(before);
  const b = splitWords(after);
  if (a.length * b.length > MAX_DIFF_CELLS) return undefined;
  // lcs[i * width + j]: the common subsequence length of a[i..] and b[j..]. It is at most
  // min(a, b) ≤ 2000 under the cell bound, so 16 bits hold it.
  const width = b.length + 1;
  const lcs = new Uint16Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ op: 'same', text: a[i]! });
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) parts.push({ op: 'del', text: a[i++]! });
    else parts.push({ op: 'add', text: b[j++]! });
  }
  return parts;
}

function joinParts(parts: DiffPart[]): DiffPart[] {
  const joined: DiffPart[] = [];
  for (const part of parts) {
    const last = joined.at(-1);
    if (last?.op === part.op) last.text += ` ${part.text}`;
    else joined.push({ ...part });
  }
  return joined;
}

const comparableWords = (text: string) =>
  splitWords(text.toLowerCase())
    .map((w) => w.replace(/[\p{P}\p{S}]/gu, ''))
    .filter(Boolean);

/** Levenshtein distance over words, ignoring case and punctuation. */
export function wordEditDistance(a: string, b: string): number {
  return editDistance(comparableWords(a), comparableWords(b));
}

// ---- Pay ----------------------------------------------------------------------------------

/** Cents per audio minute, or per 1000 words. */
export interface PayRate {
  unit: 'minute' | 'word';
  cents: number;
}

export function taskPayCents(rate: PayRate, work: { seconds: number; words: number }): number {
  const raw = rate.unit === 'minute' ? (rate.cents * work.seconds) / 60 : (rate.cents * work.words) / 1000;
  return Number.isFinite(raw) && raw > 0 ? Math.round(raw) : 0;
}

/** The paragraphs of a draft that start inside a part's span (a part's worker starts from these). */
export function textInSpan(text: string, span: PartSpan): string {
  if (text.trim() === '') return '';
  const inside = transcriptFromEditor(text).segments.filter((s) => s.start !== undefined && s.start >= span.start && s.start < span.end);
  return inside.length ? editorText({ segments: inside }) : '';
}

/** Beyond this many word pairs the edit distance is estimated from the words' counts (a lower bound). */
const MAX_EDIT_CELLS = 25_000_000;

/**
 * How much of a draft the people changed: the word edit distance between the draft and the final
 * text (case and punctuation aside) ÷ the final text's words. 0: kept as drafted.
 */
export function wordEditRate(draft: string, final: string): number {
  const [a, b] = [comparableWords(draft), comparableWords(final)];
  if (b.length === 0) return a.length === 0 ? 0 : 1;
  if (a.length * b.length <= MAX_EDIT_CELLS) return wordEditDistance(draft, final) / b.length;
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of b) {
    const left = counts.get(w) ?? 0;
    if (left > 0) {
      common++;
      counts.set(w, left - 1);
    }
  }
  return (Math.max(a.length, b.length) - common) / b.length;
}
