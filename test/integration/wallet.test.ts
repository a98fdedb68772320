// The wallet ledger against real databases: idempotent charges and refunds, concurrency, no
// readable tokens at rest.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { and, eq } from 'drizzle-orm';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';
import { migrate, openDatabase } from '../../src/db/connection.js';
import { createAccount, findAccountByToken, topUpWallet } from '../../src/db/accounts.js';
import { decryptToken } from '../../src/domain/tokens.js';
import { chargeWalletForOrder, nextOrderId, refundOrder } from '../../src/db/wallet.js';
import { resultsOf } from '../helpers/orders.js';
import { InsufficientFundsError, OrderStateError } from '../../src/contracts/failures.js';
import type { OrderToPlace } from '../../src/contracts/orders.js';
import { accounts, ledgerEntries } from '../../src/db/schema.js';

describeOnEachDatabase('wallet ledger', (engine) => {
  let database: TestDatabase;
  const key = randomBytes(32);
  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(() => database.close());

  const balance = async (accountId: number) => (await database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!.balanceCents;
  const newOrder = async (accountId: number, priceCents: number): Promise<OrderToPlace> => ({
    id: await nextOrderId(database.db),
    accountId,
    product: 'transcription',
    priceCents,
    seconds: 60,
    words: 0,
    params: {},
    callbackUrl: null,
    turnaroundHours: 120,
    fulfilment: 'operator',
    resultKinds: ['transcription'],
    results: resultsOf('transcription'),
  });

  it('charges an order once, however often the charge is retried', async () => {
    const { accountId } = await createAccount(database.db, key, { name: 'a', balanceCents: 1000 });
    const order = await newOrder(accountId, 300);
    const first = await chargeWalletForOrder(database.db, order);
    const retried = await chargeWalletForOrder(database.db, order);
    expect(first.balanceCents).toBe(700);
    expect(retried.balanceCents).toBe(700);
    expect(retried.orderId).toBe(order.id);
    const entries = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId));
    expect(entries.map((e) => [e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ['topup', 1000, 1000],
      ['charge', -300, 700],
    ]);
  });

  it('charges an order once when its charges race', async () => {
    const { accountId } = await createAccount(database.db, key, { name: 'a', balanceCents: 1000 });
    const order = await newOrder(accountId, 300);
    const paid = await Promise.all(Array.from({ length: 6 }, () => chargeWalletForOrder(database.db, order)));
    expect(new Set(paid.map((p) => p.orderId))).toEqual(new Set([order.id]));
    expect(await balance(accountId)).toBe(700);
    const charges = await database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.kind, 'charge')));
    expect(charges.map((e) => [e.amountCents, e.balanceAfterCents])).toEqual([[-300, 700]]);
  });

  it('refuses a charge above the balance and changes nothing', async () => {
    const { accountId } = await createAccount(database.db, key, { name: 'a', balanceCents: 299 });
    await expect(chargeWalletForOrder(database.db, await newOrder(accountId, 300))).rejects.toThrow(InsufficientFundsError);
    expect(await balance(accountId)).toBe(299);
    expect(await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, 'charge'))).toEqual([]);
  });

  it('refunds once and only paid orders', async () => {
    const { accountId } = await createAccount(database.db, key, { name: 'a', balanceCents: 1000 });
    const order = await newOrder(accountId, 400);
    await chargeWalletForOrder(database.db, order);
    expect(await refundOrder(database.db, order.id, 'refunded', 'bad audio')).toEqual({ balanceCents: 1000 });
    expect(await refundOrder(database.db, order.id, 'refunded', 'retried')).toEqual({ balanceCents: 1000 });
    expect(await balance(accountId)).toBe(1000);
    await expect(refundOrder(database.db, 424242, 'canceled', null)).rejects.toThrow(OrderStateError);
  });

  it('keeps the balance exact under 20 concurrent charges on a wallet funded for 5', async () => {
    const { accountId } = await createAccount(database.db, key, { name: 'a', balanceCents: 500 });
    const orders = await Promise.all(Array.from({ length: 20 }, () => newOrder(accountId, 100)));
    const results = await Promise.allSettled(orders.map((o) => chargeWalletForOrder(database.db, o)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientFundsError)).toBe(true);
    expect(await balance(accountId)).toBe(0);
  });

  it('keeps top-ups as ledger entries and refuses nonsense amounts', async () => {
    const { accountId } = await createAccount(database.db, key, { name: 'a' });
    expect(await topUpWallet(database.db, accountId, 2500)).toBe(2500);
    await expect(topUpWallet(database.db, accountId, -5)).rejects.toThrow(RangeError);
    await expect(topUpWallet(database.db, 999_999, 100)).rejects.toThrow('account 999999 not found');
    // The CHECK constraint holds even against a direct write.
    await expect(database.db.update(accounts).set({ balanceCents: -1 }).where(eq(accounts.id, accountId))).rejects.toThrow();
  });

  it('finds accounts by token while a dump of the database does not reveal the token', async () => {
    const { accountId, apiToken } = await createAccount(database.db, key, { name: 'a', balanceCents: 100 });
    expect((await findAccountByToken(database.db, key, apiToken))?.id).toBe(accountId);
    expect(await findAccountByToken(database.db, key, apiToken + 'x')).toBeUndefined();
    const [row] = await database.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(decryptToken(key, row!.tokenEncrypted)).toBe(apiToken);
    // What lies at rest: pg_dump's output, or PGlite's files as `npm start` leaves them in DATA_DIR/pg
    // (an account of its own, made in a database in a folder).
    let dump: Buffer;
    let token = apiToken;
    if (database.url) {
      dump = execFileSync('pg_dump', ['--data-only', database.url]);
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'wallet-at-rest-'));
      try {
        const onDisk = await openDatabase({ pgliteDir: dir });
        await migrate(onDisk.db);
        token = (await createAccount(onDisk.db, key, { name: 'a', balanceCents: 100 })).apiToken;
        await onDisk.close();
        const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
        dump = Buffer.concat(await Promise.all(files.map((f) => readFile(join(f.parentPath, f.name)))));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    expect(dump.includes(Buffer.from('opening balance'))).toBe(true); // the dump holds the data…
    expect(dump.includes(Buffer.from(token))).toBe(false); // …but not the token
  });
});
