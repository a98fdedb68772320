// Reads uploaded result and transcript files into the transcript model, by file type:
// JSON (spec format, plus word timings), text, DOCX, ODT, DOC, RTF, PDF, HTML, SRT and WebVTT.
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { rtfToText } from './rtf.js';
import { forEachPdfPage } from './pdf.js';
import { checkZipContainer } from './zipGuard.js';
import { parseCues } from './cues.js';
import { DEFAULT_DOCUMENT_LIMITS, DocumentRefusedError, refusal, type DocumentLimits } from './limits.js';
import { fromParagraphs, importTextTranscript, TranscriptImportError, type Transcript } from '../domain/transcript.js';
import { importJsonTranscript } from '../domain/jsonTranscript.js';

const IMPORTABLE_EXTENSIONS = ['json', 'txt', 'text', 'docx', 'odt', 'doc', 'rtf', 'pdf', 'html', 'srt', 'vtt'] as const;

const decode = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

/**
 * Reads `bytes` by the extension of `fileName`; unreadable or empty input is an error naming the
 * file, a file over the limits a DocumentRefusedError. Run it in the sandbox (sandbox/pool.ts),
 * which bounds its CPU time and memory.
 */
export async function importDocument(bytes: Uint8Array, fileName: string, limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): Promise<Transcript> {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? 'txt';
  try {
    if (bytes.length === 0) throw new TranscriptImportError('the file is empty');
    const transcript = await readByExtension(bytes, extension, limits);
    let words = 0;
    for (const s of transcript.segments) {
      words += s.text.split(/\s+/).length;
      if (words > limits.maxWords) throw refusal.words(limits);
    }
    return transcript;
  } catch (err) {
    if (err instanceof DocumentRefusedError) throw err;
    // A reader's own message (a stack overflow, a string too long) is not for the customer.
    const reason = err instanceof TranscriptImportError ? err.message : `it is not a readable .${extension} file`;
    throw new TranscriptImportError(`cannot read ${fileName}: ${reason}`);
  }
}

async function readByExtension(bytes: Uint8Array, extension: string, limits: DocumentLimits): Promise<Transcript> {
  switch (extension) {
    case 'json':
      return importJsonTranscript(decode(bytes), { words: true });
    case 'txt':
    case 'text':
      return importTextTranscript(decode(bytes));
    // Office documents: each document paragraph is a segment.
    case 'docx':
      checkZipContainer(bytes, limits);
      return fromParagraphs((await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value.split(/\n\n/));
    case 'odt':
      return fromParagraphs(odtParagraphs(checkZipContainer(bytes, limits, { format: 'odt', keep: ['content.xml'] }).get('content.xml')));
    case 'doc':
      return fromParagraphs((await new WordExtractor().extract(Buffer.from(bytes))).getBody({ filterUnicode: false }).split(/\r?\n/));
    case 'rtf':
      return fromParagraphs(rtfToText(decode(bytes), limits.maxNesting).split('\n'));
    case 'pdf':
      return importTextTranscript(await pdfText(bytes, limits));
    case 'html':
    case 'htm':
      return importTextTranscript(htmlText(decode(bytes)));
    case 'srt':
    case 'vtt':
      return importCaptions(decode(bytes));
    default:
      throw new TranscriptImportError(`.${extension} files are not accepted (accepted: ${IMPORTABLE_EXTENSIONS.join(', ')})`);
  }
}

/**
 * PDF text with its paragraphs: lines are rebuilt from the text items' positions, and a vertical
 * gap clearly larger than the line height starts a new paragraph.
 */
async function pdfText(bytes: Uint8Array, limits: DocumentLimits): Promise<string> {
  const paragraphs: string[] = [];
  let words = 0;
  await forEachPdfPage(bytes, limits, (items) => {
    const before = paragraphs.length;
    let line = '';
    let lastY: number | undefined;
    let lineHeight = 0;
    let paragraph: string[] = [];
    const endLine = () => {
      if (line.trim()) paragraph.push(line.trim());
      line = '';
    };
    const endParagraph = () => {
      endLine();
      if (paragraph.length) paragraphs.push(paragraph.join(' '));
      paragraph = [];
    };
    for (const item of items) {
      const y = item.transform[5]!;
      if (lastY !== undefined && Math.abs(lastY - y) > 0.5) {
        const gap = lastY - y;
        // A gap well beyond the line pitch, or a change of font size (a heading), ends a paragraph.
        const resized = Math.abs(item.height - lineHeight) > 0.15 * lineHeight;
        if (resized || gap > Math.min(lineHeight, item.height) * 1.5) endParagraph();
        else endLine();
      }
      if (item.str) {
        line += item.str;
        lineHeight = Math.max(item.height, 1);
        lastY = y;
      }
    }
    endParagraph();
    for (const p of paragraphs.slice(before)) words += p.split(' ').length;
    if (words > limits.maxWords) throw refusal.words(limits);
  });
  return paragraphs.join('\n\n');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The visible text of an HTML page, a paragraph per block (a page to translate; our own html
 * results, read back): no comments, scripts, styles, head, templates or drawings.
 */
function htmlText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|head|title|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|blockquote|section|article|header|footer)\s*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text);
}

/** Character references and the named entities of XML and common HTML, as their characters. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * The paragraphs and headings of an OpenDocument text (its content.xml, inflated by the ZIP guard):
 * the body only, without comments, tracked deletions or note markers (a note's text is a paragraph
 * of its own); ODF's space, tab and line-break elements as the characters they stand for.
 */
function odtParagraphs(content: Buffer | undefined): string[] {
  if (!content) throw new TranscriptImportError('it is not a readable .odt file (it has no content.xml)');
  const body = /<office:body>([\s\S]*)<\/office:body>/.exec(content.toString('utf8'))?.[1] ?? '';
  return decodeEntities(
    body
      .replace(/<(office:annotation|text:tracked-changes|text:note-citation)\b[\s\S]*?<\/\1>/g, '')
      // A footnote's text, inside its paragraph, is a paragraph of its own.
      .replace(/<text:note-body>/g, '\n\n')
      .replace(/<text:s\s+text:c="(\d{1,4})"\s*\/>/g, (_, n: string) => ' '.repeat(Number(n)))
      .replace(/<text:s\s*\/>/g, ' ')
      .replace(/<text:tab\s*\/>/g, '\t')
      .replace(/<text:line-break\s*\/>/g, '\n')
      .replace(/<\/text:(p|h)>/g, '\n\n')
      .replace(/<[^>]*>/g, ''),
  ).split(/\n\n/);
}

/** SRT or WebVTT cues as timed segments, their text without markup; a WebVTT voice tag names the speaker. */
function importCaptions(text: string): Transcript {
  const segments = parseCues(text)
    .map((cue) => {
      const voice = /^<v(?:\.[^ >]*)? ([^>]+)>/.exec(cue.text);
      // Markup is not text: WebVTT's tags and character references, SRT's {\an8}-style position codes.
      const plain = decodeEntities(cue.text.replace(/<[^>]+>/g, '').replace(/\{\\[^}]*\}/g, ''))
        .replace(/\s+/g, ' ')
        .trim();
      return { ...(voice ? { speaker: voice[1]!.trim() } : {}), start: cue.start, end: cue.end, text: plain };
    })
    .filter((s) => s.text);
  if (segments.length === 0) throw new TranscriptImportError('it holds no captions');
  return { segments };
}
