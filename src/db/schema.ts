// Drizzle mirror of src/db/migrations/*.sql (the SQL files are what runs).
import type { TaskStage } from '../contracts/tasks.js';
import type { OrderParams } from '../products/registry.js';
import type { OrderPlan } from '../contracts/orders.js';
import type { DoubtfulParagraph } from '../domain/doubts.js';
import type { EditorSettings } from '../domain/humanWork/editorSettings.js';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, doublePrecision, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

export const accounts = pgTable('accounts', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  tokenEncrypted: text('token_encrypted').notNull(),
  balanceCents: cents('balance_cents').notNull().default(0),
  callbackUrl: text('callback_url'),
  canceledCallbacks: boolean('canceled_callbacks').notNull(),
  aiMinutes: integer('ai_minutes').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  webhookSecretEncrypted: text('webhook_secret_encrypted'),
  webhookSecretPreviousEncrypted: text('webhook_secret_previous_encrypted'),
  webhookSecretPreviousUntil: ts('webhook_secret_previous_until'),
  /** 0023: the data of orders placed from now on is deleted this many days after they settle (null: never). */
  deleteAfterDays: integer('delete_after_days'),
});

export const orders = pgTable('orders', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  accountId: integer('account_id').notNull(),
  product: text('product').notNull(),
  status: text('status').notNull(),
  priceCents: cents('price_cents').notNull(),
  seconds: integer('seconds').notNull().default(0),
  words: integer('words').notNull().default(0),
  params: jsonb('params').$type<OrderParams>().notNull(),
  callbackUrl: text('callback_url'),
  paidAt: ts('paid_at'),
  deliveryEstimate: ts('delivery_estimate'),
  finishedAt: ts('finished_at'),
  qcStatus: text('qc_status'),
  assignee: text('assignee').$type<'operator' | 'engine'>().notNull().default('operator'),
  inputFiles: jsonb('input_files').$type<Record<string, InputFile>>().notNull().default({}),
  retranscribedOrderId: bigint('retranscribed_order_id', { mode: 'number' }),
  parentOrderId: bigint('parent_order_id', { mode: 'number' }),
  /** When the order was still open at its delivery estimate (migration 0007). */
  lateAt: ts('late_at'),
  /** What the engine found that changed the fulfilment, e.g. another spoken language (migration 0010). */
  engineNote: text('engine_note'),
  engineNotedAt: ts('engine_noted_at'),
  /** An engine order handed to people (migration 0014): when and why; its delivery estimate was moved then. */
  handedOverAt: ts('handed_over_at'),
  handedOverReason: text('handed_over_reason'),
  /** How much of the machine draft the people changed (migration 0011). */
  draftEditRate: doublePrecision('draft_edit_rate'),
  /** The machine draft's paragraphs with doubtful words (migration 0015). */
  draftDoubts: jsonb('draft_doubts').$type<DoubtfulParagraph[]>(),
  /** The draft's timed words in the file store (migration 0018; wordTimes.ts). */
  draftWordsKey: text('draft_words_key'),
  /** The kept media was longer than paid for, and only the paid part is worked (migration 0017). */
  mediaNote: text('media_note'),
  mediaNotedAt: ts('media_noted_at'),
  /** What placement fixed from the product and parameters (migration 0012); null on older rows. */
  plan: jsonb('plan').$type<OrderPlan>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** 0023: when it was finished, refunded, canceled or handed on; `delete_after_seconds` counts from it. */
  settledAt: ts('settled_at'),
  /** 0023: its data is deleted this long after it settles (the order's parameter, else the account's rule). */
  deleteAfterSeconds: bigint('delete_after_seconds', { mode: 'number' }),
  /** 0023: when its data was deleted; the record stays for the bill. */
  deletedAt: ts('deleted_at'),
});

/** An input file kept for an order, by claim-check. */
export interface InputFile {
  key: string;
  fileName: string;
  contentType?: string;
}

export const ledgerEntries = pgTable('ledger_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  accountId: integer('account_id').notNull(),
  orderId: bigint('order_id', { mode: 'number' }),
  kind: text('kind').$type<'topup' | 'charge' | 'refund' | 'grant'>().notNull(),
  amountCents: cents('amount_cents').notNull(),
  aiMinutes: integer('ai_minutes').notNull().default(0),
  balanceAfterCents: cents('balance_after_cents').notNull(),
  note: text('note'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const orderFiles = pgTable(
  'order_files',
  {
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    blobKey: text('blob_key').notNull(),
    fileName: text('file_name').notNull(),
    version: integer('version').notNull().default(1),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.kind] })],
);

export const callbackAttempts = pgTable(
  'callback_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    event: text('event').notNull(),
    /** 0021: the order's own sequence, 1, 2, 3, … in the order recorded, whatever the event or sender. */
    attempt: integer('attempt').notNull(),
    url: text('url').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    outcome: text('outcome').notNull(),
    detail: text('detail'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** 0006: the webhook-id the attempt carried; null for attempts recorded before it. */
    webhookId: text('webhook_id'),
    /** 0008: when the next attempt is due, on a failed attempt that has one. */
    nextAttemptAt: ts('next_attempt_at'),
  },
  (t) => [uniqueIndex('callback_attempts_order_attempt').on(t.orderId, t.attempt)],
);

/** 0021: the account area's resends of an order's last callback, within the resend limit's window. */
export const callbackResends = pgTable('callback_resends', {
  orderId: bigint('order_id', { mode: 'number' }).notNull(),
  sentAt: ts('sent_at')
    .notNull()
    .default(sql`clock_timestamp()`),
});

/** 0022: a customer's upload (tus or one raw body); its bytes are `files/uploads/<id>`. */
export const uploads = pgTable('uploads', {
  id: text('id').primaryKey(),
  accountId: integer('account_id').notNull(),
  /** What @tus/file-store keeps of the upload (its length, metadata, creation date); null until it is created. */
  info: jsonb('info').$type<Record<string, unknown>>(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  completedAt: ts('completed_at'),
  endedAt: ts('ended_at'),
  endedReason: text('ended_reason').$type<'terminated' | 'expired'>(),
});

/** 0022: the live orders placed on an upload. */
export const uploadUses = pgTable(
  'upload_uses',
  {
    uploadId: text('upload_id').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.orderId] })],
);

/** 0023: every file-store blob an order's work wrote or holds (its deletion removes those no other order holds). */
export const orderBlobs = pgTable(
  'order_blobs',
  {
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    blobKey: text('blob_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.blobKey] })],
);

/** 0024: when each release first ran on this database (1.0.0 takes over no workflow of 0.x). */
export const serviceReleases = pgTable('service_releases', {
  version: text('version').primaryKey(),
  releasedAt: ts('released_at').notNull().defaultNow(),
});

export type AccountRow = typeof accounts.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderFileRow = typeof orderFiles.$inferSelect;
export type CallbackAttemptRow = typeof callbackAttempts.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: integer('account_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    orderId: bigint('order_id', { mode: 'number' }),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    lockedUntil: ts('locked_until').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/** Sessions of the account area (src/db/sessions.ts): the sha256 of the cookie's id, never the id. */
export const accountSessions = pgTable('account_sessions', {
  idHash: text('id_hash').primaryKey(),
  /** 0009: a session is an account's or a worker's (the workbench). */
  accountId: integer('account_id'),
  workerId: integer('worker_id'),
  csrfToken: text('csrf_token').notNull(),
  expiresAt: ts('expires_at').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export type AccountSessionRow = typeof accountSessions.$inferSelect;

/** Migration 0020: a finished order shared by a link of its own (src/db/shareLinks.ts); at most one per order. */
export const shareLinks = pgTable('share_links', {
  tokenHash: text('token_hash').primaryKey(),
  tokenEncrypted: text('token_encrypted').notNull(),
  accountId: integer('account_id').notNull(),
  orderId: bigint('order_id', { mode: 'number' }).notNull().unique(),
  expiresAt: ts('expires_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export type ShareLinkRow = typeof shareLinks.$inferSelect;

/** The people who do the human work (0009). `skills`: e.g. ['transcription:english', 'review:english']. */
export const workers = pgTable('workers', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  skills: jsonb('skills').$type<string[]>().notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  disabledAt: ts('disabled_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** Migration 0019: back-track, skip length and hotkeys; null, the defaults. */
  editorSettings: jsonb('editor_settings').$type<EditorSettings>(),
});

export type WorkerRow = typeof workers.$inferSelect;

export const tasks = pgTable('tasks', {
  id: text('id').primaryKey(),
  orderId: bigint('order_id', { mode: 'number' }).notNull(),
  product: text('product').notNull(),
  stage: text('stage').$type<TaskStage>().notNull(),
  partNo: integer('part_no').notNull(),
  spanStart: doublePrecision('span_start').notNull(),
  spanEnd: doublePrecision('span_end').notNull(),
  words: integer('words').notNull().default(0),
  skill: text('skill').notNull(),
  deadline: ts('deadline').notNull(),
  status: text('status').$type<'waiting' | 'claimed' | 'submitted' | 'approved' | 'sent_back' | 'closed'>().notNull(),
  claimedBy: integer('claimed_by'),
  claimedAt: ts('claimed_at'),
  draft: text('draft').notNull().default(''),
  baseText: text('base_text'),
  saves: integer('saves').notNull().default(0),
  savedAt: ts('saved_at'),
  note: text('note'),
  submittedBy: integer('submitted_by'),
  payCents: integer('pay_cents').notNull().default(0),
  leaseExpiries: integer('lease_expiries').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  closedAt: ts('closed_at'),
  /** The workflow holding the task: its order's. */
  workflowId: text('workflow_id').notNull(),
});

export type TaskRow = typeof tasks.$inferSelect;

/** A claim in flight (0016): one of the worker's TASK_MAX_HELD slots, taken while its update runs (`reserveClaim`, src/db/tasks.ts). */
export const claimReservations = pgTable('claim_reservations', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  workerId: integer('worker_id').notNull(),
  taskId: text('task_id').notNull(),
  expiresAt: ts('expires_at').notNull(),
});

export const workerEarnings = pgTable('worker_earnings', {
  taskId: text('task_id').primaryKey(),
  workerId: integer('worker_id').notNull(),
  orderId: bigint('order_id', { mode: 'number' }).notNull(),
  cents: integer('cents').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
