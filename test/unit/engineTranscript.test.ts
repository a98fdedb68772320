import { describe, expect, it } from 'vitest';
import { engineTranscriptToModel, isSilent } from '../../src/engines/transcript.js';
import { timedWords } from '../../src/domain/transcript.js';
import type { EngineTranscript } from '../../src/engines/types.js';

describe('engineTranscriptToModel', () => {
  it('keeps segment times and word timings', () => {
    const t: EngineTranscript = {
      language: 'en',
      duration: 3,
      segments: [
        {
          start: 0,
          end: 1.2,
          text: ' Hello there. ',
          words: [
            { text: 'Hello', start: 0, end: 0.5 },
            { text: 'there.', start: 0.6, end: 1.2 },
          ],
        },
        { start: 1.5, end: 3, text: 'Bye.', words: [{ text: 'Bye.', start: 1.5, end: 3 }] },
      ],
    };
    const model = engineTranscriptToModel(t);
    expect(model).toEqual({
      segments: [
        {
          text: 'Hello there.',
          start: 0,
          end: 1.2,
          words: [
            { text: 'Hello', start: 0, end: 0.5 },
            { text: 'there.', start: 0.6, end: 1.2 },
          ],
        },
        { text: 'Bye.', start: 1.5, end: 3, words: [{ text: 'Bye.', start: 1.5, end: 3 }] },
      ],
    });
    expect(timedWords(model)?.map((w) => w.text)).toEqual(['Hello', 'there.', 'Bye.']);
  });

  it('leaves out words when the engine gave none, and drops empty segments and words', () => {
    const model = engineTranscriptToModel({
      segments: [
        { start: 0, end: 1, text: 'No words.', words: [] },
        { start: 1, end: 2, text: '   ', words: [] },
        {
          start: 2,
          end: 3,
          text: 'Some.',
          words: [
            { text: ' ', start: 2, end: 2.1 },
            { text: 'Some.', start: 2.1, end: 3 },
          ],
        },
      ],
    });
    expect(model.segments).toEqual([
      { text: 'No words.', start: 0, end: 1 },
      { text: 'Some.', start: 2, end: 3, words: [{ text: 'Some.', start: 2.1, end: 3 }] },
    ]);
    expect('words' in model.segments[0]!).toBe(false);
  });
});

describe('isSilent', () => {
  const of = (...texts: string[]): EngineTranscript => ({ segments: texts.map((text, i) => ({ start: i, end: i + 1, text, words: [] })) });

  it('is true without segments, or when no segment has a letter or a digit', () => {
    expect(isSilent(of())).toBe(true);
    expect(isSilent(of('...', ' ♪ ♪ ', '-'))).toBe(true);
  });

  it('is false as soon as one segment has a letter or a digit, in any script', () => {
    expect(isSilent(of('...', 'Hi'))).toBe(false);
    expect(isSilent(of('42'))).toBe(false);
    expect(isSilent(of('こんにちは'))).toBe(false);
    expect(isSilent(of('Ça'))).toBe(false);
  });
});
