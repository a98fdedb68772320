import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { TranscriptImportError } from '../../src/domain/transcript.js';
import {
  classifyFile,
  countWords,
  documentFileName,
  documentWords,
  estimateOcrWords,
  OCR_WORDS_PER_PAGE,
  servedTypeOf,
  type FileClass,
} from '../../src/documents/measure.js';
import { blankPdf, docxOf, jpegHeader, pdfOf, pngImage, rtfOf, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { convert } from '../helpers/libreoffice.js';
import { odtOf } from '../helpers/hostileFiles.js';
import { wavFile } from '../helpers/mediaServer.js';

// 26 words by Intl.Segmenter ('twenty-five' is two): at least 20, so a PDF page of it is text, not a scan.
const LONG = 'The quick brown fox jumps over the lazy dog, again and again, until twenty-five words have been written on this single page of text here.';
const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('countWords', () => {
  it.each([
    ['Hello, world! How are you?', 5],
    ['Order 66 costs $1,250.50 in 2024.', 6], // a formatted number is one word
    ['我们今天去北京吃饭。', 5], // Chinese has no spaces: the segmenter's dictionary splits it
    ['안녕하세요 세계', 2],
    ['Привет, как дела?', 3],
    ['Größe, Übung.', 2],
    ['', 0],
    ['  --- !!! …\n\t', 0],
  ])('%j has %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
  });
});

describe('classifyFile and documentFileName', () => {
  const text = Buffer.from('Plain words, in UTF-8: naïve café.\n');
  const zipOf = (entry: string) => bytes('PK\x03\x04', [20, 0, 0, 0, 8, 0], Buffer.alloc(18).toString('latin1'), entry, 'rest of the archive');
  const cases: Array<[string, Uint8Array | Promise<Uint8Array>, string | undefined, string, FileClass, string]> = [
    ['pdf', bytes('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj'), undefined, '/x', 'document', 'document.pdf'],
    ['pdf after junk', bytes('garbage\n'.repeat(20), '%PDF-1.4\n'), undefined, '/x', 'document', 'document.pdf'],
    ['docx', docxOf(['Hello']), undefined, '/x', 'document', 'document.docx'],
    ['doc (OLE2)', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], Buffer.alloc(504).toString('latin1')), undefined, '/x', 'document', 'document.doc'],
    ['rtf', Buffer.from(rtfOf('Hi')), undefined, '/x', 'document', 'document.rtf'],
    ['text by Content-Type', text, 'text/plain; charset=utf-8', '/x', 'document', 'document.txt'],
    ['text by extension', text, 'application/octet-stream', '/notes.TXT', 'document', 'document.txt'],
    ['text with no hint', text, undefined, '/notes', 'document', 'document.txt'],
    ['JSON with no hint', bytes('[{"text": "Hi."}]'), undefined, '/t1', 'document', 'document.json'],
    ['JSON served as text/plain', bytes('{"segments": []}'), 'text/plain', '/t1.txt', 'document', 'document.json'],
    ['JSON by Content-Type', bytes('{"text": "Hi."}'), 'application/json', '/t1', 'document', 'document.json'],
    ['our text format with times, not JSON', bytes('[00:00:05] Ann: Hello.'), undefined, '/t1', 'document', 'document.txt'],
    ['SRT without an extension', bytes('1\n00:00:01,000 --> 00:00:02,000\nHi.\n'), undefined, '/t1', 'document', 'document.srt'],
    ['WebVTT without an extension', bytes('WEBVTT\n\n00:01.000 --> 00:02.000\nHi.\n'), 'application/octet-stream', '/t1', 'document', 'document.vtt'],
    ['text named .mp3 is text', text, undefined, '/song.mp3', 'document', 'document.txt'],
    ['text served as application/pdf is text', text, 'application/pdf', '/t.pdf', 'document', 'document.txt'],
    ['a ZIP that is no DOCX', bytes('PK\x03\x04 xl/workbook.xml'), undefined, '/book', 'unknown', 'file.zip'],
    ['a ZIP named .docx is a (broken) DOCX', bytes('PK\x03\x04 word/ nothing'), undefined, '/t.docx', 'document', 'document.docx'],
    ['NUL bytes called text', bytes('abc\x00def'), 'text/plain', '/a.txt', 'unknown', 'file.txt'],
    ['invalid UTF-8 called text', bytes('caf\xE9 au lait'), undefined, '/a.txt', 'unknown', 'file.txt'],
    ['"BM" text is not a bitmap', Buffer.from('BMW owners manual, chapter one.'), 'text/plain', '/m', 'document', 'document.txt'],
    ['zip without word/', zipOf('xl/workbook.xml'), undefined, '/sheet.xlsx', 'unknown', 'file.xlsx'],
    ['odt by its stored mimetype, whatever its name', odtOf('<text:p>Hi</text:p>'), 'application/octet-stream', '/download', 'document', 'document.odt'],
    ['a zip its name calls an odt', zipOf('content.xml'), undefined, '/brief.odt', 'document', 'document.odt'],
    ['png', pngImage(), undefined, '/x', 'image', 'image.png'],
    ['jpeg', jpegHeader(), 'text/plain', '/x.txt', 'image', 'image.jpg'],
    ['gif', bytes('GIF89a', [1, 0, 1, 0]), undefined, '/x', 'image', 'image.gif'],
    ['tiff (little-endian)', bytes('II*\x00', [8, 0, 0, 0]), undefined, '/x', 'image', 'image.tiff'],
    ['tiff (big-endian)', bytes('MM\x00*', [0, 0, 0, 8]), undefined, '/x', 'image', 'image.tiff'],
    ['webp', bytes('RIFF', [36, 0, 0, 0], 'WEBPVP8 '), undefined, '/x', 'image', 'image.webp'],
    ['bmp', bytes('BM', [70, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0]), undefined, '/x', 'image', 'image.bmp'],
    ['heic', bytes([0, 0, 0, 24], 'ftypheic'), undefined, '/x', 'image', 'image.heic'],
    ['wav', wavFile(1), undefined, '/x', 'media', 'media.wav'],
    ['mp3 with ID3', bytes('ID3', [4, 0, 0, 0, 0, 0, 0]), undefined, '/x', 'media', 'media.mp3'],
    ['mp3 frame', bytes([0xff, 0xfb, 0x90, 0x64]), undefined, '/x', 'media', 'media.mp3'],
    ['ogg', bytes('OggS', [0, 2]), undefined, '/x', 'media', 'media.ogg'],
    ['flac', bytes('fLaC', [0, 0, 0, 34]), undefined, '/x', 'media', 'media.flac'],
    ['webm', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01], '\x42\x82\x84webm'), undefined, '/x', 'media', 'media.webm'],
    ['mkv', bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x86, 0x81, 0x01], '\x42\x82\x88matroska'), undefined, '/x', 'media', 'media.mkv'],
    ['mp4', bytes([0, 0, 0, 32], 'ftypisom', [0, 0, 2, 0]), undefined, '/x', 'media', 'media.mp4'],
    ['m4a', bytes([0, 0, 0, 32], 'ftypM4A ', [0, 0, 2, 0]), undefined, '/x', 'media', 'media.m4a'],
    ['mov', bytes([0, 0, 0, 20], 'ftypqt  ', [0, 0, 2, 0]), undefined, '/x', 'media', 'media.mov'],
    ['signature over Content-Type', bytes('%PDF-1.4\n'), 'audio/mpeg', '/talk.mp3', 'document', 'document.pdf'],
    ['Content-Type over extension', bytes('\x01\x02\xfe\xff'), 'video/mp4', '/brief.pdf', 'media', 'media.mp4'],
    ['audio/* type', bytes('\x01\x02\xfe\xff'), 'audio/x-m4a', '/x', 'media', 'media.m4a'],
    ['image/* type', bytes('\x01\x02\xfe\xff'), 'image/jpeg', '/x', 'image', 'image.jpg'],
    ['document type', bytes('\x01\x02\xfe\xff'), 'application/msword', '/x', 'document', 'document.doc'],
    ['media extension', bytes('\x01\x02\xfe\xff'), 'application/octet-stream', '/talks/day1.MP3', 'media', 'media.mp3'],
    ['image extension', bytes('\x01\x02\xfe\xff'), undefined, '/scan.jpeg', 'image', 'image.jpeg'],
    ['nothing known', bytes('\x01\x02\xfe\xff'), 'application/octet-stream', '/download', 'unknown', 'file.bin'],
  ];
  it.each(cases)('%s', async (_, input, contentType, path, cls, name) => {
    const data = await input;
    expect(classifyFile(data, contentType, path)).toBe(cls);
    expect(documentFileName(data, contentType, path)).toBe(name);
  });
});

describe('documentWords', () => {
  it('counts plain text, a leading "Name:" included', async () => {
    expect(await documentWords(Buffer.from('\uFEFFHello world.\n\nNote: one two three'), 'brief.txt')).toBe(6);
  });

  it('counts a DOCX', async () => {
    expect(await documentWords(await docxOf([LONG, 'Zweiter Absatz: Größe, Übung.']), 'brief.docx')).toBe(30);
  });

  it('counts every page of a PDF, in any script DejaVu covers', async () => {
    expect(await documentWords(await pdfOf([[LONG, 'Привет, как дела?'], ['Last page, five words.']]), 'brief.pdf')).toBe(26 + 3 + 4);
  });

  it('counts an RTF, escapes and CJK included', async () => {
    expect(await documentWords(Buffer.from(rtfOf('Hello wörld {braces}\n我们今天去北京吃饭。')), 'brief.rtf')).toBe(3 + 5);
  });

  it("counts an HTML page's visible text only", async () => {
    const visible = ['Contract for services', 'The parties agree to the terms below.', 'Signed in Lyon, twice.'];
    const page = `<!DOCTYPE html><html lang="en"><head><title>Hidden title words</title><style>p { color: red }</style>
      <script>var hidden = "script words here";</script></head><body><!-- a comment of hidden words -->
      <h1>${visible[0]}</h1><noscript>Enable scripts please</noscript><template><p>template words</p></template>
      <p>${visible[1]}<br>${visible[2]}</p><svg><text>drawn words</text></svg></body></html>`;
    // Counted apart from the service: the visible strings split on spaces.
    const expected = visible.join(' ').split(/\s+/).length;
    expect(await documentWords(Buffer.from(page), 'page.html')).toBe(expected);
  });

  it("counts an ODT's body: headings, paragraphs, lists and tables, without comments, deletions or note marks", async () => {
    const visible = ['Contrat de service', 'Les parties conviennent des termes ci-dessous.', 'Premier point', 'Cellule un', 'Fait à Lyon & Paris.'];
    const odt = odtOf(
      `<text:h text:outline-level="1">${visible[0]}</text:h>` +
        `<text:p>Les<text:s/>parties<text:s text:c="3"/>conviennent des termes<office:annotation><dc:creator>Ann</dc:creator><text:p>comment words here</text:p></office:annotation> ci-dessous.</text:p>` +
        `<text:tracked-changes><text:changed-region><text:deletion><text:p>deleted words here</text:p></text:deletion></text:changed-region></text:tracked-changes>` +
        `<text:list><text:list-item><text:p>${visible[2]}<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>note</text:p></text:note-body></text:note></text:p></text:list-item></text:list>` +
        `<table:table xmlns:table="urn:x"><table:table-row><table:table-cell><text:p>${visible[3]}</text:p></table:table-cell></table:table-row></table:table>` +
        `<text:p>Fait à Lyon &amp; Paris.</text:p>`,
    );
    // Counted apart from the service: the visible strings by the segmenter, and the footnote's one word.
    expect(await documentWords(odt, documentFileName(odt, undefined, '/contrat'))).toBe(countWords(visible.join('\n')) + 1);
  });

  describeNeeding('libreoffice', 'a DOC and an ODT written by LibreOffice', () => {
    it.each([
      ['doc:MS Word 97', 'doc'],
      ['odt', 'odt'],
    ])('counts the words of a %s file', async (target, extension) => {
      const written = await convert(await docxOf([LONG, 'One more line.']), 'brief.docx', target, extension);
      expect(classifyFile(written, undefined, '/brief')).toBe('document');
      expect(documentFileName(written, undefined, '/brief')).toBe(`document.${extension}`);
      expect(await documentWords(written, documentFileName(written, undefined, '/brief'))).toBe(29);
    });
  });

  it.each<[string, () => Promise<Uint8Array> | Uint8Array, string, RegExp]>([
    ['a corrupt PDF', () => bytes('%PDF-1.4\nnot really a pdf'), 'x.pdf', /^cannot read x\.pdf: it is not a valid PDF file$/],
    ['an encrypted PDF', () => pdfOf([[LONG]], { userPassword: 'secret' }), 'x.pdf', /^cannot read x\.pdf: it is password-protected$/],
    ['a scanned PDF', () => blankPdf(2), 'x.pdf', /^cannot read x\.pdf: it has no text layer/],
    ['an empty PDF file', () => new Uint8Array(0), 'x.pdf', /^cannot read x\.pdf: the file is empty$/],
    ['a corrupt DOCX', () => bytes('PK\x03\x04word/ and nothing more'), 'x.docx', /^cannot read x\.docx: it is not a readable \.docx file/],
    ['an empty DOCX', () => docxOf([]), 'x.docx', /^cannot read x\.docx: the transcript is empty$/],
    ['an empty text file', () => new Uint8Array(0), 'x.txt', /^cannot read x\.txt: the file is empty$/],
    ['text without words', () => Buffer.from('--- *** ...\n'), 'x.txt', /^cannot read x\.txt: it holds no words$/],
    [
      'a JSON file',
      () => Buffer.from('{"text": "hi"}'),
      'x.json',
      /^cannot read x\.json: \.json files are not accepted for translation \(accepted: TXT, DOCX, ODT, DOC, RTF, PDF, HTML\)$/,
    ],
    ['a name without extension', () => Buffer.from('hi'), 'upload', /^cannot read upload: it is not accepted for translation/],
  ])('refuses %s', async (_, make, name, message) => {
    const error = await documentWords(await make(), name).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TranscriptImportError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('estimateOcrWords', () => {
  it('counts a DOCX, pages estimated from its words', async () => {
    const paragraphs = Array.from({ length: 12 }, () => LONG); // 312 words
    expect(await estimateOcrWords(await docxOf(paragraphs), 'scan.docx', 'document')).toEqual({ words: 312, pages: 2, scannedPages: 0 });
  });

  it('counts a text PDF page by page', async () => {
    const pdf = await pdfOf([[LONG], [LONG, LONG]]);
    expect(await estimateOcrWords(pdf, 'scan.pdf', 'document')).toEqual({ words: 78, pages: 2, scannedPages: 0 });
  });

  it('prices a blank page as a scan of OCR_WORDS_PER_PAGE words', async () => {
    const pdf = await pdfOf([[LONG], [], []]);
    expect(OCR_WORDS_PER_PAGE).toBe(250);
    expect(await estimateOcrWords(pdf, 'scan.pdf', 'document')).toEqual({ words: 26 + 500, pages: 3, scannedPages: 2 });
  });

  it('prices a page with fewer than 20 words of text layer as a scan', async () => {
    const pdf = await pdfOf([['Page 1 of 2, stamped.'], [LONG]]);
    expect(await estimateOcrWords(pdf, 'scan.pdf', 'document')).toEqual({ words: 250 + 26, pages: 2, scannedPages: 1 });
  });

  it('prices an image as one scanned page', async () => {
    const png = pngImage();
    const cls = classifyFile(png, undefined, '/page');
    expect(cls).toBe('image');
    expect(await estimateOcrWords(png, documentFileName(png, undefined, '/page'), cls)).toEqual({ words: 250, pages: 1, scannedPages: 1 });
  });

  it.each([
    ['notes.txt', 'document', Buffer.from(LONG)],
    ['brief.rtf', 'document', Buffer.from(rtfOf(LONG))],
    ['talk.mp3', 'media', bytes('ID3', [4, 0, 0, 0])],
  ] as const)('refuses %s, naming what is accepted', async (name, cls, data) => {
    await expect(estimateOcrWords(data, name, cls)).rejects.toThrow(TranscriptImportError);
    await expect(estimateOcrWords(data, name, cls)).rejects.toThrow(
      `cannot read ${name}: .${name.split('.')[1]} files are not accepted for OCR (accepted: DOCX, PDF or an image)`,
    );
  });

  it('refuses an encrypted PDF with the reason', async () => {
    const pdf = await pdfOf([[LONG]], { userPassword: 'secret' });
    await expect(estimateOcrWords(pdf, 'scan.pdf', 'document')).rejects.toThrow('cannot read scan.pdf: it is password-protected');
  });
});

describe('documents fetched from a URL', () => {
  let server: DocumentServer;
  beforeAll(async () => {
    server = await startDocumentServer();
  });
  afterAll(() => server.close());

  it('classifies and counts what the server sends, and 404s an unknown path', async () => {
    const docx = server.serve('/files/brief', await docxOf([LONG]));
    const pdf = server.serve('/files/report.pdf', await pdfOf([[LONG]]), 'application/pdf');
    const words: number[] = [];
    for (const url of [docx, pdf]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const body = new Uint8Array(await response.arrayBuffer());
      const type = response.headers.get('content-type') ?? undefined;
      const { pathname } = new URL(url);
      expect(classifyFile(body, type, pathname)).toBe('document');
      words.push(await documentWords(body, documentFileName(body, type, pathname)));
    }
    expect(words).toEqual([26, 26]);
    expect((await fetch(`${server.url}/files/missing.pdf`)).status).toBe(404);
  });
});

describe("servedTypeOf: what a customer's file may be served to a browser as, by its bytes alone", () => {
  const page = '<!doctype html><html><body><script>alert(1)</script></body></html>';
  it.each([
    ['a WAV', wavFile(1), { cls: 'media', type: 'audio/wav' }],
    ['a WAV with a page appended', Buffer.concat([wavFile(1), Buffer.from(page)]), { cls: 'media', type: 'audio/wav' }],
    ['an MP3 with its ID3 tag', bytes('ID3\x04\x00\x00\x00\x00\x00\x00'), { cls: 'media', type: 'audio/mpeg' }],
    ['an MP4 video', bytes([0, 0, 0, 0x20], 'ftypisom'), { cls: 'media', type: 'video/mp4' }],
    ['an M4A', bytes([0, 0, 0, 0x20], 'ftypM4A '), { cls: 'media', type: 'audio/mp4' }],
    ['a WebM', bytes([0x1a, 0x45, 0xdf, 0xa3], '\x9f\x42\x86\x81\x01webm'), { cls: 'media', type: 'video/webm' }],
    ['a PNG', pngImage(), { cls: 'image', type: 'image/png' }],
    ['a JPEG', jpegHeader(), { cls: 'image', type: 'image/jpeg' }],
  ])('%s is served as what it is', (_name, file, expected) => {
    expect(servedTypeOf(file)).toMatchObject(expected);
  });

  it.each([
    ['a page', Buffer.from(page)],
    ['a page with a UTF-8 mark', Buffer.from(`\uFEFF${page}`)],
    ['an SVG (it runs scripts)', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['a PDF', bytes('%PDF-1.7\n')],
    ['text', Buffer.from('just words')],
    ['nothing', Buffer.alloc(0)],
  ])('%s is never served', (_name, file) => {
    expect(servedTypeOf(file)).toBeUndefined();
  });
});
