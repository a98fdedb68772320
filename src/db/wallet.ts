// Charging and refunding orders. Each is one transaction with a ledger entry that is
// UNIQUE (order_id, kind), so a retried activity finds its earlier work instead of repeating it.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { accounts, ledgerEntries, orders, type OrderRow } from './schema.js';
import { fixedPlanOf, type OrderToPlace } from '../contracts/orders.js';
import { AccountNotFoundError, InsufficientFundsError, OrderStateError } from '../contracts/failures.js';
import { splitSubscription } from '../domain/pricing.js';
import { forgetAccount } from './accountCache.js';

export interface PaidOrder {
  order: OrderRow;
  balanceCents: number;
  aiMinutesLeft: number;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function lockAccount(tx: Tx, accountId: number) {
  const [account] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for('update');
  if (!account) throw new OrderStateError(`account ${accountId} not found`);
  return account;
}

/** Charges the wallet (and subscription minutes) and inserts the order as paid; the account row is locked. */
async function chargeInTx(tx: Tx, input: OrderToPlace): Promise<PaidOrder> {
  const account = await lockAccount(tx, input.accountId);
  const { minutesUsed, cents } = input.subscription
    ? splitSubscription(input.seconds, input.priceCents, account.aiMinutes, input.subscription.centsPerMinute)
    : { minutesUsed: 0, cents: input.priceCents };
  if (account.balanceCents < cents) throw new InsufficientFundsError(cents, account.balanceCents);
  const [after] = await tx
    .update(accounts)
    .set({ balanceCents: sql`${accounts.balanceCents} - ${cents}`, aiMinutes: sql`${accounts.aiMinutes} - ${minutesUsed}` })
    .where(eq(accounts.id, input.accountId))
    .returning({ balance: accounts.balanceCents, minutes: accounts.aiMinutes });
  const paidAt = new Date();
  const [order] = await tx
    .insert(orders)
    .values({
      id: input.id,
      accountId: input.accountId,
      product: input.product,
      status: 'paid',
      priceCents: cents,
      seconds: input.seconds,
      words: input.words,
      params: input.params,
      callbackUrl: input.callbackUrl,
      assignee: input.fulfilment === 'engine' ? 'engine' : 'operator',
      inputFiles: input.inputFiles ?? {},
      parentOrderId: input.parentOrderId ?? null,
      plan: fixedPlanOf(input),
      paidAt,
      deliveryEstimate: new Date(paidAt.getTime() + input.turnaroundHours * 3_600_000),
    })
    .returning();
  await tx.insert(ledgerEntries).values({
    accountId: input.accountId,
    orderId: input.id,
    kind: 'charge',
    amountCents: -cents,
    aiMinutes: -minutesUsed,
    balanceAfterCents: after!.balance,
  });
  return { order: order!, balanceCents: after!.balance, aiMinutesLeft: after!.minutes };
}

async function paidState(tx: Tx, order: OrderRow): Promise<PaidOrder> {
  const [account] = await tx.select().from(accounts).where(eq(accounts.id, order.accountId));
  return { order, balanceCents: account!.balanceCents, aiMinutesLeft: account!.aiMinutes };
}

/**
 * Creates the order as paid and charges the wallet, or changes nothing when funds are short.
 * `beforeCommit` runs as the transaction's last step (the crash-matrix tests crash there).
 */
export async function chargeWalletForOrder(db: Db, input: OrderToPlace, beforeCommit?: () => void): Promise<PaidOrder> {
  const paid = await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(orders).where(eq(orders.id, input.id));
    if (existing) return paidState(tx, existing);
    const charged = await chargeInTx(tx, input);
    beforeCommit?.();
    return charged;
  });
  forgetAccount(db, input.accountId);
  return paid;
}

/** Returns a paid order's price (and minutes) to the account and moves it to `status`. */
async function refundInTx(tx: Tx, order: OrderRow, status: string, note: string | null): Promise<number> {
  const [charge] = await tx
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.kind, 'charge')));
  const minutes = -(charge?.aiMinutes ?? 0);
  const [account] = await tx
    .update(accounts)
    .set({ balanceCents: sql`${accounts.balanceCents} + ${order.priceCents}`, aiMinutes: sql`${accounts.aiMinutes} + ${minutes}` })
    .where(eq(accounts.id, order.accountId))
    .returning({ balance: accounts.balanceCents });
  await tx.insert(ledgerEntries).values({
    accountId: order.accountId,
    orderId: order.id,
    kind: 'refund',
    amountCents: order.priceCents,
    aiMinutes: minutes,
    balanceAfterCents: account!.balance,
    note,
  });
  await tx.update(orders).set({ status }).where(eq(orders.id, order.id));
  return account!.balance;
}

async function lockOrder(tx: Tx, orderId: number): Promise<OrderRow> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw new OrderStateError(`order ${orderId} not found`);
  return order;
}

async function refundEntry(tx: Tx, orderId: number) {
  const [entry] = await tx
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, orderId), eq(ledgerEntries.kind, 'refund')));
  return entry;
}

/**
 * Returns an order's price to the wallet and moves it to `status` (refunded or canceled).
 * Idempotent: a second call finds the refund entry and changes nothing.
 */
export async function refundOrder(db: Db, orderId: number, status: 'refunded' | 'canceled', note: string | null): Promise<{ balanceCents: number }> {
  let accountId: number | undefined;
  const refunded = await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    accountId = order.accountId;
    const already = await refundEntry(tx, orderId);
    if (already) return { balanceCents: already.balanceAfterCents };
    if (order.status !== 'paid') throw new OrderStateError(`order ${orderId} is ${order.status}; only a paid order can be ${status}`);
    return { balanceCents: await refundInTx(tx, order, status, note) };
  });
  forgetAccount(db, accountId!);
  return refunded;
}

/**
 * A hand-off (proofreading → human transcription), in one transaction: the parent's fee goes back
 * to the wallet with `refundNote`, then `child` is charged and created. When the wallet cannot pay
 * for it the parent simply stays refunded (child null). Idempotent for a retried activity.
 */
export async function retranscribe(db: Db, parentId: number, child: OrderToPlace, refundNote: string): Promise<{ childOrderId: number | null }> {
  const handedOn = await db.transaction(async (tx) => {
    const parent = await lockOrder(tx, parentId);
    if (parent.retranscribedOrderId !== null) return { childOrderId: parent.retranscribedOrderId };
    if (await refundEntry(tx, parentId)) return { childOrderId: null };
    if (parent.status !== 'paid') throw new OrderStateError(`order ${parentId} is ${parent.status}; only a paid order can be retranscribed`);
    await refundInTx(tx, parent, 'refunded', refundNote);
    const account = await lockAccount(tx, parent.accountId);
    if (account.balanceCents < child.priceCents) return { childOrderId: null };
    await chargeInTx(tx, { ...child, parentOrderId: parentId });
    await tx.update(orders).set({ status: 'retranscribed', retranscribedOrderId: child.id }).where(eq(orders.id, parentId));
    return { childOrderId: child.id };
  });
  forgetAccount(db, child.accountId);
  return handedOn;
}

/** Adds AI subscription minutes to an account (order-ops account grant-minutes). */
export async function grantAiMinutes(db: Db, accountId: number, minutes: number, note: string | null): Promise<number> {
  const granted = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(accounts)
      .set({ aiMinutes: sql`${accounts.aiMinutes} + ${minutes}` })
      .where(eq(accounts.id, accountId))
      .returning({ minutes: accounts.aiMinutes, balance: accounts.balanceCents });
    if (!row) throw new AccountNotFoundError(accountId);
    await tx.insert(ledgerEntries).values({ accountId, kind: 'grant', amountCents: 0, aiMinutes: minutes, balanceAfterCents: row.balance, note });
    return row.minutes;
  });
  forgetAccount(db, accountId);
  return granted;
}

export async function nextOrderId(db: Db): Promise<number> {
  const result = (await db.execute(sql`SELECT nextval('order_ids') AS id`)) as unknown as { rows: Array<{ id: string | number }> };
  return Number(result.rows[0]!.id);
}
