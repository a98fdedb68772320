// The ledger audit the reliability suites run after their work: entries sum to balances (money and
// AI minutes), one charge per order, at most one refund and never more than the charge, refunds
// only for orders that were refunded, canceled or handed on, no negative balance.
import type { Db } from '../../src/db/connection.js';
import { accounts, ledgerEntries, orders } from '../../src/db/schema.js';

export interface LedgerAudit {
  accounts: number;
  orders: number;
  entries: number;
  problems: string[];
}

const REFUNDED = ['refunded', 'canceled', 'retranscribed'];

export async function auditLedger(db: Db): Promise<LedgerAudit> {
  const [accountRows, entryRows, orderRows] = await Promise.all([db.select().from(accounts), db.select().from(ledgerEntries), db.select().from(orders)]);
  const problems: string[] = [];
  for (const account of accountRows) {
    const own = entryRows.filter((e) => e.accountId === account.id);
    const cents = own.reduce((sum, e) => sum + e.amountCents, 0);
    const minutes = own.reduce((sum, e) => sum + e.aiMinutes, 0);
    if (cents !== account.balanceCents) problems.push(`account ${account.id}: entries sum to ${cents} cents, the balance is ${account.balanceCents}`);
    if (minutes !== account.aiMinutes) problems.push(`account ${account.id}: entries sum to ${minutes} AI minutes, the account has ${account.aiMinutes}`);
    if (account.balanceCents < 0) problems.push(`account ${account.id}: negative balance ${account.balanceCents}`);
  }
  for (const order of orderRows) {
    const own = entryRows.filter((e) => e.orderId === order.id);
    const charges = own.filter((e) => e.kind === 'charge');
    const refunds = own.filter((e) => e.kind === 'refund');
    if (charges.length !== 1) problems.push(`order ${order.id}: ${charges.length} charges`);
    if (refunds.length > 1) problems.push(`order ${order.id}: ${refunds.length} refunds`);
    const charged = -(charges[0]?.amountCents ?? 0);
    for (const refund of refunds) if (refund.amountCents > charged) problems.push(`order ${order.id}: refund ${refund.amountCents} exceeds charge ${charged}`);
    if (refunds.length > 0 && !REFUNDED.includes(order.status)) problems.push(`order ${order.id}: refunded but ${order.status}`);
    if (refunds.length === 0 && REFUNDED.includes(order.status)) problems.push(`order ${order.id}: ${order.status} without a refund`);
  }
  for (const entry of entryRows) {
    if ((entry.kind === 'charge' || entry.kind === 'refund') && !orderRows.some((o) => o.id === entry.orderId)) {
      problems.push(`ledger entry ${entry.id}: ${entry.kind} of an order that does not exist (${entry.orderId})`);
    }
  }
  return { accounts: accountRows.length, orders: orderRows.length, entries: entryRows.length, problems };
}
