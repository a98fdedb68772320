// A finished transcript beside its media (the order page, a share link's page), without the page:
// the search box's phrase as a pattern, its matches in a paragraph's text, the pieces of each match
// in the paragraph's text nodes (a match over two words is marked in each), what the page says of
// the count, and the word heard at a time. No DOM: account.ts applies them.
import { lastStartedBy } from './lastStarted.js';

const escapedForPattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The query as a pattern: its words literally, each space of it any run of spaces, case ignored. */
export const phrasePattern = (query: string): RegExp => new RegExp(query.split(/\s+/).map(escapedForPattern).join('\\s+'), 'giu');

/** Every match of `pattern` (global) in `text`: [from, to) each, in order. */
export function matchesIn(text: string, pattern: RegExp): [number, number][] {
  const ranges: [number, number][] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) ranges.push([m.index, m.index + m[0].length]);
  return ranges;
}

/** A piece of a match inside one text node: the node's number and [from, to) within it. */
export interface MarkPiece {
  node: number;
  from: number;
  to: number;
}

/**
 * The pieces of `ranges` (offsets in the paragraph's text) in text nodes of `lengths`, from the
 * last match back and each match's last node first: splitting a node there keeps its start, so
 * the offsets of the pieces still to mark stay true.
 */
export function markPieces(ranges: readonly [number, number][], lengths: readonly number[]): MarkPiece[] {
  const starts: number[] = [];
  let at = 0;
  for (const length of lengths) {
    starts.push(at);
    at += length;
  }
  const pieces: MarkPiece[] = [];
  for (const [rangeFrom, rangeTo] of [...ranges].reverse()) {
    for (let node = lengths.length - 1; node >= 0; node--) {
      const nodeAt = starts[node]!;
      const from = Math.max(rangeFrom, nodeAt);
      const to = Math.min(rangeTo, nodeAt + lengths[node]!);
      if (from < to) pieces.push({ node, from: from - nodeAt, to: to - nodeAt });
    }
  }
  return pieces;
}

/** What the page says of the matches found. */
export const matchesSaid = (count: number): string => (count ? `${count}${count === 1 ? ' match' : ' matches'}` : 'No match');

/** The transcript's word heard at `t`: the last started by `t`, while `t` is within it or a quarter second after; else -1. */
export function heardIndex(times: readonly { start: number; end: number }[], t: number): number {
  const found = lastStartedBy(times, t, (w) => w.start);
  const word = times[found];
  return word && t <= word.end + 0.25 ? found : -1;
}
