// Share links (issue 44): a finished order's transcript page, opened without signing in by a token of
// its own (never the account's API token). The token is looked up by its HMAC and kept encrypted,
// so the account's pages can show the link again. At most one link per order; stopping it or
// rotating the account's API token deletes the row, and the link answers 404 from the next request.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from './connection.js';
import { orders, shareLinks, type OrderRow, type ShareLinkRow } from './schema.js';
import { decryptToken, encryptToken, newApiToken, shareTokenHash } from '../domain/tokens.js';

/** A link as the account's pages show it: its token and when it ends (null: never). */
export interface ShareLink {
  orderId: number;
  token: string;
  expiresAt: Date | null;
  createdAt: Date;
}

const shown = (key: Buffer, row: ShareLinkRow): ShareLink => ({
  orderId: row.orderId,
  token: decryptToken(key, row.tokenEncrypted),
  expiresAt: row.expiresAt,
  createdAt: row.createdAt,
});

/**
 * The order's link: the one it has, else a new one ending at `expiresAt` (null: never). Two shares at
 * once make one link (the order's row is unique; the later insert does nothing and reads the first).
 */
export async function shareOrder(db: Db, key: Buffer, accountId: number, orderId: number, expiresAt: Date | null): Promise<ShareLink> {
  const token = newApiToken();
  await db
    .insert(shareLinks)
    .values({ tokenHash: shareTokenHash(key, token), tokenEncrypted: encryptToken(key, token), accountId, orderId, expiresAt })
    .onConflictDoNothing({ target: shareLinks.orderId });
  return (await shareLinkOfOrder(db, key, accountId, orderId))!;
}

export async function shareLinkOfOrder(db: Db, key: Buffer, accountId: number, orderId: number): Promise<ShareLink | undefined> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.accountId, accountId), eq(shareLinks.orderId, orderId)));
  return row && shown(key, row);
}

/** Every link of the account, oldest order first (expired ones too, until they are stopped). */
export async function shareLinksOfAccount(db: Db, key: Buffer, accountId: number): Promise<ShareLink[]> {
  const rows = await db.select().from(shareLinks).where(eq(shareLinks.accountId, accountId)).orderBy(asc(shareLinks.orderId));
  return rows.map((row) => shown(key, row));
}

/** Ends the order's link; whether there was one. */
export async function stopSharing(db: Db, accountId: number, orderId: number): Promise<boolean> {
  const ended = await db
    .delete(shareLinks)
    .where(and(eq(shareLinks.accountId, accountId), eq(shareLinks.orderId, orderId)))
    .returning({ orderId: shareLinks.orderId });
  return ended.length > 0;
}

/** Ends every link of the account (a rotated API token takes them with it); how many ended. */
export async function endAccountShareLinks(db: Pick<Db, 'delete'>, accountId: number): Promise<number> {
  const ended = await db.delete(shareLinks).where(eq(shareLinks.accountId, accountId)).returning({ orderId: shareLinks.orderId });
  return ended.length;
}

/** What a share link's token opens: the order, and whether the link has expired; undefined for no live link. */
export async function sharedOrder(db: Db, key: Buffer, token: string): Promise<{ order: OrderRow; expired: boolean } | undefined> {
  const [row] = await db
    .select({ order: orders, expiresAt: shareLinks.expiresAt })
    .from(shareLinks)
    .innerJoin(orders, and(eq(orders.id, shareLinks.orderId), eq(orders.accountId, shareLinks.accountId)))
    .where(eq(shareLinks.tokenHash, shareTokenHash(key, token)));
  return row && { order: row.order, expired: row.expiresAt !== null && row.expiresAt <= new Date() };
}
