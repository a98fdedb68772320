// Which orders hold which file-store blobs (issue 53): every blob an order's work writes is named
// here before it is published (a BlobClaim), and the blobs results and input files point at are
// named when they are recorded. The store is content-addressed, so two orders of the same bytes
// share one blob: a deletion removes a blob only when no other order holds it. One lock per key
// orders a claim against a removal: the claim either comes first (and the blob stays) or after
// the removal (and its file is published again).
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { orderBlobs } from './schema.js';
import type { BlobClaim } from '../storage/fileStore.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const lockKey = (tx: Tx, key: string) => tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${'blob:' + key}, 0))`);

/** Names `orderId` as a holder of `key` (in the caller's transaction, when it passes one: a savepoint). */
export async function holdBlob(db: Db | Tx, orderId: number, key: string): Promise<void> {
  await (db as Db).transaction(async (tx) => {
    await lockKey(tx, key);
    await tx.insert(orderBlobs).values({ orderId, blobKey: key }).onConflictDoNothing();
  });
}

/** The claim of a blob an order's work writes: `files.put(bytes, forOrder(db, orderId))`. */
export const forOrder =
  (db: Db, orderId: number): BlobClaim =>
  (key) =>
    holdBlob(db, orderId, key);

/**
 * Lets go of every blob `orderId` holds, removing (`remove`) each one no other order holds. Run
 * again, it goes on where it stopped: a hold is dropped only once its blob was dealt with.
 */
export async function releaseOrderBlobs(db: Db, orderId: number, remove: (key: string) => Promise<void>): Promise<{ removed: number; shared: number }> {
  const held = await db.select({ key: orderBlobs.blobKey }).from(orderBlobs).where(eq(orderBlobs.orderId, orderId));
  let removed = 0;
  for (const { key } of held) {
    await db.transaction(async (tx) => {
      await lockKey(tx, key);
      await tx.delete(orderBlobs).where(and(eq(orderBlobs.orderId, orderId), eq(orderBlobs.blobKey, key)));
      const [other] = await tx.select({ orderId: orderBlobs.orderId }).from(orderBlobs).where(eq(orderBlobs.blobKey, key)).limit(1);
      if (other) return;
      await remove(key);
      removed += 1;
    });
  }
  return { removed, shared: held.length - removed };
}
