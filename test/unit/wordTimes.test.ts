// Word times kept across edits (src/domain/humanWork/wordTimes.ts): kept words keep their times
// exactly; typed and changed words are interpolated between their kept neighbours.
import { describe, expect, it } from 'vitest';
import { keepParagraphTimes, keepWordTimes, timedAndTyped, withAlignedTypedWords, type TimedWord } from '../../src/domain/humanWork/wordTimes.js';

/** "the quick brown fox jumps over the lazy dog", a word every 0.5 s, 0.4 s long. */
const words = (...texts: string[]): TimedWord[] => texts.map((text, i) => ({ text, start: i * 0.5, end: i * 0.5 + 0.4, confidence: 0.9 - i * 0.05 }));
const SENTENCE = words('the', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'lazy', 'dog');
const split = (text: string) => text.split(' ');

describe('keeping word times across edits', () => {
  it('keeps every time and confidence of a text left as it was', () => {
    expect(keepWordTimes(SENTENCE, split('the quick brown fox jumps over the lazy dog'))).toEqual(SENTENCE);
  });

  it('places an inserted word in the gap between its neighbours, the others untouched', () => {
    const out = keepWordTimes(SENTENCE, split('the quick brown fox really jumps over the lazy dog'));
    expect(out.filter((w) => w.text !== 'really')).toEqual(SENTENCE);
    const inserted = out[4]!;
    expect(inserted.text).toBe('really');
    expect(inserted.start).toBeGreaterThanOrEqual(SENTENCE[3]!.end);
    expect(inserted.end).toBeLessThanOrEqual(SENTENCE[4]!.start);
    expect(inserted).not.toHaveProperty('confidence');
  });

  it('drops a deleted word and keeps the rest exactly', () => {
    const out = keepWordTimes(SENTENCE, split('the quick fox jumps over the lazy dog'));
    expect(out).toEqual(SENTENCE.filter((w) => w.text !== 'brown'));
  });

  it('gives a replacement the span of the words it replaced, and no confidence', () => {
    const out = keepWordTimes(SENTENCE, split('the quick red fax jumps over the lazy dog'));
    expect(out[2]).toMatchObject({ text: 'red', start: SENTENCE[2]!.start });
    expect(out[3]).toMatchObject({ text: 'fax', end: SENTENCE[3]!.end });
    expect(out[2]!.end).toBeLessThanOrEqual(out[3]!.start);
    expect(out[2]).not.toHaveProperty('confidence');
    expect([out[0], out[1], ...out.slice(4)]).toEqual([SENTENCE[0], SENTENCE[1], ...SENTENCE.slice(4)]);
  });

  it('keeps the times of a word whose case or punctuation changed, which is no longer doubted', () => {
    const out = keepWordTimes(SENTENCE, split('The quick brown fox jumps over the lazy dog.'));
    expect(out[0]).toEqual({ text: 'The', start: 0, end: 0.4 });
    expect(out[8]).toEqual({ text: 'dog.', start: SENTENCE[8]!.start, end: SENTENCE[8]!.end });
  });

  it('times words typed before the first and after the last within the media spoken', () => {
    const out = keepWordTimes(SENTENCE, split('so the quick brown fox jumps over the lazy dog again'));
    expect(out[0]!.start).toBe(0);
    expect(out.at(-1)!.end).toBeGreaterThanOrEqual(SENTENCE.at(-1)!.end);
    expect(out.slice(1, -1)).toEqual(SENTENCE);
    // Each takes time: the half of the word beside it (a word of no length is never heard).
    expect(out[0]).toEqual({ text: 'so', start: 0, end: 0.2 });
    expect(out.at(-1)).toEqual({ text: 'again', start: 4.2, end: 4.4 });
  });

  it('widens a word typed between touching words into their halves rather than no time', () => {
    const touching: TimedWord[] = [
      { text: 'a', start: 0, end: 1 },
      { text: 'b', start: 1, end: 2 },
    ];
    const [, typed] = keepWordTimes(touching, ['a', 'new', 'b']);
    expect(typed).toEqual({ text: 'new', start: 0.5, end: 1.5 });
  });

  it('keeps the times of the words of a two-hour document around one edit, quickly', () => {
    const long = Array.from({ length: 18_000 }, (_, i) => ({ text: `w${i}`, start: i * 0.4, end: i * 0.4 + 0.3 }));
    const edited = long.map((w) => w.text);
    edited.splice(9_000, 1, 'changed', 'words');
    const out = keepWordTimes(long, edited);
    expect(out).toHaveLength(18_001);
    expect(out.slice(0, 9_000)).toEqual(long.slice(0, 9_000));
    expect(out.slice(9_002)).toEqual(long.slice(9_001));
    expect(out[9_000]!.start).toBe(long[9_000]!.start);
  });
});

describe('keeping word times across paragraphs', () => {
  const before = [
    { speaker: 'Speaker 1', words: SENTENCE.slice(0, 4) },
    { speaker: 'Speaker 2', words: SENTENCE.slice(4) },
  ];

  it('keeps every time when a paragraph is split', () => {
    const out = keepParagraphTimes(before, [
      { speaker: 'Speaker 1', text: 'the quick' },
      { speaker: 'Speaker 1', text: 'brown fox' },
      { speaker: 'Speaker 2', text: 'jumps over the lazy dog' },
    ]);
    expect(out.map((p) => p.words.length)).toEqual([2, 2, 5]);
    expect(out.flatMap((p) => p.words)).toEqual(SENTENCE);
  });

  it('keeps every time when two paragraphs are merged, under the speaker chosen', () => {
    const out = keepParagraphTimes(before, [{ speaker: 'Ada', text: 'the quick brown fox jumps over the lazy dog' }]);
    expect(out).toEqual([{ speaker: 'Ada', words: SENTENCE }]);
  });
});

describe('the words people typed, timed by the aligner at approval', () => {
  const draft = [
    { speaker: 'Speaker 1', words: SENTENCE.slice(0, 4) },
    { speaker: 'Speaker 2', words: SENTENCE.slice(4) },
  ];
  const text = 'Speaker 1: the quick red fox\n\nSpeaker 2: jumps over the very lazy dog';
  /** The aligner's answer: every word of the text, here a little off the draft's times for the kept ones. */
  const aligned = (times: Array<[number, number]>) => times.map(([begin, end]) => ({ begin, end }));

  it('marks which words were typed or changed', () => {
    const { typed } = timedAndTyped(draft, text);
    expect(typed).toEqual([false, false, true, false, false, false, false, true, false, false]);
  });

  it("gives the typed words the aligner's times and keeps the draft's for the others", () => {
    const timed = timedAndTyped(draft, text);
    const out = withAlignedTypedWords(
      timed,
      aligned([
        [0.01, 0.41],
        [0.52, 0.9],
        [1.05, 1.3],
        [1.5, 1.9],
        [2.0, 2.4],
        [2.5, 2.9],
        [3.0, 3.4],
        [3.42, 3.55],
        [3.5, 3.9],
        [4.0, 4.4],
      ]),
    )!;
    const words = out.segments.flatMap((s) => s.words!);
    expect(words.map((w) => w.text).join(' ')).toBe('the quick red fox jumps over the very lazy dog');
    // Kept: the draft's own times, not the aligner's.
    expect(words.filter((w) => w.text !== 'red' && w.text !== 'very')).toEqual(SENTENCE.filter((w) => w.text !== 'brown'));
    // Typed: the aligner's, within their kept neighbours (very is cut where lazy starts).
    expect(words[2]).toMatchObject({ text: 'red', start: 1.05, end: 1.3 });
    expect(words[7]).toMatchObject({ text: 'very', start: 3.42, end: 3.5 });
    expect(out.segments.map((s) => [s.start, s.end])).toEqual([
      [0, 1.9],
      [2, 4.4],
    ]);
  });

  it('keeps the interpolated times of a typed word the aligner placed beyond its neighbours', () => {
    const timed = timedAndTyped(draft, text);
    const far = aligned(Array.from({ length: 10 }, (_, i) => [i * 0.5, i * 0.5 + 0.4]));
    far[2] = { begin: 3.0, end: 3.3 };
    const words = withAlignedTypedWords(timed, far)!.segments.flatMap((s) => s.words!);
    expect(words[2]).toEqual(timed.transcript.segments[0]!.words![2]);
  });

  it("refuses an aligner's answer of other words", () => {
    expect(withAlignedTypedWords(timedAndTyped(draft, text), aligned([[0, 1]]))).toBeUndefined();
  });
});
