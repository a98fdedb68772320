// Order records, their result files and callback attempts.
import { and, desc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { callbackAttempts, orderFiles, orders, type CallbackAttemptRow, type InputFile, type OrderFileRow, type OrderRow } from './schema.js';
import { OrderStateError } from '../contracts/failures.js';
import type { WorkPlan } from '../contracts/orders.js';
import type { DoubtfulParagraph } from '../domain/doubts.js';

export interface StoredFile {
  kind: string;
  blobKey: string;
  fileName: string;
}

export async function getOrder(db: Db, orderId: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

/** The query built once per database handle: retrieval by id is the API's hottest read. */
const accountOrderQueries = new WeakMap<Db, ReturnType<typeof prepareAccountOrder>>();
const prepareAccountOrder = (db: Db) =>
  db
    .select()
    .from(orders)
    .where(and(eq(orders.id, sql.placeholder('orderId')), eq(orders.accountId, sql.placeholder('accountId'))))
    .prepare('account_order');

export async function getAccountOrder(db: Db, accountId: number, orderId: number): Promise<OrderRow | undefined> {
  let query = accountOrderQueries.get(db);
  if (!query) accountOrderQueries.set(db, (query = prepareAccountOrder(db)));
  const [row] = await query.execute({ orderId, accountId });
  return row;
}

/** A page of an account's orders, newest first, starting below `beforeId`. */
export async function listAccountOrders(db: Db, accountId: number, opts: { beforeId?: number; limit: number }): Promise<OrderRow[]> {
  const where = opts.beforeId === undefined ? eq(orders.accountId, accountId) : and(eq(orders.accountId, accountId), lt(orders.id, opts.beforeId));
  return db.select().from(orders).where(where).orderBy(desc(orders.id)).limit(opts.limit);
}

/** Paid orders waiting for a person (not those a speech engine is working on): late ones first (longest late first), then oldest first. */
export async function pendingOrders(db: Db, product?: string): Promise<OrderRow[]> {
  const waiting = and(eq(orders.status, 'paid'), eq(orders.assignee, 'operator'));
  return db
    .select()
    .from(orders)
    .where(product ? and(waiting, eq(orders.product, product)) : waiting)
    .orderBy(sql`${orders.lateAt} ASC NULLS LAST`, orders.id);
}

/** Marks a paid order late (its workflow's timer reached the delivery estimate); once. The order when it was marked now. */
export async function markOrderLate(db: Db, orderId: number, at = new Date()): Promise<OrderRow | undefined> {
  const [marked] = await db
    .update(orders)
    .set({ lateAt: at })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'paid'), isNull(orders.lateAt)))
    .returning();
  return marked;
}

/** Keeps what the engine found that changed how the order is fulfilled (order-ops show, the timeline). */
export async function noteEngineFinding(db: Db, orderId: number, note: string): Promise<void> {
  await db.update(orders).set({ engineNote: note, engineNotedAt: new Date() }).where(eq(orders.id, orderId));
}

/** What the order's kept media changed in the work (cut at the length paid for), for the customer and the people. */
export async function noteOrderMedia(db: Db, orderId: number, note: string): Promise<void> {
  await db.update(orders).set({ mediaNote: note, mediaNotedAt: new Date() }).where(eq(orders.id, orderId));
}

/** The machine draft's doubtful words, for the editor's marks and the delivery's measure. */
export async function setDraftDoubts(db: Db, orderId: number, doubts: DoubtfulParagraph[]): Promise<void> {
  await db.update(orders).set({ draftDoubts: doubts }).where(eq(orders.id, orderId));
}

export async function setDraftWords(db: Db, orderId: number, key: string): Promise<void> {
  await db.update(orders).set({ draftWordsKey: key }).where(eq(orders.id, orderId));
}

export async function setDraftEditRate(db: Db, orderId: number, rate: number): Promise<void> {
  await db.update(orders).set({ draftEditRate: rate }).where(eq(orders.id, orderId));
}

/**
 * An engine order handed to people: its new delivery estimate, why, and no longer late (the old
 * estimate was a machine's).
 */
export async function reestimateForPeople(db: Db, orderId: number, estimate: Date, reason: string): Promise<void> {
  await db.update(orders).set({ deliveryEstimate: estimate, handedOverAt: new Date(), handedOverReason: reason, lateAt: null }).where(eq(orders.id, orderId));
}

/** Hands an order to the operators (no engine is configured, or the engine kept failing). */
export async function assignOrder(db: Db, orderId: number, assignee: 'operator' | 'engine'): Promise<void> {
  await db.update(orders).set({ assignee }).where(eq(orders.id, orderId));
}

export async function filesOf(db: Db, orderId: number): Promise<OrderFileRow[]> {
  return db.select().from(orderFiles).where(eq(orderFiles.orderId, orderId)).orderBy(orderFiles.kind);
}

export async function getOrderFile(db: Db, orderId: number, kind: string): Promise<OrderFileRow | undefined> {
  const [row] = await db
    .select()
    .from(orderFiles)
    .where(and(eq(orderFiles.orderId, orderId), eq(orderFiles.kind, kind)));
  return row;
}

/** Stores the result files and moves a paid order to finished. Idempotent for a retried activity. */
export async function finishOrder(db: Db, orderId: number, files: StoredFile[], qcStatus: 'pending' | null): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new OrderStateError(`order ${orderId} not found`);
    if (order.status === 'finished') return order;
    if (order.status !== 'paid') throw new OrderStateError(`order ${orderId} is ${order.status}; only a paid order can be completed`);
    for (const f of files) {
      await tx
        .insert(orderFiles)
        .values({ orderId, kind: f.kind, blobKey: f.blobKey, fileName: f.fileName })
        .onConflictDoUpdate({ target: [orderFiles.orderId, orderFiles.kind], set: { blobKey: f.blobKey, fileName: f.fileName, updatedAt: new Date() } });
    }
    const [updated] = await tx.update(orders).set({ status: 'finished', finishedAt: new Date(), qcStatus }).where(eq(orders.id, orderId)).returning();
    return updated!;
  });
}

/** A quality-check fix: replaces result files (new version) and closes the check. */
export async function applyQualityFix(db: Db, orderId: number, files: StoredFile[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const f of files) {
      // The version counts real replacements: a retried activity (same content) does not bump it.
      const [row] = await tx
        .update(orderFiles)
        .set({
          blobKey: f.blobKey,
          fileName: f.fileName,
          updatedAt: new Date(),
          version: sql`CASE WHEN ${orderFiles.blobKey} <> ${f.blobKey} THEN ${orderFiles.version} + 1 ELSE ${orderFiles.version} END`,
        })
        .where(and(eq(orderFiles.orderId, orderId), eq(orderFiles.kind, f.kind)))
        .returning();
      if (!row) throw new OrderStateError(`order ${orderId} has no ${f.kind} file to fix`);
    }
    await tx.update(orders).set({ qcStatus: 'fixed' }).where(eq(orders.id, orderId));
  });
}

export async function setQualityCheck(db: Db, orderId: number, qcStatus: string): Promise<void> {
  await db.update(orders).set({ qcStatus }).where(eq(orders.id, orderId));
}

export async function recordCallbackAttempt(db: Db, attempt: Omit<CallbackAttemptRow, 'id' | 'createdAt' | 'nextAttemptAt'>): Promise<void> {
  await db.insert(callbackAttempts).values(attempt);
}

/** Notes on the latest recorded attempt `attempt` of the order's `event` when the next one is due. */
export async function setNextCallbackAttempt(db: Db, orderId: number, event: string, attempt: number, at: Date): Promise<void> {
  const [latest] = await db
    .select({ id: callbackAttempts.id })
    .from(callbackAttempts)
    .where(and(eq(callbackAttempts.orderId, orderId), eq(callbackAttempts.event, event), eq(callbackAttempts.attempt, attempt)))
    .orderBy(desc(callbackAttempts.id))
    .limit(1);
  if (latest) await db.update(callbackAttempts).set({ nextAttemptAt: at }).where(eq(callbackAttempts.id, latest.id));
}

export async function callbackAttemptsOf(db: Db, orderId: number): Promise<CallbackAttemptRow[]> {
  return db.select().from(callbackAttempts).where(eq(callbackAttempts.orderId, orderId)).orderBy(callbackAttempts.id);
}

/** Keeps one more file with the order (the workbench's copy of its media), by claim-check. */
/** Adds what the service learnt to the order's parameters (the spoken language an engine heard). */
export async function addOrderParams(db: Db, orderId: number, learnt: Record<string, string>): Promise<void> {
  await db
    .update(orders)
    .set({ params: sql`${orders.params} || ${JSON.stringify(learnt)}::jsonb` })
    .where(eq(orders.id, orderId));
}

/**
 * The workbench plan an engine's hand-off gives an order (a translator for speech no engine
 * translates), kept in its plan. Rows from before plans were kept stay without one: their plan is
 * worked out from the parameters the hand-off learnt (addOrderParams).
 */
export async function setPlannedWork(db: Db, orderId: number, work: WorkPlan): Promise<void> {
  await db
    .update(orders)
    .set({ plan: sql`${orders.plan} || ${JSON.stringify({ work })}::jsonb` })
    .where(and(eq(orders.id, orderId), isNotNull(orders.plan)));
}

export async function keepInputFile(db: Db, orderId: number, name: string, file: InputFile): Promise<void> {
  await db
    .update(orders)
    .set({ inputFiles: sql`${orders.inputFiles} || ${JSON.stringify({ [name]: file })}::jsonb` })
    .where(eq(orders.id, orderId));
}
