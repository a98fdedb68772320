// Order records, their result files and callback attempts.
import { and, desc, eq, gt, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { callbackAttempts, callbackResends, orderFiles, orders, type CallbackAttemptRow, type InputFile, type OrderFileRow, type OrderRow } from './schema.js';
import { OrderStateError } from '../contracts/failures.js';
import type { WorkPlan } from '../contracts/orders.js';
import type { DoubtfulParagraph } from '../domain/doubts.js';
import { holdBlob } from './orderBlobs.js';

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
  await db.transaction(async (tx) => {
    await holdBlob(tx, orderId, key);
    await tx
      .update(orders)
      .set({ draftWordsKey: key })
      .where(and(eq(orders.id, orderId), isNull(orders.deletedAt)));
  });
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
      await holdBlob(tx, orderId, f.blobKey);
      await tx
        .insert(orderFiles)
        .values({ orderId, kind: f.kind, blobKey: f.blobKey, fileName: f.fileName })
        .onConflictDoUpdate({ target: [orderFiles.orderId, orderFiles.kind], set: { blobKey: f.blobKey, fileName: f.fileName, updatedAt: new Date() } });
    }
    const now = new Date();
    const [updated] = await tx.update(orders).set({ status: 'finished', finishedAt: now, settledAt: now, qcStatus }).where(eq(orders.id, orderId)).returning();
    return updated!;
  });
}

/** A quality-check fix: replaces result files (new version) and closes the check. */
export async function applyQualityFix(db: Db, orderId: number, files: StoredFile[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const f of files) {
      await holdBlob(tx, orderId, f.blobKey);
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

/**
 * Records a callback attempt as the order's next number (1, 2, 3, … whatever the event or sender)
 * and answers that number. The order's row lock makes racing recorders wait, so each reads the
 * highest number after the one before it committed; the unique index (0021) holds it regardless.
 */
export async function recordCallbackAttempt(db: Db, attempt: Omit<CallbackAttemptRow, 'id' | 'attempt' | 'createdAt' | 'nextAttemptAt'>): Promise<number> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select({ deletedAt: orders.deletedAt }).from(orders).where(eq(orders.id, attempt.orderId)).for('update');
    // An attempt that was under way when the order's data was deleted keeps no URL and no answer.
    if (order?.deletedAt) attempt = { ...attempt, url: '', detail: null };
    const next = sql<number>`(SELECT coalesce(max(${callbackAttempts.attempt}), 0) + 1 FROM ${callbackAttempts} WHERE ${callbackAttempts.orderId} = ${attempt.orderId})`;
    const [row] = await tx
      .insert(callbackAttempts)
      .values({ ...attempt, attempt: next })
      .returning({ attempt: callbackAttempts.attempt });
    return row!.attempt;
  });
}

/** Notes on the order's attempt `attempt` when the next one is due. */
export async function setNextCallbackAttempt(db: Db, orderId: number, attempt: number, at: Date): Promise<void> {
  await db
    .update(callbackAttempts)
    .set({ nextAttemptAt: at })
    .where(and(eq(callbackAttempts.orderId, orderId), eq(callbackAttempts.attempt, attempt)));
}

/**
 * Takes one of the order's resends if fewer than `limit.count` were taken in the last
 * `limit.windowMs`: 0, or the milliseconds until one is free. Kept in the database, by its clock,
 * so that every API process counts the same resends; the order's row lock makes racing resends
 * take turns.
 */
export async function takeCallbackResend(db: Db, orderId: number, limit: { count: number; windowMs: number }): Promise<number> {
  const windowStart = sql`clock_timestamp() - ${limit.windowMs}::integer * interval '1 millisecond'`;
  return db.transaction(async (tx) => {
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
    await tx.delete(callbackResends).where(and(eq(callbackResends.orderId, orderId), lte(callbackResends.sentAt, windowStart)));
    // The limit-th most recent resend in the window: while it is in it, no more are taken.
    const [blocking] = await tx
      .select({
        waitMs: sql<number>`ceil(extract(epoch FROM ${callbackResends.sentAt} + ${limit.windowMs}::integer * interval '1 millisecond' - clock_timestamp()) * 1000)::integer`,
      })
      .from(callbackResends)
      .where(and(eq(callbackResends.orderId, orderId), gt(callbackResends.sentAt, windowStart)))
      .orderBy(desc(callbackResends.sentAt))
      .offset(limit.count - 1)
      .limit(1);
    if (blocking) return Math.max(1, Number(blocking.waitMs));
    await tx.insert(callbackResends).values({ orderId });
    return 0;
  });
}

export async function callbackAttemptsOf(db: Db, orderId: number): Promise<CallbackAttemptRow[]> {
  return db.select().from(callbackAttempts).where(eq(callbackAttempts.orderId, orderId)).orderBy(callbackAttempts.id);
}

/** Adds what the service learnt to the order's parameters (the spoken language an engine heard). */
export async function addOrderParams(db: Db, orderId: number, learnt: Record<string, string>): Promise<void> {
  await db
    .update(orders)
    .set({ params: sql`${orders.params} || ${JSON.stringify(learnt)}::jsonb` })
    .where(eq(orders.id, orderId));
}

/** The workbench plan an engine's hand-off gives an order (a translator for speech no engine translates), kept in its plan. */
export async function setPlannedWork(db: Db, orderId: number, work: WorkPlan): Promise<void> {
  await db
    .update(orders)
    .set({ plan: sql`${orders.plan} || ${JSON.stringify({ work })}::jsonb` })
    .where(eq(orders.id, orderId));
}

/** Keeps one more file with the order (its media's one copy), by claim-check; not on an order whose data was deleted. */
export async function keepInputFile(db: Db, orderId: number, name: string, file: InputFile): Promise<void> {
  await db.transaction(async (tx) => {
    await holdBlob(tx, orderId, file.key);
    await tx
      .update(orders)
      .set({ inputFiles: sql`${orders.inputFiles} || ${JSON.stringify({ [name]: file })}::jsonb` })
      .where(and(eq(orders.id, orderId), isNull(orders.deletedAt)));
  });
}
