// The transcript model, and the plain-text importer. JSON is read in jsonTranscript.ts (kept apart:
// the workflows import this module, and each workflow evaluates its modules again, so zod stays out
// of them), binary document formats in src/documents/importers.ts, into the same model.

export interface Word {
  text: string;
  /** Seconds from the start of the media. */
  start: number;
  end: number;
  /** How sure the speech engine was of the word, 0 to 1 (its probability); absent when it did not say. */
  confidence?: number;
}

export interface Segment {
  speaker?: string;
  /** Seconds from the start of the media. */
  start?: number;
  end?: number;
  text: string;
  /** Word timings, when known (worker uploads, alignment). */
  words?: Word[];
}

export interface Transcript {
  segments: Segment[];
}

export class TranscriptImportError extends Error {}

const SPEAKER = String.raw`[\p{L}\p{N}][\p{L}\p{N} .'-]{0,40}`;
const MARK = String.raw`\[(\d{1,2}):(\d{2}):(\d{2})\]`;
const PARAGRAPH = new RegExp(`^(?:${MARK}\\s+)?(?:(${SPEAKER}):\\s+)?(.+)$`, 'u');
// (split() would return capture groups: the break pattern captures nothing.)
const PARAGRAPH_BREAK = new RegExp(String.raw`\r?\n\s*\r?\n|\r?\n(?=(?:\[\d{1,2}:\d{2}:\d{2}\]\s+)?${SPEAKER}:\s)`, 'u');

/**
 * Plain text: one segment per paragraph; `Name: words` at a paragraph's start names the speaker
 * and a leading `[hh:mm:ss]` gives its start (the form the document renderers write).
 */
export function importTextTranscript(source: string): Transcript {
  return fromParagraphs(source.replace(/^\uFEFF/, '').split(PARAGRAPH_BREAK));
}

/** Paragraphs of an extracted document into segments (shared by the document importers). */
export function fromParagraphs(paragraphs: string[]): Transcript {
  const cleaned = paragraphs.map((p) => p.replace(/\s+/g, ' ').trim()).filter(Boolean);
  if (cleaned.length === 0) throw new TranscriptImportError('the transcript is empty');
  return {
    segments: cleaned.map((p) => {
      const [, h, m, s, speaker, text] = PARAGRAPH.exec(p)!;
      const start = h !== undefined ? Number(h) * 3600 + Number(m) * 60 + Number(s) : undefined;
      return { ...(speaker ? { speaker } : {}), ...(start !== undefined ? { start } : {}), text: text! };
    }),
  };
}

/** All words of a transcript with times, or undefined when any segment lacks word timings. */
export function timedWords(t: Transcript): Word[] | undefined {
  if (!t.segments.every((s) => s.words && s.words.length > 0)) return undefined;
  return t.segments.flatMap((s) => s.words!);
}
