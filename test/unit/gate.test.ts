// The transcript gate on what Whisper base gave for generated speech (bench/gate.mjs): an honest
// English transcript passes; a hallucinated translation, a forced-language transcript and speech
// drowned in noise fail, each naming its figure; figures the engine did not give are left out.
import { describe, expect, it } from 'vitest';
import { checkTranscript, compressionRatio, describeFigures, GATE, repeatedShare } from '../../src/engines/gate.js';
import type { EngineTranscript } from '../../src/engines/types.js';

/** A transcript of one segment whose words share its span, each with `probability`. */
function transcript(text: string, figures: { probability?: number; avgLogprob?: number; speechDuration?: number; spoken?: number } = {}): EngineTranscript {
  const tokens = text.split(' ');
  const span = figures.spoken ?? tokens.length * 0.3;
  const step = span / tokens.length;
  return {
    ...(figures.speechDuration !== undefined ? { speechDuration: figures.speechDuration } : {}),
    segments: [
      {
        start: 0,
        end: span,
        text,
        ...(figures.avgLogprob !== undefined ? { avgLogprob: figures.avgLogprob } : {}),
        words: tokens.map((t, i) => ({
          text: t,
          start: i * step,
          end: (i + 1) * step,
          ...(figures.probability !== undefined ? { probability: figures.probability } : {}),
        })),
      },
    ],
  };
}

const HONEST = 'The quick brown fox jump over the lazy dog. Today we talk about whales and the sea and how they sing at night.';
const HALLUCINATED = 'It is a good thing to be able to make a new world But it is because it is a good thing to be able to make a new world';
const FORCED =
  "I assume you end here, but I'm not going to let you do it, but I'm going to let you do it, I'm going to let you do it, I'm going to let you do it, I'm";

describe('the transcript gate', () => {
  it('passes an honest English transcript (Whisper base on espeak-ng: confidence 0.81, log-probability -0.39)', () => {
    const verdict = checkTranscript(transcript(HONEST, { probability: 0.81, avgLogprob: -0.39, speechDuration: 8, spoken: 7.1 }));
    expect(verdict).toMatchObject({ passes: true, failures: [] });
    expect(verdict.figures).toMatchObject({ words: 23, wordConfidence: 0.81, avgLogprob: -0.39, coverage: 0.89, repeatedShare: 0 });
  });

  it("fails Whisper's English translation of Spanish that repeats itself and is unsure of its words", () => {
    const verdict = checkTranscript(transcript(HALLUCINATED, { probability: 0.43, avgLogprob: -1.08, speechDuration: 7.6, spoken: 7 }));
    expect(verdict.passes).toBe(false);
    expect(verdict.failures).toEqual([
      '37% of its 4-word sequences repeat (over 25%)',
      'its average log-probability is -1.08 (under -1)',
      "its words' mean confidence is 0.43 (under 0.6)",
    ]);
  });

  it('fails a transcript forced into a language not spoken, by its compression alone where the engine gives no figures', () => {
    const verdict = checkTranscript(transcript(FORCED));
    expect(verdict.figures.compressionRatio).toBeGreaterThan(GATE.maxCompressionRatio);
    expect(verdict.figures).not.toHaveProperty('wordConfidence');
    expect(verdict.figures).not.toHaveProperty('avgLogprob');
    expect(verdict.failures[0]).toMatch(/^the text compresses [\d.]+ times \(over 2\.4: it repeats itself\)$/);
  });

  it("fails words that cover too little of the speech heard (Whisper's English of French: a video's sign-off, twice)", () => {
    const verdict = checkTranscript(
      transcript("I'll see you in the next video. See you in the next video.", { probability: 0.6, speechDuration: 6, spoken: 2.4 }),
    );
    expect(verdict.failures).toEqual(['30% of its 4-word sequences repeat (over 25%)', 'its words cover 40% of the speech heard (under 50%)']);
    const once = checkTranscript(
      transcript('Thank you for watching, and see you in the next video of this series.', { probability: 0.6, speechDuration: 8, spoken: 3 }),
    );
    expect(once.failures).toEqual(['its words cover 38% of the speech heard (under 50%)']);
  });

  it('lets words the engine is sure of repeat (people say things again); the same words unsure, or without figures, fail', () => {
    const chorus = Array.from({ length: 4 }, () => 'Row, row, row your boat gently down the stream.').join(' ');
    expect(checkTranscript(transcript(chorus, { probability: 0.9 })).passes).toBe(true);
    expect(checkTranscript(transcript(chorus, { probability: 0.7 })).failures).toEqual([
      'the text compresses 3.98 times (over 2.4: it repeats itself)',
      '73% of its 4-word sequences repeat (over 25%)',
    ]);
    expect(checkTranscript(transcript(chorus)).passes).toBe(false);
  });

  it('does not judge repetition on a few words', () => {
    expect(checkTranscript(transcript('Yes yes yes yes yes yes.')).passes).toBe(true);
  });

  it('measures as Whisper does', () => {
    expect(compressionRatio('')).toBe(0);
    expect(compressionRatio('abc '.repeat(100))).toBeGreaterThan(10);
    expect(repeatedShare('a b c d a b c d'.split(' '))).toBe(0.2); // abcd, bcda, cdab, dabc, abcd: one of five repeats
    expect(describeFigures({ words: 10, compressionRatio: 1.2, repeatedShare: 0, wordConfidence: 0.8 })).toBe(
      '10 words, mean confidence 0.8, compression ratio 1.2, 0% repeated 4-word sequences',
    );
  });

  it("counts a word spelled as one of the order's terms as sure: names the engine was prompted with do not fail an honest transcript", () => {
    const names = transcript('Yesterday Siobhan Okonkwo met Tadeusz at the Kaunakakai harbour to plan the Zyphrex launch.', { probability: 0.45 });
    // The names' own probabilities are low; the other words' too here, so the terms decide.
    expect(checkTranscript(names).passes).toBe(false);
    const verdict = checkTranscript(names, ['Siobhan Okonkwo', 'Tadeusz', 'Kaunakakai', 'Zyphrex']);
    expect(verdict.figures.wordConfidence).toBeCloseTo((0.45 * 9 + 5) / 14, 2);
    expect(checkTranscript(names, ['Siobhan Okonkwo', 'Tadeusz', 'Kaunakakai', 'Zyphrex', 'Yesterday', 'met', 'harbour', 'launch']).passes).toBe(true);
  });
});
