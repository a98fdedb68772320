// Forced alignment by recognition: the customer's known transcript is lined up word by word with
// what a speech engine heard, and each known word takes the time of the recognised word it
// matches. Pure: no I/O.
import type { EngineWord } from './types.js';

export interface AlignedWord {
  word: string;
  begin: number;
  end: number;
}
export interface Alignment {
  /** Every whitespace-separated token of the known text, original spelling, in order. */
  words: AlignedWord[];
  /** Known words that matched a recognised word exactly (after normalisation). */
  matched: number;
  /** Known words that could match: tokens with a letter or digit (a lone "—" cannot). */
  total: number;
}

export const MIN_MATCHED_RATIO = 0.5;

export function alignmentUsable(a: Alignment): boolean {
  return a.total > 0 && a.matched / a.total >= MIN_MATCHED_RATIO;
}

/**
 * The dynamic programme keeps one direction byte per cell. Up to this many cells it is the full
 * n×m table (≤ 40 MB); beyond, it is a band around the proportional diagonal holding about this
 * many cells: for 20k × 20k words the path may drift ±1000 words from it, plenty for a recording
 * of the text. A band was chosen over chunking because it needs no anchors found beforehand.
 */
const CELL_BUDGET = 40_000_000;

/** Lower case, diacritics removed (NFKD), punctuation and apostrophes dropped: "Don’t," → "dont". */
export function normalise(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** The words of an order's terms, normalised as words are compared ("Nguyễn Thị" → nguyen, thi). */
export function termWords(vocabulary: readonly string[]): ReadonlySet<string> {
  return new Set(vocabulary.flatMap((term) => term.split(/\s+/).map(normalise).filter(Boolean)));
}

/** Aligns the words of a known transcript to recognised words with timings. */
export function alignTranscript(knownText: string, recognised: EngineWord[]): Alignment {
  const tokens = knownText.split(/\s+/).filter(Boolean);
  const keys = tokens.map(normalise);
  const known = keys.flatMap((k, i) => (k ? [i] : []));
  const heard = recognised.flatMap((w, j) => (normalise(w.text) ? [j] : []));

  // Words become small integers so the inner loop compares numbers.
  const ids = new Map<string, number>();
  const id = (s: string) => ids.get(s) ?? (ids.set(s, ids.size), ids.size - 1);
  const a = Int32Array.from(known, (i) => id(keys[i]!));
  const b = Int32Array.from(heard, (j) => id(normalise(recognised[j]!.text)));
  const pairs = alignSequences(a, b);

  // anchor[t]: the recognised word token t matched exactly, or -1.
  const anchor = new Int32Array(tokens.length).fill(-1);
  let matched = 0;
  pairs.forEach((q, p) => {
    if (q >= 0 && a[p] === b[q]) {
      anchor[known[p]!] = heard[q]!;
      matched++;
    }
  });

  const begins = new Float64Array(tokens.length);
  const ends = new Float64Array(tokens.length);
  // (A loop, not Math.min(...spread): long recordings exceed the argument limit.)
  const firstStart = recognised.reduce((x, w) => Math.min(x, w.start), recognised[0]?.start ?? 0);
  const lastEnd = recognised.reduce((x, w) => Math.max(x, w.end), 0);
  for (let t = 0; t < tokens.length;) {
    if (anchor[t]! >= 0) {
      const w = recognised[anchor[t]!]!;
      begins[t] = w.start;
      ends[t] = w.end;
      t++;
      continue;
    }
    // A run of unmatched tokens shares the gap between its matched neighbours by length.
    let u = t;
    while (u < tokens.length && anchor[u]! < 0) u++;
    const before = t > 0 ? recognised[anchor[t - 1]!]! : undefined;
    const after = u < tokens.length ? recognised[anchor[u]!]! : undefined;
    const from = before ? before.end : Math.min(firstStart, after?.start ?? firstStart);
    const to = after ? after.start : Math.max(lastEnd, from);
    const gap = Math.max(0, to - from);
    const lengths = tokens.slice(t, u).map((s) => s.length);
    const sum = lengths.reduce((x, y) => x + y, 0);
    let done = 0;
    for (let k = t; k < u; k++) {
      begins[k] = from + (gap * done) / sum;
      done += lengths[k - t]!;
      ends[k] = from + (gap * done) / sum;
    }
    t = u;
  }

  // Milliseconds, monotonic and non-overlapping even when the engine's words overlap.
  const words: AlignedWord[] = [];
  let previousEnd = 0;
  tokens.forEach((word, t) => {
    const begin = Math.max(Math.round(begins[t]! * 1000), previousEnd);
    const end = Math.max(Math.round(ends[t]! * 1000), begin);
    previousEnd = end;
    words.push({ word, begin: begin / 1000, end: end / 1000 });
  });
  return { words, matched, total: known.length };
}

const DIAGONAL = 0; // a[i-1] with b[j-1]: match or substitution
const UP = 1; // a[i-1] left unaligned (not heard)
const LEFT = 2; // b[j-1] left unaligned (heard, not in the text)

/**
 * Global alignment by edit distance (match 0, substitution, insertion, deletion 1 each).
 * Returns, for each element of `a`, the index in `b` it is paired with, or -1.
 */
export function alignSequences(a: Int32Array, b: Int32Array): Int32Array {
  const n = a.length;
  const m = b.length;
  const result = new Int32Array(n).fill(-1);
  if (n === 0 || m === 0) return result;

  // Row i holds columns lo(i) .. lo(i)+width-1. The band is at least as wide as a row's slope,
  // so consecutive rows always connect.
  const half = n * m <= CELL_BUDGET ? m : Math.max(Math.floor((CELL_BUDGET / (n + 1) - 1) / 2), Math.ceil(m / n) + 1);
  const width = Math.min(m + 1, 2 * half + 1);
  const lo = (i: number) => Math.max(0, Math.min(Math.round((i * m) / n) - half, m + 1 - width));
  const directions = new Uint8Array((n + 1) * width);
  const INF = 1 << 29;
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let k = 0; k < width; k++) {
    previous[k] = k;
    directions[k] = LEFT;
  }
  for (let i = 1; i <= n; i++) {
    const l = lo(i);
    const pl = lo(i - 1);
    const ai = a[i - 1]!;
    for (let k = 0; k < width; k++) {
      const j = l + k;
      let best = INF;
      let direction = UP;
      const pk = j - pl; // column j in the previous row
      if (j > 0 && pk - 1 >= 0 && pk - 1 < width) {
        best = previous[pk - 1]! + (ai === b[j - 1] ? 0 : 1);
        direction = DIAGONAL;
      }
      if (pk >= 0 && pk < width && previous[pk]! + 1 < best) {
        best = previous[pk]! + 1;
        direction = UP;
      }
      if (k > 0 && current[k - 1]! + 1 < best) {
        best = current[k - 1]! + 1;
        direction = LEFT;
      }
      current[k] = best;
      directions[i * width + k] = direction;
    }
    [previous, current] = [current, previous];
  }

  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const direction = directions[i * width + (j - lo(i))];
    if (direction === DIAGONAL) result[--i] = --j;
    else if (direction === UP) i--;
    else j--;
  }
  return result;
}
