// The transcript model and importers for what workers upload. (Result formats: src/domain/render.)
import { z } from 'zod';

export interface Segment {
  speaker?: string;
  /** Seconds from the start of the media. */
  start?: number;
  end?: number;
  text: string;
}

export interface Transcript { segments: Segment[] }

export class TranscriptImportError extends Error {}

const jsonSegment = z.object({
  text: z.string().trim().min(1, 'text must not be empty'),
  speaker: z.string().optional(),
  start: z.number().nonnegative().optional(),
  end: z.number().nonnegative().optional(),
  start_ms: z.number().nonnegative().optional(),
  end_ms: z.number().nonnegative().optional(),
});
const jsonSegments = z.array(jsonSegment).min(1, 'no segments');
const jsonWhole = z.object({ text: z.string({ error: 'text is required' }).trim().min(1, 'text must not be empty') });

/** The spec's JSON input: an array of segments or `{text}`; only text, speaker, start, end are kept. */
export function importJsonTranscript(source: string): Transcript {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch {
    throw new TranscriptImportError('the JSON transcript is not valid JSON');
  }
  // The schema is chosen by shape, so the error names the real problem.
  const parsed = Array.isArray(data) ? jsonSegments.safeParse(data) : jsonWhole.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TranscriptImportError(`the JSON transcript is not an array of segments or an object with text (${issue.path.join('.') || 'root'}: ${issue.message})`);
  }
  if (!Array.isArray(parsed.data)) return { segments: [{ text: parsed.data.text }] };
  return {
    segments: parsed.data.map((s: z.infer<typeof jsonSegment>) => {
      const start = s.start ?? (s.start_ms !== undefined ? s.start_ms / 1000 : undefined);
      const end = s.end ?? (s.end_ms !== undefined ? s.end_ms / 1000 : undefined);
      return { text: s.text, ...(s.speaker ? { speaker: s.speaker } : {}), ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) };
    }),
  };
}

const SPEAKER_LINE = /^([\p{L}\p{N}][\p{L}\p{N} .'-]{0,40}):\s+(.+)$/u;

/** Plain text: one segment per paragraph; `Name: words` at a paragraph's start names the speaker. */
export function importTextTranscript(source: string): Transcript {
  const paragraphs = source.replace(/^\uFEFF/, '').split(/\r?\n\s*\r?\n|\r?\n(?=[\p{L}\p{N}][\p{L}\p{N} .'-]{0,40}:\s)/u)
    .map((p) => p.replace(/\s+/g, ' ').trim()).filter(Boolean);
  if (paragraphs.length === 0) throw new TranscriptImportError('the transcript is empty');
  return {
    segments: paragraphs.map((p) => {
      const match = SPEAKER_LINE.exec(p);
      return match ? { speaker: match[1]!, text: match[2]! } : { text: p };
    }),
  };
}

export function importTranscript(bytes: Uint8Array, fileName: string): Transcript {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (/\.json$/i.test(fileName)) return importJsonTranscript(text);
  if (/\.(txt|text)$/i.test(fileName) || !/\.[a-z0-9]+$/i.test(fileName)) return importTextTranscript(text);
  throw new TranscriptImportError(`cannot read ${fileName}: transcripts are accepted as .txt or .json`);
}
