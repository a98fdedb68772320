// Machine fulfilment: a speech engine transcribes AI orders and gives the word timings that
// forced alignment needs. The workflow decides what an outcome means for the order.
import { ApplicationFailure, Context, log } from '@temporalio/activity';
import { engineWork, MEDIA_REFUSED } from './engineWork.js';
import type { ActivityDeps } from './deps.js';
import { addOrderParams, assignOrder, getOrder, keepInputFile, noteEngineFinding, reestimateForPeople, setDraftWords, setPlannedWork } from '../db/orders.js';
import { peopleTurnaroundHours } from '../orders/handOff.js';
import type { EngineProgress, PeopleWork, WorkPlan } from '../contracts/orders.js';
import { peopleWorkFor, type EngineOutcome } from '../contracts/handOver.js';
import { languageCodeOf, languageNameOf } from '../domain/languages.js';
import { renderJson2 } from '../domain/render/json.js';
import { engineTranscriptToModel, isSilent } from '../engines/transcript.js';
import { EngineRejectedError, type EngineTranscript, type SpeechEngine, type TranscribeRequest } from '../engines/types.js';
import type { InputFile, OrderRow } from '../db/schema.js';
import { keptSourceOf, orderResultKinds, productOf } from '../products/registry.js';
import { languagesOf, workPlanOf } from '../products/shared.js';
import { transcriptFromEditor } from '../domain/humanWork/editorText.js';
import { withWordTimes } from '../domain/timing.js';
import { TranscriptImportError, type Transcript } from '../domain/transcript.js';
import { timedAndTyped, timedParagraphsOf, withAlignedTypedWords } from '../domain/humanWork/wordTimes.js';
import { draftWordsOf } from '../orders/workWords.js';
import { forOrder } from '../db/orderBlobs.js';
import { compareTranscripts, TRANSCRIPT_CHECK, transcriptCheckPasses } from '../engines/compare.js';
import { machineTranslates, personTranslates, spokenLanguagePlan } from '../orders/spokenLanguage.js';
import { checkTranscript, describeFigures } from '../engines/gate.js';

/** What the engine delivers in the ordered language, or what a person needs to do it. */
type Delivery = EngineTranscript | { needsPerson: string; heard: EngineTranscript; spoken: string };

export function createEngineActivities(deps: ActivityDeps) {
  const { db, files, engines, documentReader } = deps;
  const { engineRequest, requireOrder, mediaRequest, heartbeating } = engineWork(deps);

  /**
   * `transcript`'s words placed on the order's audio by the aligner, made into the result by `timed`;
   * null when no aligner is configured, the language has no code, or the text does not fit the audio.
   */
  async function timedByAligner(
    order: OrderRow,
    transcript: Transcript,
    what: string,
    timed: (words: Array<{ word: string; begin: number; end: number }>) => Transcript | undefined,
  ): Promise<Transcript | null> {
    const aligner = engines.alignment;
    const request = aligner && mediaRequest(order, aligner.name);
    if (!aligner || !request) return null;
    const context = { orderId: order.id, accountId: order.accountId };
    return heartbeating(order, aligner.name, 'aligning', async () => {
      try {
        const words = await aligner.align({ ...(await request()), text: transcript.segments.map((s) => s.text).join('\n') });
        const result = timed(words);
        if (!result) throw new EngineRejectedError(`the aligner gave ${words.length} words for a text of other words`);
        log.info(`${what}: timed by the aligner`, { ...context, words: words.length });
        return result;
      } catch (err) {
        if (!(err instanceof EngineRejectedError)) throw err;
        log.warn(`the aligner could not time ${what}: the times it has serve`, { ...context, reason: err.message });
        return null;
      }
    });
  }

  /** The supplied transcript against the engine's own; the figures and the verdict noted on the order. */
  async function checkAgainstEngine(
    order: OrderRow,
    kept: InputFile,
    speech: SpeechEngine,
    request: () => Promise<TranscribeRequest>,
  ): Promise<{ verdict: 'pass' | 'fail' | 'unavailable' }> {
    try {
      const supplied = await documentReader.importDocument(await files.get(kept.key), kept.fileName);
      const heard = await speech.transcribe(await request());
      if (isSilent(heard)) return { verdict: 'unavailable' };
      const c = compareTranscripts(
        supplied.segments.map((s) => s.text).join('\n'),
        heard.segments.flatMap((s) => s.words),
        order.params.vocabulary,
      );
      const verdict = transcriptCheckPasses(c) ? 'pass' : 'fail';
      const figures = `WER ${c.wer.toFixed(2)} against the engine's transcript, ${Math.round(c.coverage * 100)}% of the speech covered`;
      const limits = `it fails above WER ${TRANSCRIPT_CHECK.maxWer.toFixed(2)} or below ${TRANSCRIPT_CHECK.minCoverage * 100}%`;
      await noteEngineFinding(
        db,
        order.id,
        `Automatic check of the supplied transcript: ${figures} (${limits}): ${verdict === 'pass' ? "passed; it is the proofreader's draft" : 'failed'}.`,
      );
      log.info('supplied transcript checked', { orderId: order.id, accountId: order.accountId, wer: c.wer, coverage: c.coverage, verdict });
      return { verdict };
    } catch (err) {
      if (err instanceof EngineRejectedError) return { verdict: 'unavailable' };
      throw err;
    }
  }

  /**
   * The transcript in the ordered language, never a forced one, as the language policy decides
   * (spokenLanguagePlan, src/orders/spokenLanguage.ts), and never one that fails the transcript
   * gate (src/engines/gate.ts): the other route to English is tried, then a person does the work
   * from the engine's transcript. What was measured and done is noted on the order.
   */
  async function transcribeInOrderedLanguage(orderId: number, audio: Omit<TranscribeRequest, 'language'>, ordered: string): Promise<Delivery> {
    const speech = engines.speech!;
    const heard = await speech.transcribe(audio);
    if (isSilent(heard)) return heard;
    const spoken = languageCodeOf(heard.language);
    const translator = spoken ? engines.translators?.covering(spoken, ordered) : undefined;
    let plan = spokenLanguagePlan(heard, ordered, translator?.name);
    /** Why the plan changed (a route held back by the gate), said before the plan's own note. */
    let held = '';
    const afterHeld = (text: string) => (held ? `${held} ${text}` : text);
    const note = (text: string) => noteEngineFinding(db, orderId, afterHeld(text));
    const gated = (what: string, t: EngineTranscript) => {
      const verdict = checkTranscript(t, audio.vocabulary);
      log.info('transcript gate', { orderId, what, passes: verdict.passes, ...verdict.figures });
      if (!verdict.passes) held += `${what} failed the transcript gate (${verdict.failures.join('; ')}; measured: ${describeFigures(verdict.figures)}).`;
      return verdict.passes;
    };

    if (plan.do === 'as-heard' || plan.do === 'transcribe-as-ordered') {
      const transcript = plan.do === 'as-heard' ? heard : await speech.transcribe({ ...audio, language: ordered });
      if (gated(`The engine's ${languageNameOf(ordered)} transcript`, transcript)) {
        if (plan.do !== 'as-heard') await note(plan.note);
        return transcript;
      }
      const why = `a person transcribes the ${languageNameOf(ordered)} speech from the engine's draft.`;
      await note(plan.do === 'as-heard' ? `It is not delivered: ${why}` : `${plan.note} It is not delivered: ${why}`);
      return { needsPerson: held, heard: transcript, spoken: ordered };
    }
    if (plan.do === 'english-translation') {
      const translated = await speech.translateToEnglish(audio);
      if (gated("The engine's English translation", translated)) {
        await note(plan.note);
        return translated;
      }
      plan = translator ? machineTranslates(spoken!, ordered, translator.name) : personTranslates(spoken!, ordered);
    }
    if (plan.do === 'machine-translation' && translator && gated(`The engine's ${languageNameOf(plan.from)} transcript`, heard)) {
      try {
        const texts = await translator.translate({
          texts: heard.segments.map((s) => s.text),
          from: plan.from,
          to: ordered,
          ...(audio.vocabulary ? { vocabulary: audio.vocabulary } : {}),
          timeoutMs: audio.timeoutMs,
          ...(audio.signal ? { signal: audio.signal } : {}),
        });
        // The words' times and the decoder's figures belong to the spoken words: the segments keep
        // their times only, and the gate reads the translation's own text (its repetition).
        const translated: EngineTranscript = {
          language: ordered,
          segments: heard.segments.map((s, i) => ({ start: s.start, end: s.end, text: texts[i] ?? '', words: [] })),
          ...(heard.duration !== undefined ? { duration: heard.duration } : {}),
        };
        if (gated(`${translator.name}'s machine translation`, translated)) {
          await note(plan.note);
          log.info('spoken language differs: machine translation of the transcript', { orderId, spoken, ordered, translator: translator.name });
          return translated;
        }
      } catch (err) {
        // The translator refused this text: a person translates it rather than the order being refunded.
        if (!(err instanceof EngineRejectedError)) throw err;
        log.warn('the machine translation was refused: a person translates', { orderId, spoken, ordered, translator: translator.name, error: err.message });
      }
    }
    const person = personTranslates(plan.from, ordered);
    await note(person.note);
    log.warn('the work goes to a person translator', { orderId, spoken, ordered });
    return { needsPerson: afterHeld(person.note), heard, spoken: person.from };
  }

  /**
   * The work of a translator for an AI order whose speech no engine translates: the engine's
   * transcript kept as the order's source (and the translator's draft), the spoken language on the
   * order; the workflow runs it in the workbench (or leaves it to an operator, as before).
   */
  async function translatorWork(order: OrderRow, { heard, spoken }: { heard: EngineTranscript; spoken: string }): Promise<WorkPlan | undefined> {
    if (isSilent(heard)) return undefined;
    // As json2: the person's draft keeps the words' times and confidences, so the editor marks the doubtful ones.
    const key = await files.put(Buffer.from(renderJson2(engineTranscriptToModel(heard))), forOrder(db, order.id));
    await keepInputFile(db, order.id, 'source', { key, fileName: 'engine-transcript.json', contentType: 'application/json' });
    const learnt = { spoken_language: languageNameOf(spoken) };
    await addOrderParams(db, order.id, learnt);
    await assignOrder(db, order.id, 'operator');
    // The plan for the learnt language, from the product (the placement's had no people in it).
    const work = workPlanOf(productOf(order.product).work, { ...order.params, ...learnt });
    if (work) await setPlannedWork(db, order.id, work);
    return work;
  }

  return {
    async fulfilByEngine({ orderId }: { orderId: number }): Promise<EngineOutcome> {
      const order = await requireOrder(orderId);
      const job = productOf(order.product).engineJob;
      if (!job) throw ApplicationFailure.nonRetryable(`order ${orderId}: ${order.product} has no engine job`);
      // The language the result is ordered in: what the engine is asked to deliver.
      const language = languagesOf(order.params).result;
      if (!language) throw ApplicationFailure.nonRetryable(`order ${orderId} names no language`);
      const engine = job.task === 'align' ? engines.alignment : engines.speech;
      if (!engine) return { outcome: 'unavailable' };
      // The engine's file serves every result kind the order delivers.
      const resultFiles = (blobKey: string, fileName: string) => orderResultKinds(order).map((kind) => ({ kind, blobKey, fileName }));
      const request = () => engineRequest(order, engine.name, language);
      // Heartbeats report progress (order-ops show) and carry the workflow's cancellation (the
      // order refunded or canceled) to the engine call.
      const started = Date.now();
      let phase: EngineProgress['phase'] = 'fetching';
      const context = Context.current();
      const beat = () =>
        context.heartbeat({ phase, engine: engine.name, audioSeconds: order.seconds, elapsedMs: Date.now() - started } satisfies EngineProgress);
      beat();
      const beating = setInterval(beat, 2_000);
      try {
        if (job.task === 'transcribe') {
          const { language: ordered, ...audio } = await request();
          phase = 'transcribing';
          beat();
          const result = await transcribeInOrderedLanguage(orderId, audio, ordered);
          if ('needsPerson' in result) {
            const translator = await translatorWork(order, result);
            return { outcome: 'unavailable', reason: result.needsPerson, translator, people: peopleWorkFor(result.spoken, ordered) };
          }
          if (isSilent(result)) return { outcome: 'rejected', reason: 'no speech was found in the file' };
          const key = await files.put(Buffer.from(renderJson2(engineTranscriptToModel(result))), forOrder(db, orderId));
          return { outcome: 'finished', files: resultFiles(key, 'engine-transcript.json') };
        }
        // Alignment: the known words placed on the words the engine heard.
        const input = order.inputFiles[job.textInput];
        if (!input) throw ApplicationFailure.nonRetryable(`order ${orderId} has no ${job.textInput} to align`);
        const known = await documentReader.importDocument(await files.get(input.key), input.fileName);
        const audio = await request();
        phase = 'aligning';
        beat();
        const words = await engines.alignment!.align({ ...audio, text: known.segments.map((s) => s.text).join('\n') });
        const key = await files.put(Buffer.from(JSON.stringify({ words })), forOrder(db, orderId));
        return { outcome: 'finished', files: resultFiles(key, 'alignment.json') };
      } catch (err) {
        if (err instanceof EngineRejectedError) {
          return { outcome: 'rejected', reason: job.task === 'align' ? err.message : `the engine cannot transcribe the file: ${err.message}` };
        }
        if (err instanceof ApplicationFailure && err.type === MEDIA_REFUSED) return { outcome: 'rejected', reason: err.message };
        throw err;
      } finally {
        clearInterval(beating);
      }
    },

    /**
     * Times a person's approved text by the aligner (captions typed without times): its words
     * placed on the order's audio, kept as a timed transcript. null when no aligner is configured,
     * the language has no code, or the text does not fit the audio: the text's own marks serve then.
     */
    async timeWork({ orderId, text }: { orderId: number; text: string }): Promise<string | null> {
      const order = await requireOrder(orderId);
      const transcript = transcriptFromEditor(text, order.seconds || undefined);
      const timed = await timedByAligner(order, transcript, 'the approved text', (words) => withWordTimes(transcript, words));
      return timed && (await files.put(Buffer.from(renderJson2(timed)), forOrder(db, orderId)));
    },

    /**
     * The words people typed into a timed draft, timed by the aligner (till then they have times
     * between their kept neighbours): the text as a timed transcript, the kept words with the
     * draft's own times; its key. At a submission (`rebase`), the result becomes instead the words
     * the next stage starts from, so the reviewer's editor and every later edit keep those times (and
     * null is answered). null when nothing was typed, the draft had no times, no aligner is configured
     * or the text does not fit the audio: the interpolated times serve then.
     */
    async timeTypedWords({ orderId, text, rebase = false }: { orderId: number; text: string; rebase?: boolean }): Promise<string | null> {
      const order = await requireOrder(orderId);
      const draft = await draftWordsOf(files, order);
      if (!draft) return null;
      let timed: ReturnType<typeof timedAndTyped>;
      try {
        timed = timedAndTyped(draft, text);
      } catch (err) {
        if (err instanceof TranscriptImportError) return null;
        throw err;
      }
      const typed = timed.typed.filter(Boolean).length;
      if (!typed) return null;
      const aligned = await timedByAligner(order, timed.transcript, `${typed} words typed by people`, (words) => withAlignedTypedWords(timed, words));
      if (!aligned) return null;
      if (!rebase) return files.put(Buffer.from(renderJson2(aligned)), forOrder(db, orderId));
      const paragraphs = timedParagraphsOf(aligned);
      if (paragraphs) await setDraftWords(db, orderId, await files.put(Buffer.from(JSON.stringify(paragraphs)), forOrder(db, orderId)));
      return null;
    },

    /**
     * The automatic check of a proofreading order's supplied transcript: compared with the speech
     * engine's own transcript of the audio (WER and the share of the speech covered, compare.ts).
     * `unavailable` (no engine, a language without a code, no speech heard): the people decide.
     * The figures and the verdict are noted on the order.
     */
    async checkSuppliedTranscript({ orderId }: { orderId: number }): Promise<{ verdict: 'pass' | 'fail' | 'unavailable' }> {
      const order = await requireOrder(orderId);
      const kept = keptSourceOf(order);
      const speech = engines.speech;
      const request = speech && mediaRequest(order, speech.name);
      if (!speech || !request || !kept) return { verdict: 'unavailable' };
      return heartbeating(order, speech.name, 'transcribing', () => checkAgainstEngine(order, kept, speech, request));
    },

    /**
     * An engine order handed to people: a new delivery estimate from their work's turnaround, with
     * why (the record, the timeline and the callback show them); answers it. Repeated, the first stands.
     */
    async reestimateForPeople({ orderId, work, reason }: { orderId: number; work: PeopleWork; reason: string }): Promise<{ deliveryEstimate: string }> {
      const order = await requireOrder(orderId);
      if (order.handedOverAt && order.deliveryEstimate) return { deliveryEstimate: order.deliveryEstimate.toISOString() };
      const estimate = new Date(Date.now() + peopleTurnaroundHours(work) * 3_600_000);
      await reestimateForPeople(db, orderId, estimate, reason);
      log.info('the order was handed to people: a new delivery estimate', {
        orderId,
        accountId: order.accountId,
        work,
        deliveryEstimate: estimate.toISOString(),
        reason,
      });
      return { deliveryEstimate: estimate.toISOString() };
    },

    /** No engine, or one that kept failing: a person takes the order over rather than it being lost. */
    async handToOperator({ orderId, reason }: { orderId: number; reason: string }): Promise<void> {
      await assignOrder(db, orderId, 'operator');
      log.warn('the order waits for an operator', { orderId, accountId: (await getOrder(db, orderId))?.accountId, reason });
    },
  };
}
