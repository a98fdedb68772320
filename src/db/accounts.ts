// Accounts, their tokens and wallet top-ups.
import { eq, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { accounts, ledgerEntries, type AccountRow } from './schema.js';
import { encryptToken, newApiToken, tokenHash } from '../domain/tokens.js';
import { AccountNotFoundError } from '../contracts/failures.js';

/** Accounts created on or after this date get canceled callbacks by default (spec, Events rule 2). */
export const CANCELED_CALLBACKS_SINCE = new Date('2026-03-30T00:00:00Z');

export interface NewAccount {
  name: string;
  balanceCents?: number;
  createdAt?: Date;
  callbackUrl?: string | null;
  canceledCallbacks?: boolean;
}

export async function createAccount(db: Db, key: Buffer, input: NewAccount): Promise<{ accountId: number; apiToken: string }> {
  const apiToken = newApiToken();
  const createdAt = input.createdAt ?? new Date();
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(accounts).values({
      name: input.name,
      tokenHash: tokenHash(key, apiToken),
      tokenEncrypted: encryptToken(key, apiToken),
      callbackUrl: input.callbackUrl ?? null,
      canceledCallbacks: input.canceledCallbacks ?? createdAt >= CANCELED_CALLBACKS_SINCE,
      createdAt,
    }).returning({ id: accounts.id });
    const accountId = row!.id;
    if (input.balanceCents && input.balanceCents > 0) {
      await tx.update(accounts).set({ balanceCents: input.balanceCents }).where(eq(accounts.id, accountId));
      await tx.insert(ledgerEntries).values({
        accountId, kind: 'topup', amountCents: input.balanceCents, balanceAfterCents: input.balanceCents, note: 'opening balance',
      });
    }
    return { accountId, apiToken };
  });
}

export async function findAccountByToken(db: Db, key: Buffer, token: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.tokenHash, tokenHash(key, token)));
  return row;
}

export async function getAccount(db: Db, accountId: number): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return row;
}

export async function countAccounts(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  return row?.n ?? 0;
}

/** Adds money to a wallet; returns the new balance in cents. */
export async function topUpWallet(db: Db, accountId: number, cents: number, note?: string): Promise<number> {
  if (!Number.isInteger(cents) || cents <= 0) throw new RangeError('a top-up must be a positive amount');
  return db.transaction(async (tx) => {
    const [row] = await tx.update(accounts)
      .set({ balanceCents: sql`${accounts.balanceCents} + ${cents}` })
      .where(eq(accounts.id, accountId))
      .returning({ balance: accounts.balanceCents });
    if (!row) throw new AccountNotFoundError(accountId);
    await tx.insert(ledgerEntries).values({ accountId, kind: 'topup', amountCents: cents, balanceAfterCents: row.balance, note: note ?? null });
    return row.balance;
  });
}
