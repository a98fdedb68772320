import { describe, expect, it } from 'vitest';
import mammoth from 'mammoth';
import { importTextTranscript, TranscriptImportError } from '../../src/domain/transcript.js';
import { importJsonTranscript } from '../../src/domain/jsonTranscript.js';
import { WHISPERX_TRANSCRIPT } from '../helpers/foreignJson.js';
import { clock, layoutTranscript } from '../../src/domain/render/layout.js';
import { renderDocx } from '../../src/domain/render/documents.js';
import { renderJson, renderJson2 } from '../../src/domain/render/json.js';
import { renderText } from '../../src/domain/render/text.js';

describe('transcript import', () => {
  it('reads the spec JSON: segments with start/end or start_ms/end_ms, other fields ignored', () => {
    expect(
      importJsonTranscript(
        JSON.stringify([
          { text: 'One.', speaker: 'A', start: 0, end: 1.5, confidence: 0.8 },
          { text: 'Two.', start_ms: 1500, end_ms: 3000 },
          { text: 'Three.' },
        ]),
      ),
    ).toEqual({ segments: [{ text: 'One.', speaker: 'A', start: 0, end: 1.5 }, { text: 'Two.', start: 1.5, end: 3 }, { text: 'Three.' }] });
  });

  it('takes null or absent speaker and times, and ignores any other field of any type', () => {
    expect(
      importJsonTranscript(
        JSON.stringify({
          version: 2,
          speakers: [],
          segments: [
            { id: 0, speaker: null, start: null, end: null, start_ms: null, end_ms: null, text: 'One.', words: [{ text: null }], extra: { deep: [1, 2] } },
            { speaker: 7, start: 1, end_ms: 2500, text: 'Two.', confidence: 'high' },
          ],
        }),
      ),
    ).toEqual({ segments: [{ text: 'One.' }, { text: 'Two.', start: 1, end: 2.5 }] });
  });

  it('reads the single-object form', () => {
    expect(importJsonTranscript('{"text": "All of it.", "language": "en"}')).toEqual({ segments: [{ text: 'All of it.' }] });
  });

  it.each([
    ['not json', 'the JSON transcript is not valid JSON'],
    ['[]', 'the JSON transcript holds no segments'],
    ['[{"text": "  "}]', "the JSON transcript's segment 1 (text): text must not be empty"],
    ['[{"text": "One."}, {"speaker": "A"}]', "the JSON transcript's segment 2 (text): text must be a string"],
    ['[{"text": 42}]', "the JSON transcript's segment 1 (text): text must be a string"],
    ['["just text"]', "the JSON transcript's segment 1: must be an object with text"],
    ['[{"text": "One.", "start": "soon"}]', /^the JSON transcript's segment 1 \(start\): /],
    ['{"words": []}', 'the JSON transcript is not an array of segments or an object with text (text: text is required)'],
    ['"just a string"', 'the JSON transcript is not an array of segments or an object with text (root: Invalid input: expected object, received string)'],
  ])('refuses %s', (input, message) => {
    expect(() => importJsonTranscript(input)).toThrow(TranscriptImportError);
    expect(() => importJsonTranscript(input)).toThrow(message);
  });

  it('reads text: paragraphs, and speaker names at the start of a line', () => {
    expect(importTextTranscript('Ann: Hello.\nBo: Hi there,\nhow are you?\n\nA plain paragraph.')).toEqual({
      segments: [{ speaker: 'Ann', text: 'Hello.' }, { speaker: 'Bo', text: 'Hi there, how are you?' }, { text: 'A plain paragraph.' }],
    });
    expect(() => importTextTranscript(' \n\n ')).toThrow('the transcript is empty');
  });

  it('reads a leading [hh:mm:ss] as the start, the form the document renderers write', () => {
    expect(importTextTranscript('[00:01:05] Ann: Hello.\n[01:00:00] Bo: Bye.\n\n[00:00:03] untimed speaker-less.')).toEqual({
      segments: [
        { speaker: 'Ann', start: 65, text: 'Hello.' },
        { speaker: 'Bo', start: 3600, text: 'Bye.' },
        { start: 3, text: 'untimed speaker-less.' },
      ],
    });
  });

  it('keeps word timings only when asked (worker uploads), in all accepted shapes', () => {
    const withWords = JSON.stringify([
      {
        text: 'Hi you.',
        start: 0,
        end: 1,
        words: [
          { text: 'Hi', start: 0, end: 0.4 },
          { word: 'you.', begin: 0.4, end: 1 },
        ],
      },
    ]);
    expect(importJsonTranscript(withWords).segments[0]).toEqual({ text: 'Hi you.', start: 0, end: 1 });
    expect(importJsonTranscript(withWords, { words: true }).segments[0]!.words).toEqual([
      { text: 'Hi', start: 0, end: 0.4 },
      { text: 'you.', start: 0.4, end: 1 },
    ]);
    expect(importJsonTranscript('{"words": [{"word": "a", "begin": 1, "end": 2}, {"word": "b", "begin": 2, "end": 2.5}]}', { words: true })).toEqual({
      segments: [
        {
          text: 'a b',
          start: 1,
          end: 2.5,
          words: [
            { text: 'a', start: 1, end: 2 },
            { text: 'b', start: 2, end: 2.5 },
          ],
        },
      ],
    });
    expect(() => importJsonTranscript('{"words": [{"word": "a", "end": 2}]}', { words: true })).toThrow('a word needs start (or begin)');
  });

  it('reads back its own json and json2 results', () => {
    const t = {
      segments: [
        {
          speaker: 'A',
          start: 0,
          end: 1,
          text: 'One two.',
          words: [
            { text: 'One', start: 0, end: 0.5, confidence: 0.93 },
            { text: 'two.', start: 0.5, end: 1 },
          ],
        },
        { text: 'Untimed.' },
      ],
    };
    // json2 carries a word's confidence where the engine gave one, and leaves it out where not.
    expect(JSON.parse(renderJson2(t)).segments[0].words).toEqual([
      { text: 'One', start: 0, end: 0.5, confidence: 0.93 },
      { text: 'two.', start: 0.5, end: 1 },
    ]);
    expect(importJsonTranscript(renderJson2(t), { words: true })).toEqual(t);
    expect(importJsonTranscript(renderJson(t), { words: true })).toEqual({
      segments: [{ speaker: 'A', start: 0, end: 1, text: 'One two.' }, { text: 'Untimed.' }],
    });
  });

  it('ignores fields other than text, speaker, start and end; word timings that are not well formed are dropped, not refused', () => {
    const whisperX = JSON.stringify(WHISPERX_TRANSCRIPT);
    expect(importJsonTranscript(whisperX, { words: true })).toEqual({
      segments: [
        { speaker: 'SPEAKER_00', start: 0.5, end: 2, text: 'It cost 20 dollars.' },
        { start: 2, end: 3, text: 'Fine.' },
        { start: 3, end: 4, text: 'Timed.', words: [{ text: 'Timed.', start: 3, end: 4 }] },
      ],
    });
    // Milliseconds where they are times; ignored where not.
    expect(importJsonTranscript('[{"text": "A.", "start_ms": 1500, "end_ms": "2s"}]').segments[0]).toEqual({ text: 'A.', start: 1.5 });
  });
});

describe('transcript renderers', () => {
  const transcript = {
    segments: [{ speaker: 'Ann', start: 0, end: 4, text: 'Hello there.' }, { speaker: 'Bo', start: 3725, text: 'Hi.' }, { text: 'Untimed.' }],
  };

  it('writes clock times', () => {
    expect(clock(0)).toBe('00:00:00');
    expect(clock(3725.9)).toBe('01:02:05');
  });

  it('renders text and json', () => {
    expect(renderText(layoutTranscript(transcript, 'change_of_speaker'))).toBe('[00:00:00] Ann: Hello there.\n\n[01:02:05] Bo: Hi.\n\nUntimed.\n');
    expect(renderText(layoutTranscript(transcript, 'not_required'))).toBe('Ann: Hello there.\n\nBo: Hi.\n\nUntimed.\n');
    expect(JSON.parse(renderJson(transcript))).toEqual({
      segments: [
        { speaker: 'Ann', start: 0, end: 4, text: 'Hello there.' },
        { speaker: 'Bo', start: 3725, end: null, text: 'Hi.' },
        { speaker: null, start: null, end: null, text: 'Untimed.' },
      ],
    });
  });

  it('renders a docx that mammoth reads back', async () => {
    const { value } = await mammoth.extractRawText({ buffer: await renderDocx(layoutTranscript(transcript, 'change_of_speaker'), 'Order 1') });
    expect(value.trim().split(/\n+/)).toEqual(['Order 1', '[00:00:00] Ann: Hello there.', '[01:02:05] Bo: Hi.', 'Untimed.']);
  });
});
