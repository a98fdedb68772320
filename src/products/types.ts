// The shape of a product: one definition that the API, the workflow's inputs, records and
// callbacks all read. A product is a folder holding one of these and a line in registry.ts.
import type { z } from 'zod';
import type { CallbackEvent, Fulfilment, MediaParam, WorkPlan } from '../contracts/orders.js';
import type { PlanStage } from '../contracts/tasks.js';
import type { LanguageSetName } from '../domain/languages.js';
import type { ResultFormat } from '../domain/formats.js';
import type { ResultKind } from '../domain/resultKinds.js';
import type { Transcript } from '../domain/transcript.js';
import type { FileClass } from '../documents/measure.js';

/** The products' keys, read off the registry's definitions. */

export interface FetchedFile {
  fileClass: FileClass;
  bytes: Uint8Array;
  fileName: string;
}

/**
 * The I/O that measuring an order needs, given by the caller so product definitions stay pure.
 * Each method's errors name `field` and are the caller's (400).
 */
export interface MeasureTools {
  /** Duration of the media at `url`, whole seconds rounded up. */
  mediaSeconds(url: string, field: string): Promise<number>;
  /** The file at `url`; media files are classified from their first bytes and not read whole. */
  fetchFile(url: string, field: string): Promise<FetchedFile>;
  /** A transcript document of one of the `accepted` formats (extensions), read into the model. */
  readTranscript(file: FetchedFile, field: string, accepted: readonly string[]): Promise<Transcript>;
  /** Words of a translatable document. */
  documentWords(file: FetchedFile, field: string): Promise<number>;
  /** Words a human OCR order is priced by (estimated for scans and images). */
  ocrWords(file: FetchedFile, field: string): Promise<number>;
}

export interface Measured {
  seconds: number;
  words: number;
  /** Input files the order keeps for the people and engines that fulfil it (claim-check). */
  keep?: Record<string, FetchedFile>;
  /** What measuring learnt that the order records, e.g. whether a translation's file is media. */
  params?: LearntParams;
}

/** What an order's parameters gain after its request was parsed: by measuring, an engine or a hand-off. */
export interface LearntParams {
  /** A `till` past the media's end: the end it covers, and the one asked for (mediaSpan). */
  till?: number;
  requested_till?: number;
  /** A translation's file: a document or media; a subtitle file's format and its number of cues. */
  source?: 'document' | 'media';
  subtitles?: string;
  cues?: number;
  /** An AI order whose speech is in another language than ordered: the language heard. */
  spoken_language?: string;
  /** A human transcription placed by a proofreading order's hand-off: that order. */
  retranscription_of?: number;
}

/** A result URL field of records and callbacks, and the kind of file it serves. */
export interface ResultField {
  kind: ResultKind;
  field: string;
  /** The formats this order's file is served in, the first by default; absent: all of the kind's. */
  formats?: readonly ResultFormat[];
}

export interface OrderFacts {
  id: number;
  status: string;
  retranscribedOrderId: number | null;
}

export interface CallbackContext<P> {
  event: CallbackEvent;
  order: OrderFacts;
  params: P;
  /** The result URL of `kind` (with the account token); '' where the order has no such file. */
  url(kind: ResultKind): string;
}

/** Fields of the creation response beyond mode, status, order_id, order_total, in_wallet and delivery_estimate. */
export type CreationField = 'seconds' | 'words' | 'ai_transcripts_minutes_left';

/**
 * An engine's part in a product: transcribe the audio (the transcript serves every result kind of
 * the order), or align a known text (word timings). `audioParam` names the request parameter
 * holding the audio URL; `textInput` the order's input file holding the known text.
 */
export type EngineJob = { task: 'transcribe'; audioParam: MediaParam } | { task: 'align'; audioParam: MediaParam; textInput: string };

/**
 * A hand-off to another product (proofreading → human transcription): the order is refunded with
 * `refundNote` and replaced by an order of `to` with `params(parentParams)` (parsed by that
 * product's own request schema), charged at that product's price.
 */
export interface HandOff<To extends string = string> {
  to: To;
  params(parent: Record<string, unknown>): Record<string, unknown>;
  refundNote: string;
}

/**
 * The people's part of a product (the workbench, src/workflows/task.ts): which skill a worker
 * needs, what the editor shows, where the draft comes from, whether long media is split into
 * parts, the stages it goes through (`stages`), and what the work is paid by. The draft (engine or
 * input) comes first, then the stages in the order declared.
 */
export interface HumanWork<P = Record<string, unknown>> {
  /** Whether the order needs people at all (default yes); an engine's order only when the engine hands it on. */
  applies?(params: P & Record<string, unknown>): boolean;
  /** e.g. `transcription:english`, `translation:english>french` (src/domain/humanWork/skills.ts). */
  skill(params: P & Record<string, unknown>): string;
  /** The reviewer's skill: `review:<language of the result>`. */
  reviewSkill(params: P): string;
  editor: WorkPlan['editor'];
  /** The request parameter holding the media the worker hears; long media is split into parts. */
  mediaParam?: MediaParam;
  /** The kept input file the editor shows beside the text (a document, a page image) or drafts from. */
  sourceFile?: string;
  draft: WorkPlan['draft'];
  pay: WorkPlan['payUnit'];
  /** What Submit checks (timestamps, speaker labels). */
  rules(params: P): WorkPlan['rules'];
  /**
   * The stages, in order (STAGES' plan stages): the work, each review stage until approved, and
   * `aligner_timing` where the people type words and the service times them. Default: work, review.
   */
  stages?(params: P): PlanStage[];
}

/**
 * A sample order of the product, answered to `mode=test` (GET /api/v4/orders) and shown by its
 * sample callbacks (samples.ts): paid on day `id` of January 2026, its delivery estimated 5 days
 * later, finished (status `finished`) 3 days after it was paid.
 */
export interface SampleOrder<Params = Record<string, unknown>> {
  /** Unique among every product's samples. */
  id: number;
  status: string;
  priceCents: number;
  seconds: number;
  words: number;
  /** The parameters as the order keeps them. */
  params: Params;
  retranscribedOrderId?: number;
}

/**
 * A product. `Key` and `To` (its hand-off's product) are the literal keys while it is defined
 * (defineProduct), so the registry can read ProductKey off its definitions.
 */
export interface ProductDefinition<
  Req extends Record<string, unknown> = Record<string, unknown>,
  Prices = unknown,
  Key extends string = string,
  To extends string = string,
> {
  /** The product's name: `product` of orders, sections of the price table, the registry's key. */
  key: Key;
  /** Name in messages: "'klingon' is not supported for human transcription". */
  label: string;
  /** POST /api/v4/<path> */
  path: string;
  /** `type` of the order record. */
  recordType: string;
  /** Languages listed by GET /api/v4/languages for this product; absent when not listed. */
  languageSet?: LanguageSetName;
  /** The product's parameters (api_token and mode are common to all). */
  request: z.ZodType<Req, any>;
  fulfilment: Fulfilment;
  /** With `fulfilment: 'engine'`: what the engine does, so the engine activity names no product. */
  engineJob?: EngineJob;
  /** With `fulfilment: 'proofreading'`: the order that replaces this one when its input fails the check. */
  handOff?: HandOff<To>;
  /** Whether a rejection hands the order off (`handOff`) or refunds it; default refund. */
  onReject?(params: Req): 'refund' | 'hand_off';
  /** The workbench pipeline of a product people fulfil. */
  work?: HumanWork<Req>;
  creationFields: readonly CreationField[];
  /** Its section of the price table (config/prices.json). */
  prices: z.ZodType<Prices, any>;
  /** Rules that need no I/O and the parameters as the order keeps them (e.g. the effective turnaround). */
  settle?(request: Req): Req;
  measure(request: Req, tools: MeasureTools): Promise<Measured>;
  /** Price in cents before any subscription minutes. */
  price(prices: Prices, request: Req, measured: Measured): number;
  /** AI subscription minutes can pay for it at this per-minute rate. */
  subscriptionRate?(prices: Prices): number;
  turnaroundHours(request: Req): number;
  /** Result files of an order with these parameters, with their record and callback field names. */
  results(params: Req): readonly ResultField[];
  /** The record fields of this product beyond the common ones (id, type, price, dates, comment, seconds, words). */
  recordFields(params: Req, order: OrderFacts): Record<string, unknown>;
  callbackFields(context: CallbackContext<Req>): Record<string, string>;
  /**
   * The example request of its creation operation in the OpenAPI document (beside mode=test and
   * the token): valid values, its files at EXAMPLE_MEDIA_ORIGIN (examples.ts).
   */
  example: Readonly<Partial<Record<keyof Req & string, string | number | boolean>>>;
  /** Its sample orders (at least one); a sample callback shows its finished one, else its first. */
  samples: readonly [SampleOrder<SampleParams<Req>>, ...SampleOrder<SampleParams<Req>>[]];
}

/** A sample's parameters: the request's as the order keeps them, and what settling or measuring added. */
type SampleParams<Req> = Partial<Req> & Record<string, unknown>;

/**
 * Type-checks a definition against its own request type; the registry holds them unparameterised,
 * but for the key and the hand-off's product, kept literal for ProductKey.
 */
export function defineProduct<Key extends string, Req extends Record<string, unknown>, Prices, To extends string = never>(
  definition: { key: Key; request: z.ZodType<Req, any>; prices: z.ZodType<Prices, any>; handOff?: HandOff<To> } & ProductDefinition<
    NoInfer<Req>,
    NoInfer<Prices>,
    NoInfer<Key>,
    NoInfer<To>
  >,
): Omit<ProductDefinition<Record<string, unknown>, unknown, Key, To>, 'request'> & { readonly request: z.ZodType<Req, any> } {
  return definition as unknown as Omit<ProductDefinition<Record<string, unknown>, unknown, Key, To>, 'request'> & { readonly request: z.ZodType<Req, any> };
}
