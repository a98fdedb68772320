// Charging and refunding orders. Each is one transaction (or, for a charge from the wallet alone,
// one statement) with a ledger entry that is UNIQUE (order_id, kind), so a retried activity finds
// its earlier work instead of repeating it.
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './connection.js';
import { accounts, ledgerEntries, orders, type OrderRow } from './schema.js';
import { fixedPlanOf, type OrderToPlace } from '../contracts/orders.js';
import type { OrderParams } from '../products/registry.js';
import { AccountNotFoundError, InsufficientFundsError, OrderStateError } from '../contracts/failures.js';
import { splitSubscription } from '../domain/pricing.js';
import { forgetAccount } from './accountCache.js';

export interface PaidOrder {
  orderId: number;
  chargedCents: number;
  paidAt: Date;
  deliveryEstimate: Date;
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
async function chargeInTx(tx: Tx, input: OrderToPlace<OrderParams>): Promise<PaidOrder> {
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
  const [order] = await tx.insert(orders).values(newOrderRow(input, cents)).returning();
  await tx.insert(ledgerEntries).values({
    accountId: input.accountId,
    orderId: input.id,
    kind: 'charge',
    amountCents: -cents,
    aiMinutes: -minutesUsed,
    balanceAfterCents: after!.balance,
  });
  return paidOrder(order!, after!.balance, after!.minutes);
}

const paidOrder = (order: OrderRow, balanceCents: number, aiMinutesLeft: number): PaidOrder => ({
  orderId: order.id,
  chargedCents: order.priceCents,
  paidAt: order.paidAt!,
  deliveryEstimate: order.deliveryEstimate!,
  balanceCents,
  aiMinutesLeft,
});

/** The order's row as the charge inserts it: paid now, for `cents`. */
function newOrderRow(input: OrderToPlace<OrderParams>, cents: number) {
  const paidAt = new Date();
  return {
    id: input.id,
    accountId: input.accountId,
    product: input.product,
    status: 'paid',
    priceCents: cents,
    seconds: input.seconds,
    words: input.words,
    params: input.params,
    callbackUrl: input.callbackUrl,
    assignee: input.fulfilment === 'engine' ? ('engine' as const) : ('operator' as const),
    inputFiles: input.inputFiles ?? {},
    parentOrderId: input.parentOrderId ?? null,
    deleteAfterSeconds: input.deleteAfterSeconds ?? null,
    plan: fixedPlanOf(input),
    paidAt,
    deliveryEstimate: new Date(paidAt.getTime() + input.turnaroundHours * 3_600_000),
  } satisfies typeof orders.$inferInsert;
}

async function paidState(tx: Tx, order: OrderRow): Promise<PaidOrder> {
  const [account] = await tx.select().from(accounts).where(eq(accounts.id, order.accountId));
  return paidOrder(order, account!.balanceCents, account!.aiMinutes);
}

/** `values` as an INSERT's column list and its SELECT list, each value as its column's driver value and type. */
function insertColumns<T extends PgTable>(table: T, values: Partial<T['$inferInsert']>): { names: SQL; values: SQL } {
  const columns: Record<string, PgColumn> = getTableColumns(table);
  const entries = Object.entries(values).map(([key, value]) => [columns[key]!, value] as const);
  return {
    names: sql.join(
      entries.map(([column]) => sql.identifier(column.name)),
      sql`, `,
    ),
    values: sql.join(
      entries.map(([column, value]) =>
        value === null ? sql`NULL::${sql.raw(column.getSQLType())}` : sql`${column.mapToDriverValue(value)}::${sql.raw(column.getSQLType())}`,
      ),
      sql`, `,
    ),
  };
}

/**
 * The charge of an order paid from the wallet alone, in one statement: the account debited where
 * it holds enough and the order is not there yet, and from that debit the order and its ledger
 * entry inserted. Atomic as a statement: should two charges of one order race past the check, the
 * second insert meets the order's key and its whole statement, debit included, is undone (the
 * transaction then finds the order). Undefined when it changed nothing (the order is there, the
 * funds are short, no such account): the transaction then finds out which. On the
 * embedded database each statement of the transaction waits its turn on the database's thread and
 * then on the main thread's, 13 ms at the median and 34 at p99 for the charge's seven under load
 * (docs/benchmarks.md); this is one.
 */
async function chargeInOneStatement(db: Db, input: OrderToPlace<OrderParams>): Promise<PaidOrder | undefined> {
  const cents = input.priceCents;
  const row = newOrderRow(input, cents);
  const order = insertColumns(orders, row);
  const ledger = insertColumns(ledgerEntries, { accountId: input.accountId, orderId: input.id, kind: 'charge', amountCents: -cents, aiMinutes: 0 });
  const result = (await db.execute(sql`
    WITH debit AS (
      UPDATE ${accounts} SET ${sql.identifier(accounts.balanceCents.name)} = ${accounts.balanceCents} - ${cents}
      WHERE ${accounts.id} = ${input.accountId} AND ${accounts.balanceCents} >= ${cents}
        AND NOT EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${input.id})
      RETURNING ${accounts.balanceCents} AS balance, ${accounts.aiMinutes} AS minutes
    ), placed AS (
      INSERT INTO ${orders} (${order.names}) SELECT ${order.values} FROM debit
    ), entry AS (
      INSERT INTO ${ledgerEntries} (${ledger.names}, ${sql.identifier(ledgerEntries.balanceAfterCents.name)}) SELECT ${ledger.values}, debit.balance FROM debit
    )
    SELECT balance::float8 AS balance, minutes FROM debit`)) as unknown as { rows: Array<{ balance: number; minutes: number }> };
  const [debited] = result.rows;
  if (!debited) return undefined;
  return {
    orderId: input.id,
    chargedCents: cents,
    paidAt: row.paidAt,
    deliveryEstimate: row.deliveryEstimate,
    balanceCents: Number(debited.balance),
    aiMinutesLeft: Number(debited.minutes),
  };
}

/**
 * Creates the order as paid and charges the wallet, or changes nothing when funds are short.
 * `beforeCommit` runs just before the charge becomes durable (the crash-matrix tests crash there).
 * An order paid from the wallet alone is charged in one statement; one that uses the account's
 * minutes, is already there, or cannot be paid, in a transaction that reads the account.
 */
export async function chargeWalletForOrder(db: Db, input: OrderToPlace<OrderParams>, beforeCommit?: () => void): Promise<PaidOrder> {
  let quick: PaidOrder | undefined;
  if (!input.subscription) {
    beforeCommit?.();
    quick = await chargeInOneStatement(db, input).catch((err: unknown) => {
      // Another charge of this order inserted it first: the transaction finds it.
      if (isUniqueViolation(err)) return undefined;
      throw err;
    });
  }
  const paid =
    quick ??
    (await db.transaction(async (tx) => {
      const [existing] = await tx.select().from(orders).where(eq(orders.id, input.id));
      if (existing) return paidState(tx, existing);
      const charged = await chargeInTx(tx, input);
      beforeCommit?.();
      return charged;
    }));
  forgetAccount(db, input.accountId);
  return paid;
}

/** A unique key's violation: PostgreSQL's error, which drizzle gives as its DrizzleQueryError's cause. */
function isUniqueViolation(err: unknown): boolean {
  const { code, cause } = err as { code?: string; cause?: { code?: string } };
  return (code ?? cause?.code) === '23505';
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
  await tx.update(orders).set({ status, settledAt: new Date() }).where(eq(orders.id, order.id));
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
export async function retranscribe(db: Db, parentId: number, child: OrderToPlace<OrderParams>, refundNote: string): Promise<{ childOrderId: number | null }> {
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
