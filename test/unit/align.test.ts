import { describe, expect, it } from 'vitest';
import { alignTranscript, alignmentUsable, MIN_MATCHED_RATIO } from '../../src/engines/align.js';
import type { EngineWord } from '../../src/engines/types.js';

/** Recognised words from [text, start, end] triples. */
const heard = (...words: Array<[string, number, number]>): EngineWord[] => words.map(([text, start, end]) => ({ text, start, end }));

function expectWellFormed(words: Array<{ begin: number; end: number }>) {
  let previousEnd = 0;
  for (const w of words) {
    expect(w.begin).toBeGreaterThanOrEqual(previousEnd);
    expect(w.end).toBeGreaterThanOrEqual(w.begin);
    expect(Math.round(w.begin * 1000) / 1000).toBe(w.begin);
    expect(Math.round(w.end * 1000) / 1000).toBe(w.end);
    previousEnd = w.end;
  }
}

describe('alignTranscript', () => {
  it('gives every word its recognised time when all match, keeping the known spelling', () => {
    const a = alignTranscript('Hello,  world.\nBye!', heard(['hello', 0.1, 0.5], ['world', 0.6, 1], ['bye', 1.5, 1.9]));
    expect(a).toEqual({
      words: [
        { word: 'Hello,', begin: 0.1, end: 0.5 },
        { word: 'world.', begin: 0.6, end: 1 },
        { word: 'Bye!', begin: 1.5, end: 1.9 },
      ],
      matched: 3,
      total: 3,
    });
    expect(alignmentUsable(a)).toBe(true);
  });

  it('skips words the engine heard that are not in the text (insertions)', () => {
    const a = alignTranscript('I think so', heard(['I', 0, 0.2], ['um', 0.3, 0.6], ['think', 0.7, 1], ['so', 1.1, 1.3]));
    expect(a.words).toEqual([
      { word: 'I', begin: 0, end: 0.2 },
      { word: 'think', begin: 0.7, end: 1 },
      { word: 'so', begin: 1.1, end: 1.3 },
    ]);
    expect(a.matched).toBe(3);
  });

  it('spreads words the engine missed over the gap between their neighbours, by length (deletions)', () => {
    const a = alignTranscript('the big yellow dog', heard(['the', 0, 0.5], ['dog', 2.5, 3]));
    // "big" (3 letters) and "yellow" (6) share 0.5 .. 2.5.
    expect(a.words).toEqual([
      { word: 'the', begin: 0, end: 0.5 },
      { word: 'big', begin: 0.5, end: 1.167 },
      { word: 'yellow', begin: 1.167, end: 2.5 },
      { word: 'dog', begin: 2.5, end: 3 },
    ]);
    expect(a).toMatchObject({ matched: 2, total: 4 });
  });

  it('interpolates a misrecognised word (substitution) and does not count it as matched', () => {
    const a = alignTranscript('the cat sat down', heard(['the', 0, 0.4], ['hat', 0.5, 0.9], ['sat', 1, 1.4], ['down', 1.5, 2]));
    expect(a.words[1]).toEqual({ word: 'cat', begin: 0.4, end: 1 });
    expect(a.words[2]).toEqual({ word: 'sat', begin: 1, end: 1.4 });
    expect(a).toMatchObject({ matched: 3, total: 4 });
  });

  it('compares without case, punctuation or apostrophes', () => {
    const a = alignTranscript('"DON\'T stop," she said.', heard(['don’t', 1, 1.2], ['Stop!', 1.3, 1.6], ['She', 2, 2.2], ['said', 2.3, 2.6]));
    expect(a.matched).toBe(4);
    expect(a.words.map((w) => w.word)).toEqual(['"DON\'T', 'stop,"', 'she', 'said.']);
    expect(a.words[0]).toEqual({ word: '"DON\'T', begin: 1, end: 1.2 });
  });

  it('compares without diacritics (NFKD)', () => {
    const a = alignTranscript('Café naïve Zoë', heard(['cafe', 0, 0.4], ['naive', 0.5, 0.9], ['zoe', 1, 1.3]));
    expect(a).toMatchObject({ matched: 3, total: 3 });
    expect(a.words[2]).toEqual({ word: 'Zoë', begin: 1, end: 1.3 });
  });

  it('is not usable when nothing matches, and still gives well-formed times within the speech', () => {
    const a = alignTranscript('alpha beta gamma', heard(['one', 2, 2.5], ['two', 3, 3.5], ['three', 4, 5]));
    expect(a).toMatchObject({ matched: 0, total: 3 });
    expect(alignmentUsable(a)).toBe(false);
    expectWellFormed(a.words);
    expect(a.words[0]!.begin).toBe(2);
    expect(a.words.at(-1)!.end).toBe(5);
  });

  it('keeps times monotonic and non-overlapping when the engine words overlap or go backwards', () => {
    const a = alignTranscript(
      'one two three four five',
      heard(['one', 0, 1.2], ['two', 1, 1.5], ['three', 1.4, 1.45], ['four', 1.3, 2.123456], ['five', 2.1, 2.5]),
    );
    expect(a.matched).toBe(5);
    expectWellFormed(a.words);
    expect(a.words.slice(1, 4)).toEqual([
      { word: 'two', begin: 1.2, end: 1.5 },
      { word: 'three', begin: 1.5, end: 1.5 },
      { word: 'four', begin: 1.5, end: 2.123 },
    ]);
    expect(a.words[4]!.begin).toBe(2.123);
  });

  it('handles an empty recognised list: every word at 0, nothing matched', () => {
    const a = alignTranscript('Some words here.', []);
    expect(a.words).toEqual([
      { word: 'Some', begin: 0, end: 0 },
      { word: 'words', begin: 0, end: 0 },
      { word: 'here.', begin: 0, end: 0 },
    ]);
    expect(a).toMatchObject({ matched: 0, total: 3 });
    expect(alignmentUsable(a)).toBe(false);
  });

  it('handles an empty text', () => {
    const a = alignTranscript('  \n ', heard(['hello', 0, 1]));
    expect(a).toEqual({ words: [], matched: 0, total: 0 });
    expect(alignmentUsable(a)).toBe(false);
  });

  it('keeps punctuation-only tokens in the output but out of the count', () => {
    const a = alignTranscript('yes — no', heard(['yes', 0, 0.5], ['no', 1, 1.5]));
    expect(a).toEqual({
      words: [
        { word: 'yes', begin: 0, end: 0.5 },
        { word: '—', begin: 0.5, end: 1 },
        { word: 'no', begin: 1, end: 1.5 },
      ],
      matched: 2,
      total: 2,
    });
  });

  it('puts unmatched leading and trailing words at the edges of the speech', () => {
    const a = alignTranscript('Well, hello there friend', heard(['hello', 1, 1.5], ['there', 1.6, 2], ['uh', 2.5, 3]));
    expectWellFormed(a.words);
    expect(a.words[0]).toEqual({ word: 'Well,', begin: 1, end: 1 });
    expect(a.words[3]).toEqual({ word: 'friend', begin: 2, end: 3 });
  });

  it('uses the threshold of MIN_MATCHED_RATIO', () => {
    expect(MIN_MATCHED_RATIO).toBe(0.5);
    expect(alignmentUsable({ words: [], matched: 1, total: 2 })).toBe(true);
    expect(alignmentUsable({ words: [], matched: 1, total: 3 })).toBe(false);
    expect(alignmentUsable({ words: [], matched: 0, total: 0 })).toBe(false);
  });

  it('aligns long texts beyond the full-table budget (banded) with every spoken word found', () => {
    const n = 8000; // 8000 × ~8000 cells is over the 4e7 budget
    const text = Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const recognised: EngineWord[] = [];
    for (let i = 0; i < n; i++) {
      if (i % 100 === 7) continue; // missed by the engine
      if (i % 250 === 3) recognised.push({ text: 'uh', start: i, end: i + 0.1 }); // heard, not written
      recognised.push({ text: `w${i}`, start: i + 0.2, end: i + 0.8 });
    }
    const started = Date.now();
    const a = alignTranscript(text, recognised);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(a).toMatchObject({ matched: n - n / 100, total: n });
    expect(a.words[5000]).toEqual({ word: 'w5000', begin: 5000.2, end: 5000.8 });
    expect(a.words[5007]).toEqual({ word: 'w5007', begin: 5006.8, end: 5008.2 });
    expectWellFormed(a.words);
  });
});
