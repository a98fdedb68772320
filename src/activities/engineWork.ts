// What the engine activities share: the order looked up, its one copy of its media as an engine request,
// and a heartbeat while an engine works.
import { ApplicationFailure, Context, log } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';
import { getOrder } from '../db/orders.js';
import { engineDeadlineMs, type EngineProgress } from '../contracts/orders.js';
import { ISO_639_1 } from '../domain/languages.js';
import type { OrderRow } from '../db/schema.js';
import { workPlanOfOrder } from '../products/registry.js';
import { languagesOf } from '../products/shared.js';
import { MediaRefusedError, orderMedia } from '../orders/orderMedia.js';
import { FetchError } from '../net/outbound.js';

/** The failure type of an order whose media is not audio or video by its bytes. */
export const MEDIA_REFUSED = 'MediaRefused';

/** Whether the running activity's retry policy allows no further attempt. */
function lastAttempt(): boolean {
  const { attempt, retryPolicy } = Context.current().info;
  return retryPolicy?.maximumAttempts !== undefined && retryPolicy.maximumAttempts > 0 && attempt >= retryPolicy.maximumAttempts;
}

/** The language spoken in an order's media (languagesOf's source). */
export const spokenLanguageOf = (order: OrderRow): string | undefined => languagesOf(order.params).source;

export function engineWork(deps: Pick<ActivityDeps, 'db' | 'files' | 'media' | 'outbound' | 'audioRenderer' | 'documentReader'>) {
  const { db, files } = deps;
  /**
   * The order's audio and language, as an engine request with a deadline that grows with the audio:
   * the order's one copy of its media (fetched once, a video reduced to its audio: orderMedia.ts).
   */
  async function engineRequest(order: OrderRow, engine: string, language: string, background = false) {
    const media = await orderMedia(deps, order, { background }).catch((err: unknown) => {
      // Not audio or video by its bytes: no retry changes that (an AI order is refunded, a draft left out).
      if (err instanceof MediaRefusedError) throw ApplicationFailure.nonRetryable(err.message, MEDIA_REFUSED);
      // The customer's server would not give the file whole, on this activity's last attempt too: the same.
      if (err instanceof FetchError && lastAttempt()) {
        throw ApplicationFailure.nonRetryable(`the customer's media could not be fetched (${err.message})`, MEDIA_REFUSED);
      }
      throw err;
    });
    if (!media) throw ApplicationFailure.nonRetryable(`order ${order.id} has no media`);
    const audio = await files.blob(media.key); // read from disk as it is sent, never whole in memory
    const code = ISO_639_1[language];
    if (!code) throw ApplicationFailure.nonRetryable(`no language code for ${language}`);
    log.info('engine at work', { orderId: order.id, accountId: order.accountId, engine, bytes: audio.size, language: code });
    return {
      audio,
      fileName: media.fileName,
      ...(media.contentType ? { contentType: media.contentType } : {}),
      language: code,
      // The customer's terms steer what the engine hears (names spelled as listed).
      ...(order.params.vocabulary?.length ? { vocabulary: order.params.vocabulary } : {}),
      timeoutMs: engineDeadlineMs(order),
      signal: Context.current().cancellationSignal,
      ...(background && { background }),
    };
  }

  async function requireOrder(orderId: number): Promise<OrderRow> {
    const order = await getOrder(db, orderId);
    if (!order) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`);
    return order;
  }

  /**
   * A workbench order's media for an engine (the draft, the timing, the check); undefined without
   * media or a language code. `background` (a draft): the media kept and heard on idle CPU only.
   */
  function mediaRequest(order: OrderRow, engine: string, background = false) {
    const language = spokenLanguageOf(order);
    if (!workPlanOfOrder(order)?.mediaParam || !language || !ISO_639_1[language]) return undefined;
    return () => engineRequest(order, engine, language, background);
  }

  /** `work` with a heartbeat every 2 s (progress for operators; the workflow's cancellation reaches it). */
  async function heartbeating<T>(order: OrderRow, engine: string, phase: EngineProgress['phase'], work: () => Promise<T>): Promise<T> {
    const context = Context.current();
    const started = Date.now();
    const beating = setInterval(
      () => context.heartbeat({ phase, engine, audioSeconds: order.seconds, elapsedMs: Date.now() - started } satisfies EngineProgress),
      2_000,
    );
    try {
      return await work();
    } finally {
      clearInterval(beating);
    }
  }

  return { engineRequest, requireOrder, mediaRequest, heartbeating };
}
