// Reads uploaded result and transcript files into the transcript model, by file type:
// JSON (spec format, plus word timings), text, DOCX, DOC, RTF, PDF, SRT and WebVTT.
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { parseSync } from 'subtitle';
import { rtfToText } from './rtf.js';
import { forEachPdfPage } from './pdf.js';
import { checkZipContainer } from './zipGuard.js';
import { DEFAULT_DOCUMENT_LIMITS, DocumentRefusedError, refusal, type DocumentLimits } from './limits.js';
import { fromParagraphs, importTextTranscript, TranscriptImportError, type Transcript } from '../domain/transcript.js';
import { importJsonTranscript } from '../domain/jsonTranscript.js';

const IMPORTABLE_EXTENSIONS = ['json', 'txt', 'text', 'docx', 'doc', 'rtf', 'pdf', 'html', 'srt', 'vtt'] as const;

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
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|head|title|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|blockquote|section|article|header|footer)\s*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
}

/** SRT or WebVTT cues as timed segments; a WebVTT voice tag names the speaker. */
function importCaptions(text: string): Transcript {
  const cues = parseSync(text.replace(/^\uFEFF/, '')).filter((node) => node.type === 'cue');
  const segments = cues
    .map((node) => {
      const cue = node.data as { start: number; end: number; text: string };
      const voice = /^<v(?:\.[^ >]*)? ([^>]+)>/.exec(cue.text);
      const plain = cue.text
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      return { ...(voice ? { speaker: voice[1]!.trim() } : {}), start: cue.start / 1000, end: cue.end / 1000, text: plain };
    })
    .filter((s) => s.text);
  if (segments.length === 0) throw new TranscriptImportError('it holds no captions');
  return { segments };
}
