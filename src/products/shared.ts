// Rules several products share: turnaround by language, billing units, media spans and the two
// callback shapes of the spec (finished-only products, and products whose callbacks carry status).
import { z } from 'zod';
import { ENUMS, type TurnaroundTime } from '../domain/catalog.js';
import { recordTurnaround, resolveTurnaround, TURNAROUND_HOURS } from '../domain/turnaround.js';
import { RequestError } from '../contracts/failures.js';
import { languageTag, writingDirection } from '../domain/languages.js';
import type { CallbackContext, HumanWork, LearntParams, ProductDefinition, ResultField } from './types.js';
import { RESULT_KIND_DEFINITIONS } from '../domain/resultKinds.js';
import type { MediaParam, OrderToPlace, WorkPlan } from '../contracts/orders.js';

export const cents = z.number().int().nonnegative();
export const perMinuteByTurnaround = z.object(Object.fromEntries(ENUMS.turnaround_time.map((t) => [t, cents])) as Record<TurnaroundTime, typeof cents>);

/** Per-second billing of a per-minute rate, rounded up to the cent. */
export const perMinute = (seconds: number, centsPerMinute: number): number => Math.ceil((seconds * centsPerMinute) / 60);
/** Per-word billing of a rate per 1000 words, rounded up to the cent. */
export const perThousandWords = (words: number, centsPerThousand: number): number => Math.ceil((words * centsPerThousand) / 1000);

interface Turnaround {
  language: string;
  turnaround_time: TurnaroundTime;
}

/**
 * The turnaround an order gets (groups T35 and T5). `strict`: an unavailable one is refused;
 * otherwise the nearest longer one is used and the requested value kept beside it.
 */
export function settleTurnaround<R extends Turnaround>(request: R, strict: boolean): R {
  const resolved = resolveTurnaround(request.language, request.turnaround_time, strict);
  if (!resolved.ok) {
    throw new RequestError(
      `turnaround_time: '${request.turnaround_time}' is not available for ${request.language} ` +
        `(available: ${resolved.allowed.join(', ')}); send strict=false to get the nearest available turnaround`,
    );
  }
  if (!resolved.raised) return request;
  return { ...request, turnaround_time: resolved.turnaround, requested_turnaround_time: request.turnaround_time };
}

export const turnaroundHours = (request: { turnaround_time: TurnaroundTime }): number => TURNAROUND_HOURS[request.turnaround_time];

/**
 * Seconds of media ordered and billed: from `from` to `till`, else all of it. A `till` past the
 * media's end means "up to the end" (a client's fixed `till=3600` for "the first hour" of a shorter
 * file): the order covers what exists, records that end as its `till` and keeps the one asked for
 * as `requested_till`; its `seconds` (in the answer, the record and the price) are what it covers.
 */
export function mediaSpan(duration: number, request: { from?: number; till?: number }): { seconds: number; params?: LearntParams } {
  const { from, till } = request;
  if (from !== undefined && from >= duration)
    throw new RequestError(`from: ${from} is not within the media (${duration} seconds long), which leaves nothing to transcribe`);
  if (till === undefined || till <= duration) return { seconds: (till ?? duration) - (from ?? 0) };
  return { seconds: duration - (from ?? 0), params: { till: duration, requested_till: till } };
}

/** The record fields of transcription-like orders, turnaround in record form (`days_5`). */
export function transcriptRecordFields(params: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    if (params[name] === undefined) continue;
    out[name] = name === 'turnaround_time' ? recordTurnaround(params[name] as TurnaroundTime) : params[name];
  }
  return out;
}

const head = (context: CallbackContext<unknown>) => ({ mode: 'live', order_id: String(context.order.id) });
const settled = (context: CallbackContext<unknown>) => context.event === 'finished' || context.event === 'quality_fix';

/**
 * Products whose only spec callback is "work finished": a quality fix repeats it (Events rule 3);
 * a refund or cancellation is `{mode, status, order_id}`, the spec's canceled shape.
 */
export function finishedOnlyCallback<P>(context: CallbackContext<P>, finished: () => Record<string, string>): Record<string, string> {
  if (settled(context)) return { ...head(context), ...finished() };
  return { mode: 'live', status: context.event, order_id: String(context.order.id) };
}

/** Products whose callbacks carry `status`: URL fields are empty strings unless finished. */
export function statusCallback<P>(context: CallbackContext<P>, fields: (finished: boolean) => Record<string, string>): Record<string, string> {
  const finished = settled(context);
  return { ...head(context), status: finished ? 'finished' : context.event, ...fields(finished) };
}

interface TranscriptParams {
  language: string;
  timestamping?: string;
  number_of_speakers?: string;
}

/** People type what they hear (transcription, captions, proofreading): a transcript editor on the media. */
export function transcriptWork(mediaParam: MediaParam, draft: 'engine' | 'source' = 'engine', sourceFile?: string): HumanWork<TranscriptParams> {
  return {
    skill: (p) => `transcription:${p.language}`,
    reviewSkill: (p) => `review:${p.language}`,
    editor: 'transcript',
    mediaParam,
    draft,
    pay: 'minute',
    ...(sourceFile ? { sourceFile } : {}),
    rules: (p) => ({ timestamping: p.timestamping ?? 'not_required', ...(p.number_of_speakers ? { numberOfSpeakers: p.number_of_speakers } : {}) }),
  };
}

interface TranslationParams {
  translate_from: string;
  translate_to: string;
  additional_review?: boolean;
  source?: unknown;
  /** A subtitle file to translate: its cues (measured), each translated as one paragraph. */
  cues?: number;
}

/** People translate: the source beside the target (a document), or the media heard (subtitles, media translations). */
export function translationWork(editor: 'transcript' | 'translation', pay: 'minute' | 'word'): HumanWork<TranslationParams> {
  return {
    skill: (p) => `translation:${p.translate_from}>${p.translate_to}`,
    reviewSkill: (p) => `review:${p.translate_to}`,
    // The draft: the source machine-translated where an engine covers the pair (src/activities/drafts.ts).
    editor,
    draft: 'engine',
    pay,
    mediaParam: 'url',
    sourceFile: 'source',
    rules: (p) => ({ timestamping: 'not_required', ...(p.cues ? { cues: p.cues } : {}) }),
    // What `additional_review` is paid for: a second linguist reviews after the first approves.
    stages: (p) => (p.additional_review ? ['work', 'review', 'second_review'] : ['work', 'review']),
  };
}

/**
 * What an order carries of its product, so that the workflow and activities name no product: how it
 * is fulfilled, its result kinds, the turnaround, the workbench plan and what a rejection does.
 */
export function orderPlan(
  product: ProductDefinition,
  params: Record<string, unknown>,
): Pick<OrderToPlace, 'product' | 'fulfilment' | 'resultKinds' | 'results' | 'turnaroundHours' | 'work' | 'onReject'> {
  const work = workPlanOf(product.work, params);
  const results = productResults(product, params);
  return {
    product: product.key,
    fulfilment: product.fulfilment,
    resultKinds: results.map((r) => r.kind),
    results,
    turnaroundHours: product.turnaroundHours(params),
    ...(work ? { work } : {}),
    ...(product.onReject ? { onReject: product.onReject(params) } : {}),
  };
}

/** The product's results for these parameters, each with the formats it is served in (the first by default). */
export function productResults(product: ProductDefinition, params: Record<string, unknown>): Required<ResultField>[] {
  return product.results(params).map((r) => ({ ...r, formats: r.formats ?? RESULT_KIND_DEFINITIONS[r.kind].formats }));
}

/** The order's workbench plan from its product and parameters (measured ones included). */
export function workPlanOf(work: HumanWork | undefined, params: Record<string, unknown>): WorkPlan | undefined {
  if (!work || (work.applies && !work.applies(params))) return undefined;
  // A document to translate is read, not heard: only media is split into parts.
  const mediaParam = work.mediaParam && !(work.sourceFile && params.source === 'document') ? work.mediaParam : undefined;
  return {
    skill: work.skill(params).toLowerCase(),
    reviewSkill: work.reviewSkill(params).toLowerCase(),
    editor: work.editor,
    ...(mediaParam ? { mediaParam } : {}),
    ...(work.sourceFile ? { sourceFile: work.sourceFile } : {}),
    draft: work.draft,
    payUnit: work.pay,
    rules: work.rules(params),
    stages: work.stages?.(params) ?? ['work', 'review'],
  };
}

/** An order's languages by role, by name as the API takes them (`english`): the one definition every layer reads. */
export interface OrderLanguages {
  /** What is heard or read: the spoken language an engine found, a translation's source, else the order's language. */
  source: string | undefined;
  /** What the result is written in: a translation's target, else the order's language (an AI order's chosen one). */
  result: string | undefined;
}

/** The parameters that name an order's languages (a part of OrderParams). */
export interface LanguageParams {
  readonly language?: string | undefined;
  readonly translate_from?: string | undefined;
  readonly translate_to?: string | undefined;
  readonly spoken_language?: string | undefined;
}

export function languagesOf(params: LanguageParams): OrderLanguages {
  const named = (...names: (string | undefined)[]) => names.find((name) => name !== undefined && name !== '');
  return { source: named(params.spoken_language, params.translate_from, params.language), result: named(params.translate_to, params.language) };
}

/** The language of an order's result text: its BCP 47 tag ('' when none is known) and its writing direction. */
export function resultLanguage(params: LanguageParams): { language: string; direction: 'ltr' | 'rtl' } {
  const name = languagesOf(params).result;
  return { language: languageTag(name), direction: writingDirection(name) };
}
