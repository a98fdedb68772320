// Shared contracts of the order workflow: ids, messages, search attributes and the types that
// cross from the API and the activities into workflows. Imports no layer of this service.
// Nothing here may hold a secret: workflow histories are visible in the Temporal UI.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { PlanStage } from './tasks.js';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const orderWorkflowId = (orderId: number): string => `order-${orderId}`;

/** `retranscribed`: a proofreading order replaced by a human transcription order (its fee refunded). */
export type OrderStatus = 'awaiting_payment' | 'payment_failed' | 'paid' | 'finished' | 'refunded' | 'canceled' | 'retranscribed';

/** Who fulfils a paid order: a person with order-ops, a speech engine, or a proofreader who may reject the transcript. */
export type Fulfilment = 'operator' | 'engine' | 'proofreading';

/**
 * An order's parameters: its product's parsed request (`OrderParams`, src/products/registry.ts).
 * The workflow reads none of them; what they decide arrives decided, in the order's plan.
 */
export type WorkflowParams = object;

export interface OrderToPlace<Params extends WorkflowParams = WorkflowParams> {
  id: number;
  accountId: number;
  product: string;
  /** The price before subscription minutes; what is charged is decided in the charge's transaction. */
  priceCents: number;
  seconds: number;
  words: number;
  params: Params;
  callbackUrl: string | null;
  turnaroundHours: number;
  fulfilment: Fulfilment;
  /** Result kinds the order delivers (from its product and parameters). */
  resultKinds: string[];
  /** The results with their record fields and formats. */
  results: PlannedResult[];
  /** AI subscription minutes the order may use before the wallet pays (AI transcription only). */
  subscription?: { centsPerMinute: number };
  /** Input files kept for the order by claim-check (file store keys), by name. */
  inputFiles?: Record<string, { key: string; fileName: string }>;
  parentOrderId?: number;
  /** What people do for the order in the workbench (from its product's `work`); absent where nobody does (AI products). */
  work?: WorkPlan;
  /** What rejecting the supplied input does (proofreading); absent where nothing is supplied to reject. */
  onReject?: 'refund' | 'hand_off';
  /** The order's data is deleted this long after it settles (its `delete_after_seconds`, or its account's rule); absent: kept. */
  deleteAfterSeconds?: number;
}

/**
 * What placement fixed for an order from its product and parameters: kept on the order row
 * (`orders.plan`) for the activities, the web and the CLI, and carried in the workflow's input.
 */
export type OrderPlan = Pick<OrderToPlace, 'fulfilment' | 'resultKinds' | 'results' | 'turnaroundHours' | 'work' | 'onReject'>;

/** A result file the order delivers: its kind, its record and callback field, and its formats (the first by default). */
export interface PlannedResult {
  kind: string;
  field: string;
  formats: readonly string[];
}

export const fixedPlanOf = ({ fulfilment, resultKinds, results, turnaroundHours, work, onReject }: OrderToPlace): OrderPlan => ({
  fulfilment,
  resultKinds,
  results,
  turnaroundHours,
  ...(work ? { work } : {}),
  ...(onReject ? { onReject } : {}),
});

/** The request parameter that names an order's media. */
export type MediaParam = 'url' | 'audio_url';

/** The workbench pipeline of one order, as its product declares it for the order's parameters. */
export interface WorkPlan {
  /** The skill a worker needs (`transcription:english`, `translation:english>french`, `ocr:english`). */
  skill: string;
  reviewSkill: string;
  /** transcript: audio with a timed text; translation: the source beside the target; ocr: the page beside the text. */
  editor: 'transcript' | 'translation' | 'ocr';
  /** The request parameter holding the media to hear; long media is split into parts. */
  mediaParam?: MediaParam;
  /** The kept input file shown beside the editor, or the draft (`draft: 'source'`). */
  sourceFile?: string;
  /** engine: the speech engine's transcript; source: the kept input file's text; none: an empty editor. */
  draft: 'engine' | 'source' | 'none';
  payUnit: 'minute' | 'word';
  /** What Submit checks: the ordered timestamps and speaker labels; a subtitle file's translation, a paragraph per cue. */
  rules: { timestamping: string; numberOfSpeakers?: string; cues?: number };
  /** The stages, in the order they run, as the product declares them for the order's parameters. */
  stages: PlanStage[];
}

/** The people an engine order goes to when no engine can do it: one who transcribes (or times) it, or a translator. */
export type PeopleWork = 'transcriber' | 'translator';

/** How the workbench runs, on every order's input. */
export interface WorkbenchSettings {
  /** A claim left without a save this long returns the task to the queue. */
  leaseMs: number;
  /** Media longer than this is split into parts of about this length. */
  partSeconds: number;
}

export interface OrderWorkflowInput<Params extends WorkflowParams = WorkflowParams> {
  order: OrderToPlace<Params>;
  /**
   * `customer`: the API charges through the placeOrder update and stops waiting at `payBy`,
   * after which no charge may start. `parent`: a parent order's workflow already charged the
   * order in its own transaction; the child confirms that charge when it starts. `placement` is a
   * random id of the API's request, which the placeOrder update repeats: an update that names
   * another placement was meant for another order with the same id (ids reused after a database
   * reset while Temporal kept its workflows) and is refused.
   */
  payment: { by: 'customer'; payBy: string; placement?: string } | { by: 'parent' };
  /** Chance that a finished order is picked for a quality check, 0..1. */
  qualityCheckProbability: number;
  /** How long a quality check may stay open before it closes as passed. */
  qualityCheckWindowMs: number;
  /** How the human stages run: each a task (src/workflows/order/humanStages.ts). */
  workbench: WorkbenchSettings;
}

export interface PlacedOrder {
  orderId: number;
  /** What the wallet paid, after subscription minutes. */
  chargedCents: number;
  balanceCents: number;
  aiMinutesLeft: number;
  paidAt: string;
  deliveryEstimate: string;
}

/** A result file by claim-check: the key of a blob in the file store. */
export interface ResultFile {
  kind: string;
  blobKey: string;
  fileName: string;
}

export type QualityCheck = 'none' | 'pending' | 'passed' | 'fixed';

export interface TransitionResult {
  order_id: number;
  status: OrderStatus;
  quality_check?: 'pending' | 'passed' | 'fixed';
  retranscribed_order_id?: number;
}

export type CallbackEvent = 'finished' | 'refunded' | 'canceled' | 'quality_fix';

export interface OrderState {
  status: OrderStatus;
  qualityCheck: QualityCheck;
  /** `engine` while a speech engine works on the order; `operator` while it waits for a person. */
  workingOn: 'engine' | 'operator' | 'nobody';
}

/** Engine work has a task queue of its own, so that it never holds up orders, callbacks or the API. */
export const engineTaskQueue = (ordersTaskQueue: string): string => `${ordersTaskQueue}-engines`;

/**
 * Drafts of people's work (engine work nobody waits on now, run on idle CPU only) have one apart
 * from the engine work customers wait on, so that a draft starved on a busy machine never holds
 * the slot an AI order needs.
 */
export const draftTaskQueue = (ordersTaskQueue: string): string => `${ordersTaskQueue}-drafts`;

/** Progress an engine activity reports in its heartbeats (shown by order-ops show). */
export interface EngineProgress {
  phase: 'fetching' | 'transcribing' | 'aligning' | 'reading' | 'translating';
  engine: string;
  audioSeconds: number;
  elapsedMs: number;
}

/**
 * How long an engine may take for an order's work: a base, and more the longer its audio and the
 * more its words (a scan's pages: 250 words a page, each at most 30 s of OCR's CPU; a document's text translated).
 */
export const engineDeadlineMs = ({ seconds, words }: { seconds: number; words: number }): number => 120_000 + seconds * 2_000 + words * 120;

export const placeOrderUpdate = defineUpdate<PlacedOrder, [placement: string | undefined]>('placeOrder');
export const completeUpdate = defineUpdate<TransitionResult, [{ files: ResultFile[] }]>('complete');
export const refundUpdate = defineUpdate<TransitionResult, [{ reason?: string }]>('refund');
export const cancelUpdate = defineUpdate<TransitionResult, []>('cancel');
export const rejectTranscriptUpdate = defineUpdate<TransitionResult, []>('rejectTranscript');
export const qualityCheckUpdate = defineUpdate<TransitionResult, [{ pass: true } | { fix: ResultFile[] }]>('qualityCheck');
export const statusQuery = defineQuery<OrderState>('status');

export const SEARCH_ATTRIBUTES = {
  orderId: defineSearchAttributeKey('OrderId', SearchAttributeType.INT),
  accountId: defineSearchAttributeKey('OrderAccountId', SearchAttributeType.INT),
  product: defineSearchAttributeKey('OrderProduct', SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey('OrderStatus', SearchAttributeType.KEYWORD),
  mode: defineSearchAttributeKey('OrderMode', SearchAttributeType.KEYWORD),
  /** Set (true) when the order is still open at its delivery estimate (docs/operations.md). */
  late: defineSearchAttributeKey('OrderLate', SearchAttributeType.BOOL),
};

/** The search attributes an order's workflow starts with (the Temporal UI's view of it). */
export function startSearchAttributes(order: Pick<OrderToPlace, 'id' | 'accountId' | 'product'>) {
  return [
    { key: SEARCH_ATTRIBUTES.orderId, value: order.id },
    { key: SEARCH_ATTRIBUTES.accountId, value: order.accountId },
    { key: SEARCH_ATTRIBUTES.product, value: order.product },
    { key: SEARCH_ATTRIBUTES.mode, value: 'live' },
    { key: SEARCH_ATTRIBUTES.status, value: 'awaiting_payment' },
  ];
}

/** `--search-attribute` arguments for the dev server. */
export const SEARCH_ATTRIBUTE_FLAGS = [
  'OrderId=Int',
  'OrderAccountId=Int',
  'OrderProduct=Keyword',
  'OrderStatus=Keyword',
  'OrderMode=Keyword',
  'OrderLate=Bool',
];
