// The embedded database runs on a thread of its own (src/db/pgliteThread.ts): what drizzle reads
// and writes through it behaves as PGlite in-process did (transactions, errors, types), and a long
// query no longer holds up the thread that serves HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { migrate, openDatabase, type Database } from '../../src/db/connection.js';
import { accounts } from '../../src/db/schema.js';

const newAccount = (name: string, balanceCents = 0) => ({ name, tokenHash: `hash-${name}`, tokenEncrypted: 'x', canceledCallbacks: false, balanceCents });

describe('the embedded database on its own thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
    await migrate(database.db);
  });
  afterAll(() => database?.close());

  it('commits a transaction, and rolls one back that throws, nested savepoints included', async () => {
    const { db } = database;
    await db.transaction(async (tx) => {
      await tx.insert(accounts).values(newAccount('kept'));
      await tx
        .transaction(async (inner) => {
          await inner.insert(accounts).values(newAccount('inner-undone'));
          throw new Error('undo the savepoint');
        })
        .catch(() => undefined);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(accounts).values(newAccount('undone'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const names = (await db.select({ name: accounts.name }).from(accounts)).map((r) => r.name);
    expect(names).toContain('kept');
    expect(names).not.toContain('undone');
    expect(names).not.toContain('inner-undone');
  });

  it("keeps a database error's fields, and the transaction it failed is rolled back", async () => {
    const { db } = database;
    await db.insert(accounts).values(newAccount('unique'));
    const err = await db
      .transaction(async (tx) => {
        await tx.insert(accounts).values(newAccount('before-the-failure'));
        await tx.insert(accounts).values(newAccount('unique'));
      })
      .catch((e: unknown) => e as Error & { cause?: Record<string, unknown> });
    expect(err).toBeInstanceOf(Error);
    expect(err!.cause).toMatchObject({ code: '23505', constraint: 'accounts_token_hash_key' });
    expect(await db.select().from(accounts).where(eq(accounts.name, 'before-the-failure'))).toEqual([]);
    // The database is usable after the failed transaction.
    expect(await db.select().from(accounts).where(eq(accounts.name, 'unique'))).toHaveLength(1);
  });

  it('reads timestamps as dates and numbers as numbers, as drizzle maps them', async () => {
    const [row] = await database.db.insert(accounts).values(newAccount('typed', 1234)).returning();
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(row!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(row!.balanceCents).toBe(1234);
    const [again] = await database.db.select().from(accounts).where(eq(accounts.id, row!.id));
    expect(again!.createdAt.getTime()).toBe(row!.createdAt.getTime());
  });

  it('runs a query outside a transaction only after the open transaction ends', async () => {
    const { db } = database;
    const seen: string[] = [];
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.insert(accounts).values(newAccount('in-flight'));
      outside = db
        .select()
        .from(accounts)
        .where(eq(accounts.name, 'in-flight'))
        .then((rows) => seen.push(`outside saw ${rows.length}`));
      await new Promise((r) => setTimeout(r, 50));
      seen.push('commit');
    });
    await outside;
    expect(seen).toEqual(['commit', 'outside saw 1']);
  });

  it('leaves the main thread free while a query runs', async () => {
    let timerFired = false;
    setTimeout(() => (timerFired = true), 10);
    await database.db.execute(sql`SELECT pg_sleep(0.3)`);
    // In-process, PGlite runs a query synchronously: the timer could only fire after it.
    expect(timerFired).toBe(true);
  });

  it('keeps two databases of one process apart on the one thread, and one closing leaves the other working', async () => {
    const other = await openDatabase({});
    await migrate(other.db);
    await other.db.insert(accounts).values(newAccount('only-in-other'));
    expect(await database.db.select().from(accounts).where(eq(accounts.name, 'only-in-other'))).toEqual([]);
    await other.close();
    const closed = await other.db
      .select()
      .from(accounts)
      .catch((e: unknown) => e as Error);
    expect(String((closed as Error).cause)).toMatch(/database \d+ is not open/);
    expect((await database.db.select().from(accounts).where(eq(accounts.name, 'kept'))).length).toBe(1);
  });

  it('keeps what it wrote in its folder across a close and an open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pglite-thread-'));
    try {
      const first = await openDatabase({ pgliteDir: dir });
      await migrate(first.db);
      await first.db.insert(accounts).values(newAccount('durable', 77));
      await first.close();
      const second = await openDatabase({ pgliteDir: dir });
      const [row] = await second.db.select().from(accounts).where(eq(accounts.name, 'durable'));
      await second.close();
      expect(row?.balanceCents).toBe(77);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("opens a copy of a database from its dump (as the tests' migrated template): the same rows, written apart", async () => {
    await database.db.insert(accounts).values(newAccount('in-the-dump', 12));
    const copy = await openDatabase({ pgliteFrom: await database.dump!() });
    try {
      expect(await migrate(copy.db)).toEqual([]);
      expect((await copy.db.select().from(accounts).where(eq(accounts.name, 'in-the-dump')))[0]?.balanceCents).toBe(12);
      await copy.db.insert(accounts).values(newAccount('only-in-copy'));
      expect(await database.db.select().from(accounts).where(eq(accounts.name, 'only-in-copy'))).toEqual([]);
    } finally {
      await copy.close();
    }
  });
});
