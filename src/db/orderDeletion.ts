// An order's data deleted (issue 53), in the database: the record stays for the bill (product, seconds
// or words, price, dates, status) with `deleted_at`; what the customer sent and what was made of it
// goes: the URLs, file names, comments and vocabulary in its parameters, its callback URL, its input
// and result files' keys, the drafts and work texts of its tasks, its callback attempts' URLs and
// answers, its share link, and the hash of the request an idempotency key kept (a retry then meets
// "other parameters", never a second charge). The blobs themselves: src/db/orderBlobs.ts.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { callbackAttempts, claimReservations, idempotencyKeys, orderFiles, orders, shareLinks, tasks, type OrderRow } from './schema.js';
import { CUSTOMER_CONTENT_PARAMS } from '../products/params.js';

/** What an idempotency key keeps of a deleted order's request: no hash any request can match. */
export const DELETED_REQUEST = 'deleted';

/**
 * Blanks order `orderId`'s data and sets `deleted_at` (once); its row as it is now. Run again, it
 * blanks again what a late writer may have added (an attempt under way when the workflow stopped).
 */
export async function blankOrderData(db: Db, orderId: number): Promise<OrderRow | undefined> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) return undefined;
    const params = Object.fromEntries(Object.entries(order.params).filter(([name]) => !CUSTOMER_CONTENT_PARAMS.has(name)));
    const [blanked] = await tx
      .update(orders)
      .set({
        params: params as OrderRow['params'],
        callbackUrl: null,
        inputFiles: {},
        draftWordsKey: null,
        draftDoubts: null,
        // Sentences the service wrote about the media and the engine's findings may quote them.
        mediaNote: null,
        engineNote: null,
        deletedAt: order.deletedAt ?? sql`now()`,
      })
      .where(eq(orders.id, orderId))
      .returning();
    await tx.delete(orderFiles).where(eq(orderFiles.orderId, orderId));
    await tx.update(callbackAttempts).set({ url: '', detail: null }).where(eq(callbackAttempts.orderId, orderId));
    await tx.delete(shareLinks).where(eq(shareLinks.orderId, orderId));
    await tx.update(idempotencyKeys).set({ requestHash: DELETED_REQUEST, responseBody: null }).where(eq(idempotencyKeys.orderId, orderId));
    // Tasks stay for the workers' pay (their earnings point at them); their texts go, open ones close.
    const orderTasks = tasks.orderId;
    await tx.update(tasks).set({ draft: '', baseText: null, note: null }).where(eq(orderTasks, orderId));
    await tx
      .update(tasks)
      .set({ status: 'closed', closedAt: sql`now()`, claimedBy: null })
      .where(and(eq(orderTasks, orderId), inArray(tasks.status, ['waiting', 'claimed', 'sent_back'])));
    const taskIds = tx.select({ id: tasks.id }).from(tasks).where(eq(orderTasks, orderId));
    await tx.delete(claimReservations).where(inArray(claimReservations.taskId, taskIds));
    return blanked;
  });
}
