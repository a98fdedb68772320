// Accounts, their tokens and wallet top-ups.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from './connection.js';
import { accounts, ledgerEntries, type AccountRow } from './schema.js';
import { decryptToken, encryptToken, newApiToken, tokenHash } from '../domain/tokens.js';
import { newWebhookSecret } from '../domain/webhookSignature.js';
import { AccountNotFoundError } from '../contracts/failures.js';
import { accountWrites, forgetAccount, rememberAccount, rememberedAccount } from './accountCache.js';
import { endAccountSessions } from './sessions.js';
import { endAccountShareLinks } from './shareLinks.js';

/** Accounts created on or after this date get canceled callbacks by default (spec, Events rule 2). */
export const CANCELED_CALLBACKS_SINCE = new Date('2026-03-30T00:00:00Z');

export interface NewAccount {
  name: string;
  balanceCents?: number;
  createdAt?: Date;
  callbackUrl?: string | null;
  canceledCallbacks?: boolean;
}

export async function createAccount(db: Db, key: Buffer, input: NewAccount): Promise<{ accountId: number; apiToken: string; webhookSecret: string }> {
  const apiToken = newApiToken();
  const webhookSecret = newWebhookSecret();
  const createdAt = input.createdAt ?? new Date();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(accounts)
      .values({
        name: input.name,
        tokenHash: tokenHash(key, apiToken),
        tokenEncrypted: encryptToken(key, apiToken),
        callbackUrl: input.callbackUrl ?? null,
        canceledCallbacks: input.canceledCallbacks ?? createdAt >= CANCELED_CALLBACKS_SINCE,
        webhookSecretEncrypted: encryptToken(key, webhookSecret),
        createdAt,
      })
      .returning({ id: accounts.id });
    const accountId = row!.id;
    if (input.balanceCents && input.balanceCents > 0) {
      await tx.update(accounts).set({ balanceCents: input.balanceCents }).where(eq(accounts.id, accountId));
      await tx.insert(ledgerEntries).values({
        accountId,
        kind: 'topup',
        amountCents: input.balanceCents,
        balanceAfterCents: input.balanceCents,
        note: 'opening balance',
      });
    }
    return { accountId, apiToken, webhookSecret };
  });
}

/** The account of an API token; remembered for a moment (src/db/accountCache.ts). */
export async function findAccountByToken(db: Db, key: Buffer, token: string): Promise<AccountRow | undefined> {
  const hash = tokenHash(key, token);
  const remembered = rememberedAccount(db, hash);
  if (remembered) return remembered;
  const writes = accountWrites(db);
  const [row] = await db.select().from(accounts).where(eq(accounts.tokenHash, hash));
  if (row) rememberAccount(db, hash, row, writes);
  return row;
}

export async function getAccount(db: Db, accountId: number): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return row;
}

/**
 * A new API token; the old one is refused from the next request on (lookups go by its hash, which no
 * longer exists) and result URLs built afterwards carry the new one. In the same transaction every
 * session of the account ends but `keepSession` (the one that rotated), and every share link ends:
 * whoever was let in by the old token is let out with it.
 */
export async function rotateApiToken(
  db: Db,
  key: Buffer,
  accountId: number,
  keepSession?: string,
): Promise<{ token: string; sessionsEnded: number; shareLinksEnded: number }> {
  const apiToken = newApiToken();
  const result = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(accounts)
      .set({ tokenHash: tokenHash(key, apiToken), tokenEncrypted: encryptToken(key, apiToken) })
      .where(eq(accounts.id, accountId))
      .returning({ id: accounts.id });
    if (!row) throw new AccountNotFoundError(accountId);
    const sessionsEnded = await endAccountSessions(tx, accountId, keepSession);
    return { token: apiToken, sessionsEnded, shareLinksEnded: await endAccountShareLinks(tx, accountId) };
  });
  forgetAccount(db, accountId);
  return result;
}

/** The account's callback URL (null: none) and whether canceled orders get callbacks. */
export async function setCallbackSettings(db: Db, accountId: number, settings: { callbackUrl: string | null; canceledCallbacks: boolean }): Promise<void> {
  const [row] = await db
    .update(accounts)
    .set({ callbackUrl: settings.callbackUrl, canceledCallbacks: settings.canceledCallbacks })
    .where(eq(accounts.id, accountId))
    .returning({ id: accounts.id });
  forgetAccount(db, accountId);
  if (!row) throw new AccountNotFoundError(accountId);
}

/**
 * The account's rule for its orders' data: deleted this many days after an order settles (null:
 * never). Placement reads it (src/orders/place.ts), so it holds for orders placed from now on.
 */
export async function setDeleteAfterDays(db: Db, accountId: number, days: number | null): Promise<void> {
  const [row] = await db.update(accounts).set({ deleteAfterDays: days }).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
  forgetAccount(db, accountId);
  if (!row) throw new AccountNotFoundError(accountId);
}

export async function countAccounts(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  return row?.n ?? 0;
}

/** Adds money to a wallet; returns the new balance in cents. */
export async function topUpWallet(db: Db, accountId: number, cents: number, note?: string): Promise<number> {
  if (!Number.isInteger(cents) || cents <= 0) throw new RangeError('a top-up must be a positive amount');
  const balance = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(accounts)
      .set({ balanceCents: sql`${accounts.balanceCents} + ${cents}` })
      .where(eq(accounts.id, accountId))
      .returning({ balance: accounts.balanceCents });
    if (!row) throw new AccountNotFoundError(accountId);
    await tx.insert(ledgerEntries).values({ accountId, kind: 'topup', amountCents: cents, balanceAfterCents: row.balance, note: note ?? null });
    return row.balance;
  });
  forgetAccount(db, accountId);
  return balance;
}

/** The secrets that sign an account's callbacks now: the current one, then a previous one still in its window. */
export interface WebhookSecrets {
  current: string;
  previous?: { secret: string; until: Date };
}

/**
 * The account's signing secrets at `now`. An account that predates signed callbacks gets its
 * secret here, once: concurrent first uses all read the one that was stored first.
 */
export async function webhookSecretsOf(db: Db, key: Buffer, accountId: number, now = new Date()): Promise<WebhookSecrets> {
  let row = await getAccount(db, accountId);
  if (!row) throw new AccountNotFoundError(accountId);
  if (!row.webhookSecretEncrypted) {
    await db
      .update(accounts)
      .set({ webhookSecretEncrypted: encryptToken(key, newWebhookSecret()) })
      .where(and(eq(accounts.id, accountId), isNull(accounts.webhookSecretEncrypted)));
    row = (await getAccount(db, accountId))!;
  }
  const current = decryptToken(key, row.webhookSecretEncrypted!);
  const until = row.webhookSecretPreviousUntil;
  if (row.webhookSecretPreviousEncrypted && until && until > now) {
    return { current, previous: { secret: decryptToken(key, row.webhookSecretPreviousEncrypted), until } };
  }
  return { current };
}

/**
 * Replaces the account's signing secret. For `windowMs` the replaced one keeps signing beside
 * the new one (receivers switch over meanwhile); 0 ends it at once.
 */
export async function rotateWebhookSecret(db: Db, key: Buffer, accountId: number, windowMs: number, now = new Date()): Promise<WebhookSecrets> {
  const rotated = await db.transaction(async (tx) => {
    // Locked, so that two rotations at once keep each other's secret.
    const [row] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for('update');
    if (!row) throw new AccountNotFoundError(accountId);
    const next = newWebhookSecret();
    const until = new Date(now.getTime() + windowMs);
    // An account that never had a secret has none to keep signing.
    const current = row.webhookSecretEncrypted ? decryptToken(key, row.webhookSecretEncrypted) : undefined;
    const keep = windowMs > 0 && current !== undefined;
    await tx
      .update(accounts)
      .set({
        webhookSecretEncrypted: encryptToken(key, next),
        webhookSecretPreviousEncrypted: keep ? encryptToken(key, current) : null,
        webhookSecretPreviousUntil: keep ? until : null,
      })
      .where(eq(accounts.id, accountId));
    return keep ? { current: next, previous: { secret: current, until } } : { current: next };
  });
  forgetAccount(db, accountId);
  return rotated;
}
