// The automatic check of a supplied transcript (src/engines/compare.ts): WER and coverage against
// what the engine heard, and the verdict at the documented thresholds.
import { describe, expect, it } from 'vitest';
import { compareTranscripts, transcriptCheckPasses, TRANSCRIPT_CHECK } from '../../src/engines/compare.js';

const heard = 'Welcome to the show. Today we talk about whales.'.split(' ').map((text, i) => ({ text, start: i * 0.5, end: i * 0.5 + 0.4 }));

describe('compareTranscripts', () => {
  it('a faithful transcript: WER 0, all the speech covered, punctuation and case aside', () => {
    const c = compareTranscripts('Speaker 1: welcome to the show!\n\ntoday, we talk about whales', heard);
    // "Speaker 1:" are two inserted words: 2 of 9.
    expect(c.wer).toBeCloseTo(2 / 9);
    expect(c.coverage).toBe(1);
    expect(transcriptCheckPasses(c)).toBe(true);
  });

  it("a word of the order's terms, spelled as listed, is right where the engine heard another word", () => {
    const names = 'Welcome to the show. Today Siobhan talks about Zyphrex.'.split(' ').map((text, i) => ({ text, start: i * 0.5, end: i * 0.5 + 0.4 }));
    const misheard = names.map((w) => ({ ...w, text: w.text.replace('Siobhan', 'Chevonne').replace('Zyphrex', 'life-wrecks.') }));
    const supplied = 'Welcome to the show. Today Siobhan talks about Zyphrex.';
    expect(compareTranscripts(supplied, misheard).wer).toBeCloseTo(2 / 9);
    const withTerms = compareTranscripts(supplied, misheard, ['Siobhan Okonkwo', 'Zyphrex']);
    expect(withTerms).toMatchObject({ wer: 0, coverage: 1 });
    // Only as listed: another spelling is still a substitution.
    expect(compareTranscripts('Welcome to the show. Today Shivon talks about Zyphrex.', misheard, ['Siobhan', 'Zyphrex']).wer).toBeCloseTo(1 / 9);
  });

  it('a few words wrong: counted as substitutions; their time is not covered', () => {
    const c = compareTranscripts('Welcome to the shoe. Today we walk about whales.', heard);
    expect(c.wer).toBeCloseTo(2 / 9);
    expect(c.coverage).toBeCloseTo(7 / 9);
    expect(transcriptCheckPasses(c)).toBe(true);
  });

  it('another text, or half of it missing, fails', () => {
    const other = compareTranscripts('Completely different words about nothing at all here.', heard);
    expect(other.wer).toBeGreaterThan(TRANSCRIPT_CHECK.maxWer);
    expect(transcriptCheckPasses(other)).toBe(false);
    const half = compareTranscripts('Welcome to the show.', heard);
    expect(half.coverage).toBeCloseTo(4 / 9);
    expect(transcriptCheckPasses(half)).toBe(false);
  });

  it('nothing heard: an empty supplied transcript passes, any words fail', () => {
    expect(compareTranscripts('', [])).toEqual({ wer: 0, coverage: 1, heardWords: 0 });
    expect(transcriptCheckPasses(compareTranscripts('Some words.', []))).toBe(false);
  });
});
