// Machine fulfilment: a speech engine transcribes AI orders and gives the word timings that
// forced alignment needs. The workflow decides what an outcome means for the order.
import { ApplicationFailure, Context, log } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';
import { assignOrder, getOrder } from '../db/orders.js';
import { engineDeadlineMs, type EngineProgress, type ResultFile } from '../contracts/orders.js';
import { ISO_639_1 } from '../domain/languages.js';
import { renderJson2 } from '../domain/render/json.js';
import { engineTranscriptToModel, isSilent } from '../engines/transcript.js';
import { EngineRejectedError } from '../engines/types.js';
import { productOf, workPlanOfOrder } from '../products/registry.js';
import { editorText, transcriptFromEditor } from '../domain/workbench.js';
import { withWordTimes } from '../domain/timing.js';

/** `unavailable`: no engine is configured, the order now waits for an operator. */
export type EngineOutcome =
  | { outcome: 'finished'; files: ResultFile[] }
  | { outcome: 'rejected'; reason: string }
  | { outcome: 'unavailable' };

export function createEngineActivities({ db, files, engines, media, outbound, documentReader }: ActivityDeps) {
  /** The order's audio and language, as an engine request with a deadline that grows with the audio. */
  async function engineRequest(ids: { orderId: number; accountId: number }, engine: string, url: string, language: string, seconds: number) {
    const audio = await outbound.fetchCustomerFile(url, 'audio', media);
    const code = ISO_639_1[language];
    if (!code) throw ApplicationFailure.nonRetryable(`no language code for ${language}`);
    log.info('engine at work', { ...ids, engine, bytes: audio.bytes.length, language: code });
    return {
      audio: audio.bytes, fileName: new URL(url).pathname.split('/').pop() || 'audio', ...(audio.contentType ? { contentType: audio.contentType } : {}),
      language: code, timeoutMs: engineDeadlineMs(seconds), signal: Context.current().cancellationSignal,
    };
  }

  return {
    async fulfilByEngine({ orderId }: { orderId: number }): Promise<EngineOutcome> {
      const order = await getOrder(db, orderId);
      if (!order) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`);
      const params = order.params as Record<string, string>;
      const product = productOf(order.product);
      const job = product.engineJob;
      if (!job) throw ApplicationFailure.nonRetryable(`order ${orderId}: ${order.product} has no engine job`);
      const engine = job.task === 'align' ? engines.alignment : engines.speech;
      if (!engine) return { outcome: 'unavailable' };
      // The engine's file serves every result kind the order delivers.
      const resultFiles = (blobKey: string, fileName: string) => product.results(order.params).map(({ kind }) => ({ kind, blobKey, fileName }));
      const request = () => engineRequest({ orderId, accountId: order.accountId }, engine.name, params[job.audioParam]!, params.language!, order.seconds);
      // Heartbeats report progress (order-ops show) and carry the workflow's cancellation (the
      // order refunded or canceled) to the engine call.
      const started = Date.now();
      let phase: EngineProgress['phase'] = 'fetching';
      const context = Context.current();
      const beat = () => context.heartbeat({ phase, engine: engine.name, audioSeconds: order.seconds, elapsedMs: Date.now() - started } satisfies EngineProgress);
      beat();
      const beating = setInterval(beat, 2_000);
      try {
        if (job.task === 'transcribe') {
          const audio = await request();
          phase = 'transcribing';
          beat();
          const result = await engines.speech!.transcribe(audio);
          if (isSilent(result)) return { outcome: 'rejected', reason: 'no speech was found in the file' };
          const key = await files.put(Buffer.from(renderJson2(engineTranscriptToModel(result))));
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
        const key = await files.put(Buffer.from(JSON.stringify({ words })));
        return { outcome: 'finished', files: resultFiles(key, 'alignment.json') };
      } catch (err) {
        if (err instanceof EngineRejectedError) {
          return { outcome: 'rejected', reason: job.task === 'align' ? err.message : `the engine cannot transcribe the file: ${err.message}` };
        }
        throw err;
      } finally {
        clearInterval(beating);
      }
    },

    /**
     * The machine draft of a workbench order: the speech engine's transcript of its media, with
     * times, as editor text. Empty when no engine is configured or it hears no speech.
     */
    async draftTranscript({ orderId }: { orderId: number }): Promise<string> {
      const order = await getOrder(db, orderId);
      if (!order) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`);
      const mediaParam = workPlanOfOrder(order)?.mediaParam;
      const params = order.params as Record<string, string>;
      if (!engines.speech || !mediaParam) return '';
      const context = Context.current();
      const started = Date.now();
      const beating = setInterval(() => context.heartbeat({ phase: 'transcribing', engine: engines.speech!.name, audioSeconds: order.seconds, elapsedMs: Date.now() - started } satisfies EngineProgress), 2_000);
      try {
        const audio = await engineRequest({ orderId, accountId: order.accountId }, engines.speech.name, params[mediaParam]!, params.language!, order.seconds);
        const result = await engines.speech.transcribe(audio);
        return isSilent(result) ? '' : editorText(engineTranscriptToModel(result));
      } catch (err) {
        if (err instanceof EngineRejectedError) return '';
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
      const order = await getOrder(db, orderId);
      if (!order) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`);
      const mediaParam = workPlanOfOrder(order)?.mediaParam;
      const params = order.params as Record<string, string>;
      if (!engines.alignment || !mediaParam || !ISO_639_1[params.language ?? '']) return null;
      const transcript = transcriptFromEditor(text, order.seconds || undefined);
      const context = Context.current();
      const started = Date.now();
      const beating = setInterval(() => context.heartbeat({ phase: 'aligning', engine: engines.alignment!.name, audioSeconds: order.seconds, elapsedMs: Date.now() - started } satisfies EngineProgress), 2_000);
      try {
        const audio = await engineRequest({ orderId, accountId: order.accountId }, engines.alignment.name, params[mediaParam]!, params.language!, order.seconds);
        const words = await engines.alignment.align({ ...audio, text: transcript.segments.map((s) => s.text).join('\n') });
        const timed = withWordTimes(transcript, words);
        if (!timed) throw new EngineRejectedError(`the aligner gave ${words.length} words for the text's ${transcript.segments.map((s) => s.text).join(' ').split(/\s+/).filter(Boolean).length}`);
        log.info('the approved text is timed by the aligner', { orderId, accountId: order.accountId, words: words.length });
        return await files.put(Buffer.from(renderJson2(timed)));
      } catch (err) {
        if (!(err instanceof EngineRejectedError)) throw err;
        log.warn('the aligner could not time the approved text: its own marks serve', { orderId, accountId: order.accountId, reason: err.message });
        return null;
      } finally {
        clearInterval(beating);
      }
    },

    /** No engine, or one that kept failing: a person takes the order over rather than it being lost. */
    async handToOperator({ orderId, reason }: { orderId: number; reason: string }): Promise<void> {
      await assignOrder(db, orderId, 'operator');
      log.warn('the order waits for an operator', { orderId, accountId: (await getOrder(db, orderId))?.accountId, reason });
    },
  };
}
