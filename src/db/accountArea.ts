// The account area's reads, always scoped to the signed-in account.
import { and, desc, eq, inArray, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { Db } from './connection.js';
import { ledgerEntries, orders, type OrderRow } from './schema.js';
import type { StatusLabel } from '../domain/statusLabels.js';

function statusCondition(label: StatusLabel): SQL {
  switch (label) {
    case 'paid':
      return and(eq(orders.status, 'paid'), ne(orders.assignee, 'engine'))!;
    case 'in progress':
      return and(eq(orders.status, 'paid'), eq(orders.assignee, 'engine'))!;
    case 'finished':
      return and(eq(orders.status, 'finished'), or(isNull(orders.qcStatus), ne(orders.qcStatus, 'pending')))!;
    case 'in quality check':
      return and(eq(orders.status, 'finished'), eq(orders.qcStatus, 'pending'))!;
    default:
      return eq(orders.status, label);
  }
}

export interface OrderFilter {
  product?: string;
  status?: StatusLabel;
  id?: number;
}

/** One page of the account's orders, newest first; one more row than `limit` says there is a next page. */
export async function findOrders(db: Db, accountId: number, filter: OrderFilter, offset: number, limit: number): Promise<OrderRow[]> {
  const conditions = [eq(orders.accountId, accountId)];
  if (filter.product) conditions.push(eq(orders.product, filter.product));
  if (filter.status) conditions.push(statusCondition(filter.status));
  if (filter.id !== undefined) conditions.push(eq(orders.id, filter.id));
  return db
    .select()
    .from(orders)
    .where(and(...conditions))
    .orderBy(desc(orders.id))
    .offset(offset)
    .limit(limit + 1);
}

export async function ordersByIds(db: Db, accountId: number, ids: number[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.accountId, accountId), inArray(orders.id, ids)));
}

export type LedgerRow = typeof ledgerEntries.$inferSelect;

/** Ledger entries newest first; without `page`, all of them (the CSV). */
export async function ledgerOf(db: Db, accountId: number, page?: { offset: number; limit: number }): Promise<LedgerRow[]> {
  const query = db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId)).orderBy(desc(ledgerEntries.id));
  return page ? query.offset(page.offset).limit(page.limit + 1) : query;
}

export async function orderLedger(db: Db, accountId: number, orderId: number): Promise<LedgerRow[]> {
  return db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.orderId, orderId)))
    .orderBy(ledgerEntries.id);
}
