// Uploaded files into the transcript model: each upload format round-trips, including files
// written by LibreOffice (a real Word 97 .doc, RTF, PDF); malformed input is a clear error.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { importDocument } from '../../src/documents/importers.js';
import { checkResultFile } from '../../src/documents/validate.js';
import { layoutTranscript } from '../../src/domain/render/layout.js';
import { renderDocx } from '../../src/domain/render/documents.js';
import { renderPdf } from '../../src/domain/render/pdf.js';
import { fontLibrary } from '../../src/documents/fonts.js';
import { buildCues, renderSrt, renderVtt } from '../../src/domain/render/captions.js';
import { renderRtf, renderText } from '../../src/domain/render/text.js';
import { TranscriptImportError, type Transcript } from '../../src/domain/transcript.js';
import { convert } from '../helpers/libreoffice.js';

const SOURCE: Transcript = {
  segments: [
    { speaker: 'Ann', start: 0, end: 4, text: 'Welcome, everyone — café au lait for all.' },
    { speaker: 'Bo', start: 4, end: 9, text: 'Thank you. Это прекрасно.' },
    { start: 9, end: 12, text: 'Closing words without a speaker.' },
  ],
};
const paragraphs = layoutTranscript(SOURCE, 'not_required');
const speakersAndText = (t: Transcript) => t.segments.map((s) => [s.speaker ?? null, s.text]);
const EXPECTED = speakersAndText(SOURCE);

describe('importing uploaded files', () => {
  it('reads text', async () => {
    expect(speakersAndText(await importDocument(Buffer.from(renderText(paragraphs)), 'transcript.txt'))).toEqual(EXPECTED);
  });

  it('reads docx', async () => {
    const imported = await importDocument(await renderDocx(paragraphs, 'Title'), 'transcript.docx');
    expect(speakersAndText(imported).slice(1)).toEqual(EXPECTED); // the title is a paragraph too
  });

  it('reads pdf, paragraphs and all', async () => {
    const imported = await importDocument((await renderPdf(paragraphs, 'Title', fontLibrary())).body, 'transcript.pdf');
    expect(speakersAndText(imported).slice(1)).toEqual(EXPECTED);
  });

  it('reads rtf', async () => {
    const imported = await importDocument(Buffer.from(renderRtf(paragraphs, 'Title')), 'transcript.rtf');
    expect(speakersAndText(imported).slice(1)).toEqual(EXPECTED);
  });

  it('reads srt and vtt with their times, and vtt voices as speakers', async () => {
    const srt = await importDocument(Buffer.from(renderSrt(buildCues(SOURCE))), 'captions.srt');
    expect(srt.segments.map((s) => s.text).join(' ')).toBe(SOURCE.segments.map((s) => s.text).join(' '));
    expect(srt.segments[0]).toMatchObject({ start: 0, end: 4 });
    const vtt = await importDocument(Buffer.from(renderVtt(buildCues(SOURCE))), 'captions.vtt');
    expect(vtt.segments.map((s) => s.speaker ?? null)).toEqual(['Ann', 'Bo', null]);
  });

  describeNeeding('libreoffice', 'files written by LibreOffice', () => {
    const odtSource = async () => renderDocx(paragraphs, 'Title');
    it.each([
      ['doc', 'doc:MS Word 97'],
      ['rtf', 'rtf'],
      ['pdf', 'pdf'],
      ['docx', 'docx:MS Word 2007 XML'],
    ])('reads .%s', async (extension, filter) => {
      const bytes = await convert(await odtSource(), 'source.docx', filter, extension);
      const imported = await importDocument(bytes, `transcript.${extension}`);
      expect(speakersAndText(imported).slice(1)).toEqual(EXPECTED);
    });
  });

  it.each([
    ['garbage.docx', randomBytes(2000), /^cannot read garbage\.docx: it is not a readable \.docx file$/],
    ['garbage.pdf', randomBytes(2000), /^cannot read garbage\.pdf: it is not a valid PDF file$/],
    ['garbage.doc', randomBytes(2000), /^cannot read garbage\.doc: it is not a readable \.doc file$/],
    ['plain.rtf', Buffer.from('just text'), 'cannot read plain.rtf: it does not start with {\\rtf'],
    ['empty.txt', Buffer.alloc(0), 'cannot read empty.txt: the file is empty'],
    ['blank.txt', Buffer.from(' \n\n \n'), 'cannot read blank.txt: the transcript is empty'],
    ['no-cues.srt', Buffer.from('nothing here\n'), 'cannot read no-cues.srt: it holds no captions'],
    ['empty.vtt', Buffer.from('WEBVTT\n\n'), /^cannot read empty\.vtt: it (holds no captions|is not a readable \.vtt file)/],
    ['broken.json', Buffer.from('{"segments": ['), 'cannot read broken.json: the JSON transcript is not valid JSON'],
    [
      'slides.pptx',
      Buffer.from('x'),
      'cannot read slides.pptx: .pptx files are not accepted (accepted: json, txt, text, docx, odt, doc, rtf, pdf, html, srt, vtt)',
    ],
  ])('refuses %s with a message naming the problem', async (name, bytes, message) => {
    const attempt = importDocument(bytes, name);
    await expect(attempt).rejects.toThrow(TranscriptImportError);
    await expect(importDocument(bytes, name)).rejects.toThrow(message);
  });

  it('refuses a docx without text', async () => {
    await expect(importDocument(await renderDocx([], ''), 'empty.docx')).rejects.toThrow('cannot read empty.docx: the transcript is empty');
  });

  it('checks that a result file holds what its kind needs', async () => {
    const untimed = Buffer.from('Ann: no times at all.');
    await expect(checkResultFile('text', untimed, 'a.txt')).resolves.toBeUndefined();
    await expect(checkResultFile('cues', untimed, 'a.txt')).rejects.toThrow('captions need start and end times: segment 1 has none');
    await expect(checkResultFile('words', Buffer.from(renderSrt(buildCues(SOURCE))), 'a.srt')).rejects.toThrow('needs word timings');
    await expect(checkResultFile('cues', Buffer.from(renderSrt(buildCues(SOURCE))), 'a.srt')).resolves.toBeUndefined();
  });
});

describe('RTF text', () => {
  it('reads what Word writes: \\uN with \\uc fallbacks, code-page bytes, ignorable destinations', async () => {
    const { rtfToText } = await import('../../src/documents/rtf.js');
    const word =
      String.raw`{\rtf1\ansi\ansicpg1252\uc1{\fonttbl{\f0 Calibri;}}{\*\generator Word;}{\info{\title T}}` +
      String.raw`\pard caf\'e9 \u8212\'97 \u1069\'3f\u1090\'3f\uc2\u1086\'3f\'3f!\par {\*\bkmkstart x}{\b Ann:} \{x\}\tab y\par}`;
    expect(rtfToText(word)).toBe('café — Это!\nAnn: {x}\ty\n');
  });
});
