// The spec's JSON transcript input, read into the transcript model with zod. Apart from
// transcript.ts, which the workflows import: each workflow evaluates its modules again, and zod's
// would cost every order (test/unit/workflowBundle.test.ts keeps it out).
import { z } from 'zod';
import { TranscriptImportError, type Transcript, type Word } from './transcript.js';

const seconds = z.number().nonnegative().finite();
const jsonWord = z
  .object({
    text: z.string().optional(),
    word: z.string().optional(),
    start: seconds.optional(),
    begin: seconds.optional(),
    end: seconds,
    // Our own json2 carries the engine's confidence; anything else there is dropped, not refused.
    confidence: z.unknown().optional(),
  })
  .refine((w) => (w.text ?? w.word)?.trim(), 'a word needs text')
  .refine((w) => (w.start ?? w.begin) !== undefined, 'a word needs start (or begin)');

// The spec imports text, speaker, start and end: any of them but text may be null or absent, and
// any other field, of any type, is ignored (clients send their own JSON, and ours back). Millisecond
// times and word timings are read where they are well formed and dropped where not.
const timing = seconds.nullish();
const jsonSegment = z.object({
  text: z.string({ error: 'text must be a string' }).trim().min(1, 'text must not be empty'),
  speaker: z.unknown().optional(),
  start: timing,
  end: timing,
  start_ms: z.unknown().optional(),
  end_ms: z.unknown().optional(),
  words: z.unknown().optional(),
});
const jsonWhole = z.object({
  text: z.string({ error: 'text is required' }).trim().min(1, 'text must not be empty'),
});
const jsonWordList = z.object({ words: z.array(jsonWord).min(1, 'no words') });

export interface JsonImportOptions {
  /**
   * Keep word timings (`words` of segments, or `{words: [...]}` alone). Customer transcripts
   * follow the spec, which imports only text, speaker, start and end; worker uploads keep words.
   */
  words?: boolean;
}

const confidence = z.number().min(0).max(1);
const toWord = (w: z.infer<typeof jsonWord>): Word => ({
  text: (w.text ?? w.word)!.trim(),
  start: (w.start ?? w.begin)!,
  end: w.end,
  ...(confidence.safeParse(w.confidence).success ? { confidence: w.confidence as number } : {}),
});

/** Milliseconds as seconds, where they are a time. */
const fromMs = (value: unknown): number | undefined => (seconds.safeParse(value).success ? (value as number) / 1000 : undefined);

/**
 * A segment's word timings where every word has text, a start and an end (WhisperX leaves some
 * words untimed): else none, and the segment keeps its own times.
 */
function wordsOf(value: unknown): Word[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const words: Word[] = [];
  for (const raw of value) {
    const parsed = jsonWord.safeParse(raw);
    if (!parsed.success) return undefined;
    words.push(toWord(parsed.data));
  }
  return words;
}

/**
 * The spec's JSON input: an array of segments, the same wrapped as `{segments: [...]}` (our own json
 * and json2 results), or `{text}`. Only text, speaker, start and end are kept (and word timings, when
 * asked); only a segment without a non-empty text is refused, by its number.
 */
export function importJsonTranscript(source: string, options: JsonImportOptions = {}): Transcript {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch {
    throw new TranscriptImportError('the JSON transcript is not valid JSON');
  }
  if (isObject(data) && Array.isArray(data.segments)) data = data.segments;
  if (Array.isArray(data)) {
    if (data.length === 0) throw new TranscriptImportError('the JSON transcript holds no segments');
    return {
      segments: data.map((raw, n) => {
        const parsed = jsonSegment.safeParse(raw);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const where = issue.path.length ? ` (${issue.path.join('.')})` : '';
          throw new TranscriptImportError(
            `the JSON transcript's segment ${n + 1}${where}: ${issue.path.length ? issue.message : 'must be an object with text'}`,
          );
        }
        const s = parsed.data;
        const start = s.start ?? fromMs(s.start_ms);
        const end = s.end ?? fromMs(s.end_ms);
        const words = options.words ? wordsOf(s.words) : undefined;
        const speaker = typeof s.speaker === 'string' ? s.speaker.trim() : undefined;
        return {
          text: s.text,
          ...(speaker ? { speaker } : {}),
          ...(start != null ? { start } : {}),
          ...(end != null ? { end } : {}),
          ...(words ? { words } : {}),
        };
      }),
    };
  }
  const fail = (error: z.ZodError): never => {
    const issue = error.issues[0]!;
    throw new TranscriptImportError(
      `the JSON transcript is not an array of segments or an object with text (${issue.path.join('.') || 'root'}: ${issue.message})`,
    );
  };
  if (options.words && isObject(data) && 'words' in data && !('text' in data)) {
    const parsed = jsonWordList.safeParse(data);
    if (!parsed.success) return fail(parsed.error);
    const words = parsed.data.words.map(toWord);
    return { segments: [{ text: words.map((w) => w.text).join(' '), start: words[0]!.start, end: words.at(-1)!.end, words }] };
  }
  const parsed = jsonWhole.safeParse(data);
  if (!parsed.success) return fail(parsed.error);
  return { segments: [{ text: parsed.data.text }] };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
