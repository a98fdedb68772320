// Charging and refunding orders. Each is one transaction with a ledger entry that is
// UNIQUE (order_id, kind), so a retried activity finds its earlier work instead of repeating it.
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { accounts, ledgerEntries, orders, type OrderRow } from './schema.js';
import type { OrderToPlace } from '../workflows/messages.js';

export class InsufficientFundsError extends Error {
  constructor(readonly neededCents: number, readonly availableCents: number) {
    super(`insufficient funds: the order costs $${(neededCents / 100).toFixed(2)} and the wallet holds $${(availableCents / 100).toFixed(2)}`);
  }
}

export interface PaidOrder {
  order: OrderRow;
  balanceCents: number;
}

/** Creates the order as paid and charges the wallet, or changes nothing when funds are short. */
export async function chargeWalletForOrder(db: Db, input: OrderToPlace): Promise<PaidOrder> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(orders).where(eq(orders.id, input.id));
    if (existing) {
      const [account] = await tx.select({ balance: accounts.balanceCents }).from(accounts).where(eq(accounts.id, existing.accountId));
      return { order: existing, balanceCents: account!.balance };
    }
    const [charged] = await tx.update(accounts)
      .set({ balanceCents: sql`${accounts.balanceCents} - ${input.priceCents}` })
      .where(and(eq(accounts.id, input.accountId), gte(accounts.balanceCents, input.priceCents)))
      .returning({ balance: accounts.balanceCents });
    if (!charged) {
      const [account] = await tx.select({ balance: accounts.balanceCents }).from(accounts).where(eq(accounts.id, input.accountId));
      throw new InsufficientFundsError(input.priceCents, account?.balance ?? 0);
    }
    const paidAt = new Date();
    const [order] = await tx.insert(orders).values({
      id: input.id,
      accountId: input.accountId,
      product: input.product,
      status: 'paid',
      priceCents: input.priceCents,
      seconds: input.seconds,
      words: input.words,
      params: input.params,
      callbackUrl: input.callbackUrl,
      paidAt,
      deliveryEstimate: new Date(paidAt.getTime() + input.turnaroundHours * 3_600_000),
    }).returning();
    await tx.insert(ledgerEntries).values({
      accountId: input.accountId, orderId: input.id, kind: 'charge', amountCents: -input.priceCents, balanceAfterCents: charged.balance,
    });
    return { order: order!, balanceCents: charged.balance };
  });
}

export class OrderStateError extends Error {}

/**
 * Returns an order's price to the wallet and moves it to `status` (refunded or canceled).
 * Idempotent: a second call finds the refund entry and changes nothing.
 */
export async function refundOrder(db: Db, orderId: number, status: 'refunded' | 'canceled', note: string | null): Promise<{ balanceCents: number }> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new OrderStateError(`order ${orderId} not found`);
    const [already] = await tx.select().from(ledgerEntries).where(and(eq(ledgerEntries.orderId, orderId), eq(ledgerEntries.kind, 'refund')));
    if (already) return { balanceCents: already.balanceAfterCents };
    if (order.status !== 'paid') throw new OrderStateError(`order ${orderId} is ${order.status}; only a paid order can be ${status}`);
    const [account] = await tx.update(accounts)
      .set({ balanceCents: sql`${accounts.balanceCents} + ${order.priceCents}` })
      .where(eq(accounts.id, order.accountId))
      .returning({ balance: accounts.balanceCents });
    await tx.insert(ledgerEntries).values({
      accountId: order.accountId, orderId, kind: 'refund', amountCents: order.priceCents, balanceAfterCents: account!.balance, note,
    });
    await tx.update(orders).set({ status }).where(eq(orders.id, orderId));
    return { balanceCents: account!.balance };
  });
}

export async function nextOrderId(db: Db): Promise<number> {
  const result = (await db.execute(sql`SELECT nextval('order_ids') AS id`)) as unknown as { rows: Array<{ id: string | number }> };
  return Number(result.rows[0]!.id);
}
