// The draft's doubtful words: found from the engine's confidence, found again in a part's draft and
// in a worker's text (unchanged paragraphs only), and whether people changed them more than the rest.
import { describe, expect, it } from 'vitest';
import { changedShares, DOUBTFUL_CONFIDENCE, doubtsIn, draftWithDoubts } from '../../src/domain/doubts.js';
import type { Transcript } from '../../src/domain/transcript.js';

const word = (text: string, start: number, confidence?: number) => ({ text, start, end: start + 0.4, ...(confidence !== undefined ? { confidence } : {}) });
const DRAFT: Transcript = {
  segments: [
    {
      speaker: 'Ann',
      start: 0,
      end: 2,
      text: 'copy right now this',
      words: [word('copy', 0, 0.3), word('right', 0.4, 0.45), word('now', 0.8, 0.9), word('this', 1.2, 0.95)],
    },
    { start: 3, end: 4, text: 'all fine here', words: [word('all', 3, 0.9), word('fine', 3.4, 0.9), word('here', 3.8, 0.9)] },
    { start: 5, end: 6, text: 'prominence notice', words: [word('prominence', 5, 0.2), word('notice', 5.4, 0.8)] },
    // Rewritten text (another word count than the words): left unmarked.
    { start: 7, end: 8, text: 'three words here', words: [word('two', 7, 0.1), word('words', 7.4, 0.1)] },
  ],
};

describe("the draft's doubtful words", () => {
  it(`marks the words under ${DOUBTFUL_CONFIDENCE} by their token in the editor text, after the mark and the label`, () => {
    const { text, doubts } = draftWithDoubts(DRAFT);
    expect(text).toBe('[00:00:00] Ann: copy right now this\n\n[00:00:03] all fine here\n\n[00:00:05] prominence notice\n\n[00:00:07] three words here');
    expect(doubts).toEqual([
      { paragraph: '[00:00:00] Ann: copy right now this', tokens: [2, 3] },
      { paragraph: '[00:00:05] prominence notice', tokens: [1] },
    ]);
    const tokens = text.split(/\s+/);
    expect(doubtsIn(text, doubts).map((t) => tokens[t])).toEqual(['copy', 'right', 'prominence']);
  });

  it("finds them again in a part's draft and in a worker's text, where the paragraph is unchanged", () => {
    const { doubts } = draftWithDoubts(DRAFT);
    const part = '[00:00:03] all fine here\n\n[00:00:05] prominence notice';
    expect(doubtsIn(part, doubts)).toEqual([5]);
    const edited = '[00:00:00] Ann: copyright notice this\n\n[00:00:03] all fine here\n\n[00:00:05] prominence notice';
    expect(doubtsIn(edited, doubts)).toEqual([10]);
    expect(edited.split(/\s+/)[10]).toBe('prominence');
    expect(doubtsIn('', doubts)).toEqual([]);
  });

  it('measures the share of doubtful and of confident words people changed, marks aside', () => {
    const { text, doubts } = draftWithDoubts(DRAFT);
    const delivered = '[00:00:00] Ann: copyright notice now this\n\n[00:00:03] all fine here\n\n[00:00:05] prominent notice\n\n[00:00:07] three words here';
    // Doubtful: copy, right, prominence, all changed. Confident words: Ann:, now, this, all, fine, here, notice, three, words, here: none.
    expect(changedShares(text, delivered, doubtsIn(text, doubts))).toEqual({ doubtful: 1, confident: 0 });
    expect(changedShares(text, text, [])).toBeUndefined();
  });
});
