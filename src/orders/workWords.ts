// The words of a person's work with their times: the draft's timed words (kept in the file store
// when the work opened) carried onto the text as it is now. The editor shows them, and the delivered
// transcript has every word timed (src/domain/humanWork/wordTimes.ts).
import { z } from 'zod';
import type { OrderRow } from '../db/schema.js';
import { TranscriptImportError, type Transcript } from '../domain/transcript.js';
import { timedTranscript, type TimedParagraph } from '../domain/humanWork/wordTimes.js';
import type { FileStore } from '../storage/fileStore.js';

const timedParagraphs = z.array(
  z.object({
    speaker: z.string().optional(),
    words: z.array(z.object({ text: z.string(), start: z.number(), end: z.number(), confidence: z.number().optional() })),
  }),
);

/** The draft's timed words; undefined when the draft had no times (or was made before they were kept). */
export async function draftWordsOf(files: FileStore, order: Pick<OrderRow, 'draftWordsKey'>): Promise<TimedParagraph[] | undefined> {
  if (!order.draftWordsKey) return undefined;
  return timedParagraphs.parse(JSON.parse((await files.get(order.draftWordsKey)).toString('utf8'))) as TimedParagraph[];
}

/**
 * `text` (the editor's) with every word timed from the order's draft (a part's: the draft's words
 * in its span); undefined without draft times or text.
 */
export async function timedWork(
  files: FileStore,
  order: Pick<OrderRow, 'draftWordsKey'>,
  text: string,
  span?: { start: number; end: number },
): Promise<Transcript | undefined> {
  const draft = await draftWordsOf(files, order);
  if (!draft) return undefined;
  const inSpan = span ? draft.map((p) => ({ ...p, words: p.words.filter((w) => w.start >= span.start && w.start < span.end) })) : draft;
  try {
    return timedTranscript(inSpan, text);
  } catch (err) {
    if (err instanceof TranscriptImportError) return undefined;
    throw err;
  }
}
