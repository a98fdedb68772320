// One transcript model in, a file of the requested format out.
import { RESULT_KIND_DEFINITIONS, type ResultKind } from '../resultKinds.js';
import { FILE_TYPES, type ResultFormat } from '../formats.js';
import type { Transcript } from '../transcript.js';
import { buildCues, keptCues, renderAlignment, renderSrt, renderTtml, renderVtt } from './captions.js';
import { renderDocx } from './documents.js';
import type { FontLibrary } from './fonts.js';
import { renderJson, renderJson2 } from './json.js';
import { layoutTranscript, type TextScript, type Timestamping } from './layout.js';
import { renderPdf } from './pdf.js';
import { renderHtml, renderRtf, renderText } from './text.js';

export { TimingError } from './captions.js';

/**
 * Raised when a renderer's output changes for the same input (2: PDFs in every script and SRT/WebVTT
 * direction marks, issue 30; 3: a PDF's layout within caps, issue 41): it is part of a download's
 * ETag, so a client holding the old file is not answered 304.
 */
export const RENDERER_VERSION = 3;

export interface RenderedFile {
  body: Buffer;
  contentType: string;
  extension: string;
  /** Characters no font covers (a PDF draws each as U+FFFD): the caller logs and counts them. */
  missingCharacters?: string[];
  /** Code points past a PDF's layout caps (caps.ts: marks on one letter, unbreakable words), left out: the caller logs them. */
  droppedCharacters?: number;
}

export interface RenderOptions {
  title: string;
  /** Timestamp marks of document formats; results other than transcriptions use not_required. */
  timestamping: Timestamping;
  /** BCP 47 tag of the text's language, where a format states it (TTML's xml:lang, HTML's and DOCX's lang); '' or absent: unknown. */
  language?: string;
  /** The text's writing direction, where a format states it (HTML, DOCX, TTML; a PDF aligns right-to-left paragraphs right); absent: ltr. */
  direction?: 'ltr' | 'rtl';
}

/** `fonts`: what a PDF is drawn with (src/documents/fonts.ts); the other formats need none. */
export async function renderResult(kind: ResultKind, t: Transcript, format: ResultFormat, options: RenderOptions, fonts: FontLibrary): Promise<RenderedFile> {
  const paragraphs = () => layoutTranscript(t, options.timestamping);
  // A translation's segments are its source's cues (a subtitle file translated): kept as they are.
  const cues = () => (kind === 'translation' ? keptCues(t) : buildCues(t));
  const script: TextScript = { language: options.language ?? '', direction: options.direction ?? 'ltr' };
  const utf8 = (s: string) => Buffer.from(s, 'utf8');
  let body: Buffer;
  let missingCharacters: string[] = [];
  let droppedCharacters = 0;
  switch (format) {
    case 'docx':
      body = await renderDocx(paragraphs(), options.title, script);
      break;
    case 'pdf':
      ({ body, missing: missingCharacters, dropped: droppedCharacters } = await renderPdf(paragraphs(), options.title, fonts, script));
      break;
    case 'doc':
      body = utf8(renderRtf(paragraphs(), options.title));
      break;
    case 'text':
      body = utf8(renderText(paragraphs()));
      break;
    case 'html':
      body = utf8(renderHtml(paragraphs(), options.title, script));
      break;
    case 'json':
      body = utf8(RESULT_KIND_DEFINITIONS[kind].needs === 'words' ? renderAlignment(t) : renderJson(t));
      break;
    case 'json2':
      body = utf8(renderJson2(t));
      break;
    case 'srt':
      body = utf8(renderSrt(cues(), script));
      break;
    case 'vtt':
      body = utf8(renderVtt(cues(), script));
      break;
    case 'ttml':
    case 'dfxp':
      body = utf8(renderTtml(cues(), script));
      break;
  }
  return { body, ...FILE_TYPES[format], ...(missingCharacters.length ? { missingCharacters } : {}), ...(droppedCharacters ? { droppedCharacters } : {}) };
}
