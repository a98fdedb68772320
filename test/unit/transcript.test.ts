import { describe, expect, it } from 'vitest';
import mammoth from 'mammoth';
import { importJsonTranscript, importTextTranscript, importTranscript, TranscriptImportError } from '../../src/domain/transcript.js';
import { clock, renderDocx, renderJson, renderText } from '../../src/domain/render/index.js';

describe('transcript import', () => {
  it('reads the spec JSON: segments with start/end or start_ms/end_ms, other fields ignored', () => {
    expect(importJsonTranscript(JSON.stringify([
      { text: 'One.', speaker: 'A', start: 0, end: 1.5, confidence: 0.8 },
      { text: 'Two.', start_ms: 1500, end_ms: 3000 },
      { text: 'Three.' },
    ]))).toEqual({ segments: [{ text: 'One.', speaker: 'A', start: 0, end: 1.5 }, { text: 'Two.', start: 1.5, end: 3 }, { text: 'Three.' }] });
  });

  it('reads the single-object form', () => {
    expect(importJsonTranscript('{"text": "All of it.", "language": "en"}')).toEqual({ segments: [{ text: 'All of it.' }] });
  });

  it.each([
    ['not json', 'the JSON transcript is not valid JSON'],
    ['[]', 'the JSON transcript is not an array of segments or an object with text (root: no segments)'],
    ['[{"text": "  "}]', 'the JSON transcript is not an array of segments or an object with text (0.text: text must not be empty)'],
    ['[{"speaker": "A"}]', /^the JSON transcript is not an array of segments or an object with text \(0\.text: /],
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

  it('chooses the importer by file name', () => {
    expect(importTranscript(Buffer.from('[{"text":"x"}]'), 'a.JSON').segments).toEqual([{ text: 'x' }]);
    expect(importTranscript(Buffer.from('x'), 'notes.txt').segments).toEqual([{ text: 'x' }]);
    expect(() => importTranscript(Buffer.from('x'), 'a.pages')).toThrow('cannot read a.pages: transcripts are accepted as .txt or .json');
  });
});

describe('transcript renderers', () => {
  const transcript = { segments: [{ speaker: 'Ann', start: 0, end: 4, text: 'Hello there.' }, { speaker: 'Bo', start: 3725, text: 'Hi.' }, { text: 'Untimed.' }] };

  it('writes clock times', () => {
    expect(clock(0)).toBe('00:00:00');
    expect(clock(3725.9)).toBe('01:02:05');
  });

  it('renders text and json', () => {
    expect(renderText(transcript)).toBe('[00:00:00] Ann: Hello there.\n\n[01:02:05] Bo: Hi.\n\nUntimed.\n');
    expect(JSON.parse(renderJson(transcript))).toEqual({ segments: [
      { speaker: 'Ann', start: 0, end: 4, text: 'Hello there.' }, { speaker: 'Bo', start: 3725, end: null, text: 'Hi.' }, { speaker: null, start: null, end: null, text: 'Untimed.' },
    ] });
  });

  it('renders a docx that mammoth reads back', async () => {
    const { value } = await mammoth.extractRawText({ buffer: await renderDocx(transcript, 'Order 1') });
    expect(value.trim().split(/\n+/)).toEqual(['[00:00:00] Ann: Hello there.', '[01:02:05] Bo: Hi.', 'Untimed.']);
  });
});
