// Diffs for review, word by word, and how much people changed a draft (word edit distance and
// rate, case and punctuation aside). Pure: callers do the I/O.
import { editDistance } from '../textDistance.js';

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
