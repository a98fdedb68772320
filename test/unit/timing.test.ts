// Timing a person's text for captions (src/domain/timing.ts): the aligner's words on the segments,
// and the share of time an untimed paragraph gets without them.
import { describe, expect, it } from 'vitest';
import { spreadUntimed, withWordTimes } from '../../src/domain/timing.js';
import { transcriptFromEditor } from '../../src/domain/humanWork/editorText.js';
import { buildCues } from '../../src/domain/render/captions.js';

describe('withWordTimes', () => {
  const t = transcriptFromEditor('Speaker 1: Hello there.\n\nSpeaker 2: General Kenobi, you are bold.');
  const words = ['Hello', 'there.', 'General', 'Kenobi,', 'you', 'are', 'bold.'].map((word, i) => ({ word, begin: i, end: i + 0.8 }));

  it('gives each segment its own words in order, its span from its first to its last word, speakers kept', () => {
    const timed = withWordTimes(t, words)!;
    expect(timed.segments.map((s) => [s.speaker, s.start, s.end, s.words!.map((w) => w.text).join(' ')])).toEqual([
      ['Speaker 1', 0, 1.8, 'Hello there.'],
      ['Speaker 2', 2, 6.8, 'General Kenobi, you are bold.'],
    ]);
    expect(buildCues(timed)[0]).toMatchObject({ start: 0, end: 1.8, speaker: 'Speaker 1' });
  });

  it('refuses words that do not count the same as the text', () => {
    expect(withWordTimes(t, words.slice(1))).toBeUndefined();
    expect(withWordTimes(t, [...words, { word: 'extra', begin: 8, end: 9 }])).toBeUndefined();
  });
});

describe('spreadUntimed', () => {
  it('shares the whole media among paragraphs typed without marks, by their length', () => {
    const t = spreadUntimed(transcriptFromEditor('One two three four.\n\nFive six.', 30), 30);
    const [a, b] = t.segments;
    expect(a).toMatchObject({ start: 0 });
    expect(a!.end).toBeCloseTo(b!.start!);
    expect(b!.end).toBe(30);
    // 20 characters against 10: two thirds and one third.
    expect(a!.end! / 30).toBeCloseTo(2 / 3, 1);
    expect(buildCues(t).length).toBeGreaterThan(0);
  });

  it("keeps the marks that were typed and shares each mark's span with the paragraphs after it", () => {
    const t = spreadUntimed(transcriptFromEditor('Intro words.\n\n[00:00:10] Marked paragraph.\n\nAfter it, unmarked.\n\n[00:00:40] Last one.', 60), 60);
    expect(t.segments.map((s) => [s.start, s.end !== undefined])).toEqual([
      [0, true],
      [10, true],
      [expect.any(Number), true],
      [40, true],
    ]);
    expect(t.segments[0]!.end).toBe(10);
    expect(t.segments[2]!.start).toBeGreaterThan(10);
    expect(t.segments[2]!.end).toBe(40);
    expect(t.segments[3]!.end).toBe(60);
  });
});
