// Word times kept across a person's edits (as BBC's stt-align does): the edited words are diffed
// against the timed words they came from; a word left as it was keeps its times exactly, and a word
// typed or changed gets times between its kept neighbours (the span of the words it replaced, else
// the gap between them), until the aligner gives true ones. Pure: callers do the I/O.
import { importTextTranscript, type Segment, type Transcript, type Word } from '../transcript.js';

/** A word as the editor keeps it: its times, and the engine's confidence until a person touches it. */
export type TimedWord = Word;

/** Above this many cells of the middle's table (after the common start and end), the middle is taken as replaced. */
const MAX_MIDDLE_CELLS = 4_000_000;

/** Below this many seconds a word typed between two touching words widens into their halves. */
const MIN_WORD_SECONDS = 0.1;

/** Words compare as the same word case and surrounding punctuation aside (a capital or a comma added keeps the times). */
export const comparable = (word: string): string => word.toLocaleLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/**
 * Times for `after` (the words as they are now, in order) from `before` (the timed words they were
 * edited from). A word kept keeps its times (and its confidence while its text is unchanged); the
 * others get times interpolated in reading order, spread by their length.
 */
export function keepWordTimes(before: readonly TimedWord[], after: readonly string[]): TimedWord[] {
  return keepAndMark(before, after).words;
}

/** keepWordTimes, and for each word whether it was typed or changed (its times interpolated). */
function keepAndMark(before: readonly TimedWord[], after: readonly string[]): { words: TimedWord[]; typed: boolean[] } {
  const pairs = matchWords(before, after);
  const out: (TimedWord | undefined)[] = after.map((text, j) => {
    const i = pairs[j];
    if (i === undefined) return undefined;
    const kept = before[i]!;
    // The same word with other letters (a capital, a comma): its times, and no longer the engine's doubt.
    return kept.text === text ? { ...kept } : { text, start: kept.start, end: kept.end };
  });
  const typed = out.map((word) => !word);
  // Each run of new words: between the kept word before it and the one after it, over the span of
  // the words of `before` that stood there (replaced), else over the gap between the two.
  let j = 0;
  while (j < after.length) {
    if (out[j]) {
      j++;
      continue;
    }
    let k = j;
    while (k < after.length && !out[k]) k++;
    const prev = j > 0 ? pairs[j - 1] : undefined;
    const next = k < after.length ? pairs[k] : undefined;
    const from = prev === undefined ? 0 : prev + 1;
    const to = next === undefined ? before.length : next;
    const replaced = before.slice(from, to);
    const lower = prev !== undefined ? before[prev]!.end : (replaced[0]?.start ?? before[0]?.start ?? 0);
    const upper = next !== undefined ? before[next]!.start : (replaced.at(-1)?.end ?? before.at(-1)?.end ?? lower);
    let start = replaced.length ? Math.max(lower, replaced[0]!.start) : lower;
    let end = Math.max(start, replaced.length ? Math.min(Math.max(upper, start), replaced.at(-1)!.end) : upper);
    // Words typed where the neighbours touch, or past the first or last timed word: they share the
    // neighbours' halves rather than take no time.
    if (end - start < MIN_WORD_SECONDS * (k - j)) {
      if (prev !== undefined) start = Math.min(start, (before[prev]!.start + before[prev]!.end) / 2);
      if (next !== undefined) end = Math.max(end, (before[next]!.start + before[next]!.end) / 2);
    }
    spread(after.slice(j, k), start, end).forEach((word, n) => (out[j + n] = word));
    j = k;
  }
  return { words: out as TimedWord[], typed };
}

/** Words laid over [start, end] in order, each by its share of the letters. */
function spread(words: readonly string[], start: number, end: number): TimedWord[] {
  const lengths = words.map((w) => Math.max(1, [...w].length));
  const total = lengths.reduce((a, b) => a + b, 0);
  let at = start;
  return words.map((text, n) => {
    const length = ((end - start) * lengths[n]!) / total;
    const word = { text, start: round(at), end: round(n === words.length - 1 ? end : at + length) };
    at += length;
    return word;
  });
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * For each word of `after`, the index of the word of `before` it is (undefined: typed or changed):
 * the common start and end, then the longest common subsequence of the middle, by `comparable`.
 */
function matchWords(before: readonly TimedWord[], after: readonly string[]): (number | undefined)[] {
  const a = before.map((w) => comparable(w.text));
  const b = after.map(comparable);
  const pairs: (number | undefined)[] = new Array(b.length).fill(undefined);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) pairs[head] = head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
    pairs[b.length - 1 - tail] = a.length - 1 - tail;
    tail++;
  }
  const [m, n] = [a.length - head - tail, b.length - head - tail];
  if (m === 0 || n === 0 || m * n > MAX_MIDDLE_CELLS) return pairs;
  // lcs[i * width + j]: the common subsequence length of the middles from i and j.
  const width = n + 1;
  const lcs = new Uint32Array((m + 1) * width);
  for (let i = m - 1; i >= 0; i--) {
    for (let j = n - 1; j >= 0; j--) {
      lcs[i * width + j] = a[head + i] === b[head + j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < m && j < n) {
    if (a[head + i] === b[head + j]) {
      pairs[head + j] = head + i;
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** A paragraph of timed words and its speaker (a label, as the editor's text names it). */
export interface TimedParagraph {
  speaker?: string;
  words: TimedWord[];
}

/** A paragraph as the person left it: its speaker and its text. */
export interface EditedParagraph {
  speaker?: string;
  text: string;
}

const wordsOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/**
 * The paragraphs as edited, each word timed from `before`: the words are kept across paragraphs, so
 * splitting or joining paragraphs, or moving a speaker's turn, keeps every word's times.
 */
export function keepParagraphTimes(before: readonly TimedParagraph[], after: readonly EditedParagraph[]): TimedParagraph[] {
  return keepParagraphsAndMark(before, after).paragraphs;
}

function keepParagraphsAndMark(before: readonly TimedParagraph[], after: readonly EditedParagraph[]): { paragraphs: TimedParagraph[]; typed: boolean[] } {
  const texts = after.map((p) => wordsOf(p.text));
  const { words: timed, typed } = keepAndMark(
    before.flatMap((p) => p.words),
    texts.flat(),
  );
  let at = 0;
  const paragraphs = after.map((p, n) => {
    const words = timed.slice(at, (at += texts[n]!.length));
    return { ...(p.speaker ? { speaker: p.speaker } : {}), words };
  });
  return { paragraphs, typed };
}

/**
 * A draft's paragraphs with their words timed: the engine's word times where a segment has one per
 * word of its text, else the segment's time spread over its words; undefined when a segment has no
 * times at all (a document's text), which leaves nothing to keep.
 */
export function timedParagraphsOf(t: Transcript): TimedParagraph[] | undefined {
  const paragraphs: TimedParagraph[] = [];
  for (const segment of t.segments) {
    const texts = wordsOf(segment.text);
    const words =
      segment.words?.length === texts.length
        ? segment.words.map((w, i) => ({ ...w, text: texts[i]! }))
        : segment.start !== undefined && segment.end !== undefined
          ? spread(texts, segment.start, Math.max(segment.start, segment.end))
          : undefined;
    if (!words) return undefined;
    paragraphs.push({ ...(segment.speaker ? { speaker: segment.speaker } : {}), words });
  }
  return paragraphs;
}

/**
 * The editor's text as a transcript whose every word is timed from the draft's timed paragraphs (kept
 * words exactly, typed ones interpolated); each paragraph spans its words.
 */
export function timedTranscript(draft: readonly TimedParagraph[], text: string): Transcript {
  return timedAndTyped(draft, text).transcript;
}

/** timedTranscript, and for each word of the text in reading order whether people typed or changed it. */
export function timedAndTyped(draft: readonly TimedParagraph[], text: string): { transcript: Transcript; typed: boolean[] } {
  const { segments } = importTextTranscript(text);
  const { paragraphs, typed } = keepParagraphsAndMark(draft, segments);
  return { transcript: { segments: segments.map((segment, n) => spanningWords(segment, paragraphs[n]!.words)) }, typed };
}

const spanningWords = (segment: Segment, words: TimedWord[]): Segment =>
  words.length ? { ...segment, start: words[0]!.start, end: words.at(-1)!.end, words } : segment;

/**
 * The typed words timed by the aligner: `aligned` holds every word of the transcript in reading
 * order, as the aligner placed them on the audio. A kept word keeps the draft's times; a typed one
 * takes the aligner's where they fall between its neighbours (else its interpolated times stay).
 * undefined when the aligner's words are not the transcript's.
 */
export function withAlignedTypedWords(
  timed: { transcript: Transcript; typed: readonly boolean[] },
  aligned: readonly { begin: number; end: number }[],
): Transcript | undefined {
  const words = timed.transcript.segments.flatMap((s) => s.words ?? []);
  if (words.length !== aligned.length || words.length !== timed.typed.length) return undefined;
  const out = words.map((w) => ({ ...w }));
  out.forEach((word, j) => {
    if (!timed.typed[j]) return;
    const lower = j > 0 ? out[j - 1]!.end : 0;
    const nextKept = timed.typed.indexOf(false, j + 1);
    const upper = nextKept < 0 ? Infinity : out[nextKept]!.start;
    const { begin, end } = aligned[j]!;
    if (begin < lower - 0.05 || end > upper + 0.05 || end < begin) return;
    word.start = round(Math.max(lower, begin));
    word.end = round(Math.max(word.start, Math.min(upper, end)));
  });
  let at = 0;
  return { segments: timed.transcript.segments.map((s) => (s.words?.length ? spanningWords(s, out.slice(at, (at += s.words.length))) : s)) };
}
