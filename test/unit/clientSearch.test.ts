// The search of a transcript beside its media and the word heard there (src/web/client/pure/transcriptSearch.ts),
// as the account area's script applies them to a paragraph's text nodes.
import { describe, expect, it } from 'vitest';
import { heardIndex, markPieces, matchesIn, matchesSaid, phrasePattern } from '../../src/web/client/pure/transcriptSearch.js';

/** The marked text of each piece, cut from the text nodes as they were before any split. */
const marked = (nodes: string[], query: string) => {
  const ranges = matchesIn(nodes.join(''), phrasePattern(query));
  return markPieces(
    ranges,
    nodes.map((n) => n.length),
  ).map((p) => nodes[p.node]!.slice(p.from, p.to));
};

describe('the search box', () => {
  it('matches a phrase across any run of spaces and line breaks, case aside', () => {
    const text = 'A brave\n  New world, a BRAVE new one.';
    expect(matchesIn(text, phrasePattern('brave new'))).toEqual([
      [2, 13],
      [23, 32],
    ]);
  });

  it('takes the query literally: its signs are no pattern', () => {
    expect(matchesIn('C++ and Cxx, a.b and axb', phrasePattern('C++'))).toEqual([[0, 3]]);
    expect(matchesIn('a.b and axb', phrasePattern('a.b'))).toEqual([[0, 3]]);
    expect(matchesIn('(1) or 1', phrasePattern('(1)'))).toEqual([[0, 3]]);
  });

  it('matches letters beyond ASCII without regard to case', () => {
    expect(matchesIn('Ÿes, ÉCOLE and école', phrasePattern('école'))).toEqual([
      [5, 10],
      [15, 20],
    ]);
  });

  it('finds the same matches when the pattern is used again', () => {
    const pattern = phrasePattern('one');
    expect(matchesIn('one two one', pattern)).toEqual(matchesIn('one two one', pattern));
    expect(matchesIn('one', pattern)).toEqual([[0, 3]]);
  });

  it('marks a match over several words in each of their text nodes, from the last match back', () => {
    // The words are spans: their text nodes, and the spaces between them, are separate nodes.
    const nodes = ['Hello', ' ', 'brave', ' ', 'new', ' ', 'world', ', brave ', 'new'];
    expect(
      markPieces(
        matchesIn(nodes.join(''), phrasePattern('brave new')),
        nodes.map((n) => n.length),
      ),
    ).toEqual([
      { node: 8, from: 0, to: 3 },
      { node: 7, from: 2, to: 8 },
      { node: 4, from: 0, to: 3 },
      { node: 3, from: 0, to: 1 },
      { node: 2, from: 0, to: 5 },
    ]);
    expect(marked(nodes, 'brave new')).toEqual(['new', 'brave ', 'new', ' ', 'brave']);
    expect(marked(nodes, 'llo')).toEqual(['llo']);
    expect(marked(nodes, 'nothing')).toEqual([]);
  });

  it('says how many matched', () => {
    expect(matchesSaid(0)).toBe('No match');
    expect(matchesSaid(1)).toBe('1 match');
    expect(matchesSaid(12)).toBe('12 matches');
  });
});

describe('the word heard beside the media', () => {
  const times = [
    { start: 0.5, end: 1 },
    { start: 1, end: 1.5 },
    { start: 3, end: 3.2 },
  ];

  it('is the last word started, until a quarter second after its end', () => {
    expect(heardIndex(times, 0.2)).toBe(-1);
    expect(heardIndex(times, 1)).toBe(1);
    expect(heardIndex(times, 1.75)).toBe(1);
    expect(heardIndex(times, 1.8)).toBe(-1);
    expect(heardIndex(times, 3.1)).toBe(2);
    expect(heardIndex([], 1)).toBe(-1);
  });
});
