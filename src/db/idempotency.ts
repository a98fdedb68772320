// Idempotency keys of order creation. A key is claimed before any work; its row holds the order id
// once one is drawn, then the first answer. A retry whose first request died after the charge
// finds the charged order through the row's order id.
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from './connection.js';
import { idempotencyKeys, ledgerEntries, orders, type OrderRow } from './schema.js';

export type KeyClaim =
  /** The caller does the work and stores its answer. */
  | { kind: 'owned' }
  /** The first request's answer, to be sent again byte for byte. */
  | { kind: 'answered'; statusCode: number; body: string }
  /** The first request's answer was lost, but its order was charged. */
  | { kind: 'charged'; order: OrderRow; balanceAfterCents: number }
  | { kind: 'in_flight' }
  | { kind: 'other_parameters' };

export interface KeyRef {
  accountId: number;
  key: string;
}

/**
 * Claims `key` for a request with `requestHash`. `leaseMs`: how long an unanswered first request
 * may still charge (after that a retry may start afresh); `ttlMs`: how long answers are kept.
 */
export async function claimIdempotencyKey(db: Db, ref: KeyRef, requestHash: string, leaseMs: number, ttlMs: number): Promise<KeyClaim> {
  const now = new Date();
  const lockedUntil = new Date(now.getTime() + leaseMs);
  return db.transaction(async (tx) => {
    // Expired keys of this account go first, so an old key can be used again.
    await tx
      .delete(idempotencyKeys)
      .where(
        and(eq(idempotencyKeys.accountId, ref.accountId), lt(idempotencyKeys.createdAt, new Date(now.getTime() - ttlMs)), lt(idempotencyKeys.lockedUntil, now)),
      );
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ ...ref, requestHash, lockedUntil })
      .onConflictDoNothing()
      .returning();
    if (inserted.length) return { kind: 'owned' } as const;
    const [row] = await tx.select().from(idempotencyKeys).where(keyIs(ref)).for('update');
    if (!row) return { kind: 'in_flight' } as const; // deleted between the two statements: rare, and retrying is right
    if (row.requestHash !== requestHash) return { kind: 'other_parameters' } as const;
    if (row.responseBody !== null) return { kind: 'answered', statusCode: row.statusCode!, body: row.responseBody } as const;
    if (row.orderId !== null) {
      const charged = await chargedOrder(tx as unknown as Db, row.orderId);
      if (charged) return { kind: 'charged', ...charged } as const;
    }
    if (row.lockedUntil > now) return { kind: 'in_flight' } as const;
    // The first request died before anything was charged, and can no longer charge: start afresh.
    await tx.update(idempotencyKeys).set({ orderId: null, lockedUntil, createdAt: now }).where(keyIs(ref));
    return { kind: 'owned' } as const;
  });
}

/** Notes the order id drawn for the key's request, before its charge can happen. */
export async function recordKeyOrder(db: Db, ref: KeyRef, orderId: number): Promise<void> {
  await db.update(idempotencyKeys).set({ orderId }).where(keyIs(ref));
}

/** Keeps the first answer (a later writer never replaces it). */
export async function storeKeyAnswer(db: Db, ref: KeyRef, statusCode: number, body: string): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ statusCode, responseBody: body })
    .where(and(keyIs(ref), isNull(idempotencyKeys.responseBody)));
}

/** Frees a key whose request failed before drawing an order id (a fault, not the caller's mistake). */
export async function releaseKey(db: Db, ref: KeyRef): Promise<void> {
  await db.delete(idempotencyKeys).where(and(keyIs(ref), isNull(idempotencyKeys.responseBody), isNull(idempotencyKeys.orderId)));
}

async function chargedOrder(db: Db, orderId: number): Promise<{ order: OrderRow; balanceAfterCents: number } | undefined> {
  const [row] = await db
    .select({ order: orders, balanceAfterCents: ledgerEntries.balanceAfterCents })
    .from(orders)
    .innerJoin(ledgerEntries, and(eq(ledgerEntries.orderId, orders.id), eq(ledgerEntries.kind, 'charge')))
    .where(eq(orders.id, orderId));
  return row;
}

function keyIs(ref: KeyRef) {
  return and(eq(idempotencyKeys.accountId, ref.accountId), eq(idempotencyKeys.key, ref.key));
}
