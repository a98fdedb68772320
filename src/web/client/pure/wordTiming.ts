// The transcript editor's words and their times, without the editor: the paragraphs and words of a
// text, a changed stretch's words timed again between their kept neighbours (the service keeps the
// same times across saves: src/domain/humanWork/wordTimes.ts), the word heard at a time and the next
// doubtful word. No DOM and no CodeMirror: wordMarks.ts keeps these on the editor's marks.
import { DOUBTFUL_CONFIDENCE } from '../../../domain/doubts.js';
import { comparable } from '../../../domain/humanWork/wordTimes.js';
import { lastStartedBy } from './lastStarted.js';

/** A paragraph's lead: an optional [hh:mm:ss] mark, then an optional `Label: ` (as the service reads it). */
export const LEAD = /^(\[\d{1,2}:\d{2}:\d{2}\]\s+)?(?:([\p{L}\p{N}][\p{L}\p{N} .'-]{0,40}):\s+)?/u;

/**
 * A word's times (seconds), the engine's confidence, its text when marked, and, for a word typed or
 * changed, the timed words it replaced (`origins`): typing on into the next word and a space then
 * finds them again, so a word merged for a moment gets its own times back.
 */
export interface TimedWord {
  start: number;
  end: number;
  confidence?: number | undefined;
  text?: string | undefined;
  origins?: readonly TimedWord[] | undefined;
}

/** A word (a run of non-space characters) of a text and where it stands. */
export interface Token {
  from: number;
  to: number;
  text: string;
}

export interface Paragraph {
  from: number;
  to: number;
  /** Where its words start, after the lead. */
  wordsFrom: number;
  /** Its speaker's label, when it has one. */
  label: string | undefined;
}

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/** A word the engine doubted (as src/domain/doubts.ts marks the draft's). */
export const isDoubtful = (confidence: number | undefined): boolean => confidence !== undefined && confidence < DOUBTFUL_CONFIDENCE;

/** The paragraphs of `text`: where each starts, and where its words start after the lead. */
export function paragraphsOf(text: string): Paragraph[] {
  const starts = [0];
  for (const m of text.matchAll(/\n[ \t]*\n\s*/g)) starts.push(m.index + m[0].length);
  return starts.map((from, i) => {
    const nextStart = starts[i + 1];
    const to = nextStart !== undefined ? Math.max(from, text.lastIndexOf('\n', nextStart - 1)) : text.length;
    const lead = LEAD.exec(text.slice(from, to));
    return { from, to, wordsFrom: from + (lead ? lead[0].length : 0), label: lead?.[2] };
  });
}

/** The words (non-space runs) of text[from, to), with their offsets. */
export function tokensIn(text: string, from: number, to: number): Token[] {
  return [...text.slice(from, to).matchAll(/\S+/g)].map((m) => ({ from: from + m.index, to: from + m.index + m[0].length, text: m[0] }));
}

/** A paragraph's time mark (`[00:01:02]`), which is no word. */
export const isTimeMark = (word: string): boolean => /^\[\d{1,2}:\d{2}:\d{2}\]$/.test(word);

/** The stretch text[from, to) widened to whole words. */
export function widenToWords(text: string, from: number, to: number): [number, number] {
  let a = from;
  while (a > 0 && !/\s/.test(text.charAt(a - 1))) a--;
  let b = to;
  while (b < text.length && !/\s/.test(text.charAt(b))) b++;
  return [a, b];
}

/**
 * The words now in a changed stretch, timed. A word still there (the same word, in order, among
 * the timed words the stretch replaced) keeps its times; a run of new words takes the span of the
 * words it replaced, else the gap between its kept neighbours (`prev` and `next` outside the stretch).
 */
export function retimeWords(
  words: readonly Token[],
  replaced: readonly TimedWord[],
  prev: TimedWord | null,
  next: TimedWord | null,
): { token: Token; word: TimedWord }[] {
  // Kept: each word whose text is a replaced word's (case and surrounding punctuation aside, as the
  // service compares them), in order: the replaced word's index, else -1.
  const kept: number[] = [];
  let r = 0;
  for (const w of words) {
    const at = replaced.findIndex((old, i) => i >= r && old.text !== undefined && comparable(old.text) === comparable(w.text));
    kept.push(at);
    if (at >= 0) r = at + 1;
  }
  const keptWord = (i: number): TimedWord | undefined => replaced[kept[i] ?? -1];
  const timed: { token: Token; word: TimedWord }[] = [];
  for (let i = 0; i < words.length;) {
    const token = words[i]!;
    const old = keptWord(i);
    if (old) {
      timed.push({ token, word: { start: old.start, end: old.end, confidence: token.text === old.text ? old.confidence : undefined, text: token.text } });
      i++;
      continue;
    }
    // A run of new words: between the word kept before it (a run starts after a kept word) and the one after it.
    let j = i;
    while (j < words.length && !keptWord(j)) j++;
    const before = i > 0 ? (keptWord(i - 1) ?? null) : prev;
    const after = j < words.length ? (keptWord(j) ?? null) : next;
    const between = replaced.slice(i > 0 ? kept[i - 1]! + 1 : 0, j < words.length ? kept[j] : replaced.length);
    const run = words.slice(i, j);
    spreadRun(run, before, after, between).forEach((word, n) => timed.push({ token: run[n]!, word }));
    i = j;
  }
  return timed;
}

/** New words laid over the span of the words they replaced, else the gap between their neighbours, each by its share of the letters. */
export function spreadRun(words: readonly Token[], prev: TimedWord | null, next: TimedWord | null, replaced: readonly TimedWord[]): TimedWord[] {
  let lower = prev ? prev.end : 0;
  let upper = next ? next.start : lower;
  if (replaced.length) {
    lower = Math.max(lower, Math.min(...replaced.map((w) => w.start)));
    upper = Math.min(Math.max(upper, lower), Math.max(...replaced.map((w) => w.end)));
  }
  // Touching neighbours, or typed past the first or last timed word: into the neighbours' halves.
  if (upper - lower < 0.1 * words.length) {
    if (prev) lower = Math.min(lower, (prev.start + prev.end) / 2);
    if (next) upper = Math.max(upper, (next.start + next.end) / 2);
  }
  upper = Math.max(upper, lower);
  const letters = words.map((w) => Math.max(1, [...w.text].length));
  const total = letters.reduce((x, y) => x + y, 0);
  let at = lower;
  return words.map((w, i) => {
    const length = ((upper - lower) * letters[i]!) / total;
    const word = { start: round(at), end: round(i === words.length - 1 ? upper : at + length), text: w.text, origins: replaced };
    at += length;
    return word;
  });
}

/** The editor's word heard at `t`: the last started, while `t` is within it or a quarter second after (a word lasts at least 50 ms). */
export function heardWord<W extends TimedWord>(words: readonly W[], t: number): W | null {
  const word = words[lastStartedBy(words, t, (w) => w.start)];
  return word && t < Math.max(word.end, word.start + 0.05) + 0.25 ? word : null;
}

/** The next doubtful word at or after `pos` (else the first), its number among them and how many there are. */
export function nextDoubtful<W extends TimedWord & { from: number }>(words: readonly W[], pos: number): { word: W; number: number; count: number } | null {
  const doubtful = words.filter((w) => isDoubtful(w.confidence));
  const word = doubtful.find((w) => w.from >= pos) ?? doubtful[0];
  return word ? { word, number: doubtful.indexOf(word) + 1, count: doubtful.length } : null;
}
