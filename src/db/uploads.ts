// Uploads (issue 52): the state of a customer's upload, shared by every API process (the bytes are a
// file of the file store, src/storage/uploads.ts). An upload ends once, terminated by its owner or
// expired; a live order placed on it is recorded as a use under the upload's row lock, so that an
// expiry either sees the use (and keeps the bytes as the order's media) or the order is refused.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { orders, uploads, uploadUses, type UploadRow } from './schema.js';

export async function createUploadRow(db: Db, row: { id: string; accountId: number; expiresAt: Date }): Promise<void> {
  await db.insert(uploads).values(row);
}

export async function getUploadRow(db: Db, id: string): Promise<UploadRow | undefined> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row;
}

/** What @tus/file-store keeps of an upload that has not ended; undefined otherwise. */
export async function uploadInfo(db: Db, id: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await db
    .select({ info: uploads.info })
    .from(uploads)
    .where(and(eq(uploads.id, id), isNull(uploads.endedAt)));
  return row?.info ?? undefined;
}

export async function setUploadInfo(db: Db, id: string, info: Record<string, unknown>): Promise<void> {
  await db
    .update(uploads)
    .set({ info })
    .where(and(eq(uploads.id, id), isNull(uploads.endedAt)));
}

/** Every upload's id that has not ended (@tus/file-store's list). */
export async function openUploadIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: uploads.id }).from(uploads).where(isNull(uploads.endedAt));
  return rows.map((row) => row.id);
}

export async function completeUpload(db: Db, id: string): Promise<void> {
  await db
    .update(uploads)
    .set({ completedAt: sql`now()` })
    .where(and(eq(uploads.id, id), isNull(uploads.completedAt)));
}

/**
 * Ends an upload (its bytes are to go), once, and returns the orders placed on it (also when it had
 * ended already: whoever ends it keeps their media first, and may be run again). The row lock orders
 * it against recordUploadUse: a use either came first (and is returned) or finds the upload ended.
 */
export async function endUpload(db: Db, id: string, reason: 'terminated' | 'expired'): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx
      .update(uploads)
      .set({ endedAt: sql`now()`, endedReason: reason, info: null })
      .where(and(eq(uploads.id, id), isNull(uploads.endedAt)));
    const uses = await tx.select({ orderId: uploadUses.orderId }).from(uploadUses).where(eq(uploadUses.uploadId, id));
    return uses.map((use) => use.orderId);
  });
}

/** The orders placed on an upload. */
export async function ordersOnUpload(db: Db, id: string): Promise<number[]> {
  const uses = await db.select({ orderId: uploadUses.orderId }).from(uploadUses).where(eq(uploadUses.uploadId, id));
  return uses.map((use) => use.orderId);
}

/**
 * Records that order `orderId` is placed on upload `id`, if the upload may still be ordered (whole,
 * not ended, not expired); whether it was.
 */
export async function recordUploadUse(db: Db, id: string, orderId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const result = (await tx.execute(
      sql`SELECT 1 FROM uploads WHERE id = ${id} AND ended_at IS NULL AND completed_at IS NOT NULL AND expires_at > now() FOR SHARE`,
    )) as unknown as { rows: unknown[] };
    if (result.rows.length === 0) return false;
    await tx.insert(uploadUses).values({ uploadId: id, orderId }).onConflictDoNothing();
    return true;
  });
}

/** The uploads order `orderId` was placed on that no order whose data is kept still uses (they go with it). */
export async function uploadsOnlyDeletedOrdersUse(db: Db, orderId: number): Promise<string[]> {
  const rows = (await db.execute(sql`
    SELECT u.upload_id AS id FROM ${uploadUses} u
    WHERE u.order_id = ${orderId}
      AND NOT EXISTS (
        SELECT 1 FROM ${uploadUses} o JOIN ${orders} ord ON ord.id = o.order_id
        WHERE o.upload_id = u.upload_id AND ord.deleted_at IS NULL)`)) as unknown as { rows: Array<{ id: string }> };
  return rows.rows.map((row) => row.id);
}
