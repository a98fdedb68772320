// What each result kind is served as: its formats, the default, and each format's file type.
import type { ResultKind } from './catalog.js';

export const FILE_TYPES = {
  docx: { extension: 'docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  // `.doc` is served as RTF, which Word and LibreOffice open as a .doc (docs/formats.md).
  doc: { extension: 'doc', contentType: 'application/msword' },
  pdf: { extension: 'pdf', contentType: 'application/pdf' },
  text: { extension: 'txt', contentType: 'text/plain; charset=utf-8' },
  html: { extension: 'html', contentType: 'text/html; charset=utf-8' },
  json: { extension: 'json', contentType: 'application/json; charset=utf-8' },
  json2: { extension: 'json', contentType: 'application/json; charset=utf-8' },
  srt: { extension: 'srt', contentType: 'application/x-subrip; charset=utf-8' },
  vtt: { extension: 'vtt', contentType: 'text/vtt; charset=utf-8' },
} as const;

export type ResultFormat = keyof typeof FILE_TYPES;

const TRANSCRIPT: readonly ResultFormat[] = ['docx', 'doc', 'pdf', 'text', 'html', 'json', 'json2'];
const CAPTIONS: readonly ResultFormat[] = ['srt', 'vtt'];
const DOCUMENT: readonly ResultFormat[] = ['docx', 'pdf', 'text'];

/** Allowed formats per result kind; the first is the default. */
export const KIND_FORMATS: Readonly<Record<ResultKind, readonly ResultFormat[]>> = {
  transcription: TRANSCRIPT,
  proofread_transcription: TRANSCRIPT.filter((f) => f !== 'json2'),
  captions: CAPTIONS,
  proofread_captions: CAPTIONS,
  subtitles: CAPTIONS,
  translation: DOCUMENT,
  human_ocr: DOCUMENT,
  forced_alignment: ['json'],
};
