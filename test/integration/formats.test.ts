// Every format of every result kind, read back by an independent reader and compared with the
// source text: mammoth (docx), unpdf (pdf), node-html-parser (html), the subtitle parser
// (srt, vtt), ttconv (ttml, dfxp: TTML read and written out as SRT), JSON Schema (json, json2,
// alignment) and LibreOffice (doc).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';
import { parse as parseHtml } from 'node-html-parser';
import { parseSync, stringifySync } from 'subtitle';
import { Ajv } from 'ajv';
import { RESULT_KIND_DEFINITIONS, RESULT_KINDS, type ResultKind } from '../../src/domain/resultKinds.js';
import type { ResultFormat } from '../../src/domain/formats.js';
import { renderResult as renderWith, type RenderOptions } from '../../src/domain/render/index.js';
import { fontLibrary } from '../../src/documents/fonts.js';
import type { Transcript } from '../../src/domain/transcript.js';
import { convert, HAS_LIBREOFFICE } from '../helpers/libreoffice.js';
import { ttmlToSrt } from '../helpers/ttconv.js';
import { checkZipContainer } from '../../src/documents/zipGuard.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../../src/documents/limits.js';
import { parseCues } from '../../src/documents/cues.js';

const renderResult = (kind: ResultKind, t: Transcript, format: ResultFormat, options: RenderOptions) => renderWith(kind, t, format, options, fontLibrary());

const words = (start: number, text: string) => text.split(' ').map((t, i) => ({ text: t, start: start + i * 0.5, end: start + (i + 1) * 0.5 }));
const lines = [
  'Bonjour à tous, et bienvenue.',
  'Спасибо, что пришли сегодня — «добро пожаловать».',
  'Grüße aus Köln: 3 < 4 & "quotes" {braces} \\back\\slash.',
];
const SOURCE: Transcript = {
  segments: [
    { speaker: 'Zoë', start: 0, end: 3, text: lines[0]!, words: words(0, lines[0]!) },
    { speaker: 'Иван', start: 3, end: 7, text: lines[1]!, words: words(3, lines[1]!) },
    { start: 7, end: 13, text: lines[2]!, words: words(7, lines[2]!) },
  ],
};
const TITLE = 'Order 7 result';
const normalise = (s: string) => s.replace(/\s+/g, ' ').trim();
const SOURCE_TEXT = normalise(lines.join(' '));
/** Text with titles, speaker labels and marks removed, for comparison with the source. */
const bodyText = (s: string) =>
  normalise(
    s
      .replace(TITLE, '')
      .replace(/\[\d\d:\d\d:\d\d\]/g, '')
      .replace(/(^|\s)(Zoë|Иван):/g, ' '),
  );

const ajv = new Ajv({ allErrors: true });
const schemas = {
  json: ajv.compile(JSON.parse(readFileSync('docs/schemas/transcript.schema.json', 'utf8'))),
  json2: ajv.compile(JSON.parse(readFileSync('docs/schemas/transcript2.schema.json', 'utf8'))),
  alignment: ajv.compile(JSON.parse(readFileSync('docs/schemas/alignment.schema.json', 'utf8'))),
};
const valid = (validate: (typeof schemas)['json'], data: unknown) => {
  expect(validate(data), ajv.errorsText(validate.errors)).toBe(true);
};

/** The cues' text of an SRT file, as the subtitle parser reads it. */
const srtText = (srt: string) =>
  parseSync(srt)
    .filter((n) => n.type === 'cue')
    .map((n) => (n.data as { text: string }).text)
    .join(' ');

/** A WebVTT file as SRT, through the subtitle parser (an independent reader). */
const vttToSrt = async (vtt: string) => stringifySync(parseSync(vtt), { format: 'SRT' });

/** What an independent reader finds in the file, as text. */
async function readBack(kind: ResultKind, format: ResultFormat, body: Buffer): Promise<string> {
  switch (format) {
    case 'docx':
      return (await mammoth.extractRawText({ buffer: body })).value;
    case 'pdf':
      return (await extractText(await getDocumentProxy(new Uint8Array(body)), { mergePages: true })).text as string;
    case 'html': {
      const root = parseHtml(body.toString('utf8'));
      expect(root.querySelector('title')?.text).toBe(TITLE);
      return root
        .querySelectorAll('p')
        .map((p) => p.text)
        .join(' ');
    }
    case 'text':
      return body.toString('utf8');
    case 'doc':
      expect(body.toString('latin1').startsWith('{\\rtf1')).toBe(true);
      return HAS_LIBREOFFICE ? (await convert(body, 'result.doc', 'txt:Text (encoded):UTF8', 'txt')).toString('utf8') : '';
    case 'srt':
    case 'vtt':
      return (
        parseSync(body.toString('utf8'))
          .filter((n) => n.type === 'cue')
          .map((n) => (n.data as { text: string }).text.replace(/<v [^>]+>/g, ''))
          // A WebVTT reader decodes character references; SRT has none.
          .map((t) => (format === 'vtt' ? t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') : t))
          .join(' ')
      );
    case 'ttml':
    case 'dfxp':
      return srtText(await ttmlToSrt(body));
    case 'json': {
      const data = JSON.parse(body.toString('utf8'));
      if (kind === 'forced_alignment') {
        valid(schemas.alignment, data);
        return data.words.map((w: { word: string }) => w.word).join(' ');
      }
      valid(schemas.json, data);
      return data.segments.map((s: { text: string }) => s.text).join(' ');
    }
    case 'json2': {
      const data = JSON.parse(body.toString('utf8'));
      valid(schemas.json2, data);
      expect(data.segments.flatMap((s: { words: unknown[] }) => s.words)).toHaveLength(SOURCE.segments.flatMap((s) => s.words!).length);
      return data.segments.map((s: { text: string }) => s.text).join(' ');
    }
  }
}

const cases = RESULT_KINDS.flatMap((kind) => RESULT_KIND_DEFINITIONS[kind].formats.map((format) => [kind, format] as const));

describe('every result format, read back independently', () => {
  it('covers every kind', () => {
    expect(new Set(cases.map(([kind]) => kind))).toEqual(new Set(RESULT_KINDS));
    expect(cases).toHaveLength(34); // translation also as srt and vtt (a subtitle file translated)
  });

  it.each(cases)('%s as %s', async (kind, format) => {
    const rendered = await renderResult(kind, SOURCE, format, { title: TITLE, timestamping: 'every_10_seconds' });
    expect(rendered.body.length).toBeGreaterThan(0);
    const text = await readBack(kind, format, rendered.body);
    if (format === 'doc' && !HAS_LIBREOFFICE) return;
    expect(bodyText(text)).toBe(SOURCE_TEXT);
  });

  it('places the speaker labels and marks a reader sees', async () => {
    const docx = await renderResult('transcription', SOURCE, 'docx', { title: TITLE, timestamping: 'change_of_speaker' });
    const paragraphs = (await mammoth.extractRawText({ buffer: docx.body })).value.split('\n').filter(Boolean);
    expect(paragraphs).toEqual([TITLE, `[00:00:00] Zoë: ${lines[0]}`, `[00:00:03] Иван: ${lines[1]}`, `[00:00:07] ${lines[2]}`]);
    const html = parseHtml((await renderResult('transcription', SOURCE, 'html', { title: TITLE, timestamping: 'change_of_speaker' })).body.toString());
    expect(html.querySelectorAll('strong.speaker').map((s) => s.text)).toEqual(['Zoë:', 'Иван:']);
    expect(html.querySelectorAll('span.time').map((s) => s.text)).toEqual(['[00:00:00]', '[00:00:03]', '[00:00:07]']);
  });

  it('TTML and DFXP: the cues, their times and their speakers as ttconv reads them, the same as the SRT', async () => {
    const cuesOf = (srt: string) =>
      parseSync(srt)
        .filter((n) => n.type === 'cue')
        .map((n) => n.data as { start: number; end: number; text: string });
    const srt = cuesOf((await renderResult('captions', SOURCE, 'srt', { title: TITLE, timestamping: 'not_required' })).body.toString('utf8'));
    for (const format of ['ttml', 'dfxp'] as const) {
      const rendered = await renderResult('captions', SOURCE, format, { title: TITLE, timestamping: 'not_required', language: 'fr' });
      expect(rendered.contentType).toBe(format === 'ttml' ? 'application/ttml+xml; charset=utf-8' : 'application/ttaf+xml; charset=utf-8');
      const read = cuesOf(await ttmlToSrt(rendered.body));
      expect(read.map((c) => [c.start, c.end, c.text])).toEqual(srt.map((c) => [c.start, c.end, c.text]));
      const xml = rendered.body.toString('utf8');
      expect(xml).toContain('xml:lang="fr"');
      expect(xml).toContain('<ttm:name type="full">Zoë</ttm:name>');
      expect(xml.match(/ttm:agent="speaker-2"/g)?.length).toBeGreaterThan(0);
    }
  });
});

describe('every result format says its language and direction', () => {
  const ARABIC: Transcript = { segments: [{ speaker: 'سارة', start: 0, end: 4, text: 'مرحبا بكم في البرنامج اليوم.' }] };
  const arabic = { title: 'Order 8', timestamping: 'not_required' as const, language: 'ar', direction: 'rtl' as const };

  it('HTML: lang and dir on the page', async () => {
    const html = parseHtml((await renderResult('transcription', ARABIC, 'html', arabic)).body.toString());
    expect(html.querySelector('html')!.attributes).toMatchObject({ lang: 'ar', dir: 'rtl' });
    const english = parseHtml(
      (await renderResult('transcription', SOURCE, 'html', { title: TITLE, timestamping: 'not_required', language: 'en' })).body.toString(),
    );
    expect(english.querySelector('html')!.attributes).toMatchObject({ lang: 'en', dir: 'ltr' });
  });

  it('DOCX: right-to-left paragraphs and runs, each run in Arabic', async () => {
    const docx = (await renderResult('transcription', ARABIC, 'docx', arabic)).body;
    const xml = checkZipContainer(docx, DEFAULT_DOCUMENT_LIMITS, { keep: ['word/document.xml'] })
      .get('word/document.xml')!
      .toString('utf8');
    const paragraphs = xml.match(/<w:p>[\s\S]*?<\/w:p>|<w:p [\s\S]*?<\/w:p>/g)!;
    expect(paragraphs.at(-1)).toContain('<w:bidi/>');
    const runs = xml.match(/<w:r>[\s\S]*?<\/w:r>/g)!;
    expect(runs.length).toBeGreaterThan(1);
    for (const run of runs) {
      expect(run).toContain('<w:rtl/>');
      expect(run).toMatch(/<w:lang w:bidi="ar"\/>/);
    }
    // Read back by an independent reader, the words in their order.
    expect((await mammoth.extractRawText({ buffer: docx })).value).toContain('سارة: مرحبا بكم في البرنامج اليوم.');
  });

  it('TTML: xml:lang and tts:direction, read by ttconv', async () => {
    const ttml = (await renderResult('captions', ARABIC, 'ttml', arabic)).body;
    expect(ttml.toString()).toMatch(/xml:lang="ar"/);
    expect(ttml.toString()).toContain('<body tts:direction="rtl">');
    expect(srtText(await ttmlToSrt(ttml))).toContain('مرحبا بكم');
  });

  it('SRT and WebVTT: a right-to-left line that starts with a Latin letter begins with a right-to-left mark; WebVTT says the language', async () => {
    const mixed: Transcript = {
      segments: [
        { start: 0, end: 3, text: 'مرحبا بكم في البرنامج.' },
        { start: 3, end: 6, text: 'John يقول مرحبا.' },
      ],
    };
    for (const format of ['srt', 'vtt'] as const) {
      const text = (await renderResult('captions', mixed, format, arabic)).body.toString('utf8');
      // Players set a line by its first letter (UAX #9, P2): the mark makes the second right to left.
      const lines = parseCues(text).map((c) => c.text);
      expect(lines).toEqual(['مرحبا بكم في البرنامج.', '\u200FJohn يقول مرحبا.']);
      // An independent reader takes the file as it is.
      expect(srtText(format === 'srt' ? text : await vttToSrt(text))).toContain('\u200FJohn يقول مرحبا.');
      if (format === 'vtt') expect(text.split('\n').slice(0, 2)).toEqual(['WEBVTT', 'Language: ar']);
    }
    // Left to right, nothing is added.
    const english = (await renderResult('captions', SOURCE, 'srt', { title: TITLE, timestamping: 'not_required', language: 'en' })).body.toString('utf8');
    expect(english).not.toContain('\u200F');
  });

  it('PDF: a right-to-left paragraph is aligned right', async () => {
    const pdf = await getDocumentProxy(new Uint8Array((await renderResult('transcription', ARABIC, 'pdf', arabic)).body));
    const items = (await (await pdf.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[]; width: number }>;
    const line = items.filter((i) => i.str.trim() && !i.str.includes('Order 8'));
    const right = Math.max(...line.map((i) => i.transform[4]! + i.width));
    // A4 is 595 points wide, with 56-point margins: the line ends at the right margin.
    expect(right).toBeGreaterThan(595 - 56 - 2);
  });
});
