// SRT and WebVTT as their writers make them: cue identifiers, NOTE, STYLE and REGION blocks, header
// metadata, cue settings, CRLF line ends, short fractions; and the text without its markup.
import { describe, expect, it } from 'vitest';
import { parseCues } from '../../src/documents/cues.js';
import { importDocument } from '../../src/documents/importers.js';
import { TranscriptImportError } from '../../src/domain/transcript.js';

const WEBVTT = [
  'WEBVTT - a talk',
  'Kind: captions',
  'Language: en',
  '',
  'STYLE',
  '::cue { color: yellow }',
  '',
  'REGION',
  'id:left width:40%',
  '',
  'NOTE written by hand,',
  'over two lines',
  '',
  'intro',
  '00:01.000 --> 00:02.500 align:start position:10%',
  '<v.loud Ann Lee>Hello &amp; <b>welcome</b>.',
  '',
  'note',
  '01:00:03.000 --> 01:00:04.000',
  'Two',
  'lines.',
  '',
].join('\n');

describe('parseCues', () => {
  it('reads WebVTT cues with identifiers and settings, and nothing of the other blocks', () => {
    expect(parseCues(WEBVTT)).toEqual([
      { start: 1, end: 2.5, text: '<v.loud Ann Lee>Hello &amp; <b>welcome</b>.' },
      { start: 3603, end: 3604, text: 'Two\nlines.' },
    ]);
  });

  it('reads SRT with CRLF line ends, a BOM and short fractions', () => {
    const srt = '\uFEFF1\r\n00:00:01,5 --> 00:00:02,250\r\n{\\an8}Top line\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nNext\r\n';
    expect(parseCues(srt)).toEqual([
      { start: 1.5, end: 2.25, text: '{\\an8}Top line' },
      { start: 3, end: 4, text: 'Next' },
    ]);
  });

  it('names a cue whose times cannot be read', () => {
    expect(() => parseCues('1\n00:00:01,000 --> soon\nHi\n')).toThrow(new TranscriptImportError('cue 1 has no readable times ("00:00:01,000 --> soon")'));
  });

  it('the importer keeps the text, the voice as speaker, and drops the markup', async () => {
    expect((await importDocument(Buffer.from(WEBVTT), 'talk.vtt')).segments).toEqual([
      { speaker: 'Ann Lee', start: 1, end: 2.5, text: 'Hello & welcome.' },
      { start: 3603, end: 3604, text: 'Two lines.' },
    ]);
    expect((await importDocument(Buffer.from('1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>Top</i> line\n'), 'a.srt')).segments).toEqual([
      { start: 1, end: 2, text: 'Top line' },
    ]);
  });
});
