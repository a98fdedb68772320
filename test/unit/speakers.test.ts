import { describe, expect, it } from 'vitest';
import { speakerCount, withSpeakerTurns, type SpeakerTurn } from '../../src/domain/speakers.js';
import type { Transcript } from '../../src/domain/transcript.js';

const word = (text: string, start: number) => ({ text, start, end: start + 0.4 });

describe('speaker turns on a transcript', () => {
  const turns: SpeakerTurn[] = [
    { speaker: 'SPEAKER_02', start: 0, end: 2.1 },
    { speaker: 'SPEAKER_01', start: 2.6, end: 5 },
  ];

  it('splits a segment where the speaker changes and names speakers in the order they first speak', () => {
    const transcript: Transcript = {
      segments: [
        {
          text: 'Hello there. Good morning to you.',
          start: 0,
          end: 4.5,
          words: [word('Hello', 0), word('there.', 0.5), word('Good', 2.7), word('morning', 3.2), word('to', 3.7), word('you.', 4.1)],
        },
      ],
    };
    const labelled = withSpeakerTurns(transcript, turns);
    expect(labelled.segments.map((s) => [s.speaker, s.text, s.start])).toEqual([
      ['Speaker 1', 'Hello there.', 0],
      ['Speaker 2', 'Good morning to you.', 2.7],
    ]);
    expect(labelled.segments[1]!.words).toHaveLength(4);
  });

  it('gives a word in the pause between turns to the nearest turn, and an untimed segment the first speaker', () => {
    const labelled = withSpeakerTurns(
      {
        segments: [
          { text: 'um', start: 2.3, end: 2.35, words: [{ text: 'um', start: 2.3, end: 2.35 }] },
          { text: 'later', start: 2.45, end: 2.5 },
          { text: 'no time' },
        ],
      },
      turns,
    );
    expect(labelled.segments.map((s) => s.speaker)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 1']);
  });

  it('leaves a transcript as it is without turns, and counts speakers', () => {
    const transcript: Transcript = { segments: [{ text: 'alone' }] };
    expect(withSpeakerTurns(transcript, [])).toBe(transcript);
    expect(speakerCount(turns)).toBe(2);
    expect(speakerCount([])).toBe(0);
  });
});
