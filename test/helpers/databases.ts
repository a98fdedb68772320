// The real databases tests run against: PGlite always; PostgreSQL when DATABASE_URL is set, in
// suites that declare it (test/helpers/legs.ts). Each test gets a fresh database.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { migrate, openDatabase, type Database } from '../../src/db/connection.js';
import { requireLeg, type DatabaseEngine } from './legs.js';

export type Engine = DatabaseEngine;

/**
 * Test databases share one Temporal namespace, where workflow ids are `order-<id>`: each
 * database starts its order ids in a range of its own.
 */
async function ownOrderIdRange(database: Database): Promise<Database> {
  const start = 1_000_000 + Math.floor(Math.random() * 1_000_000_000) * 1000;
  await database.db.execute(sql`SELECT setval('order_ids', ${start})`);
  return database;
}

export type TestDatabase = Database & { url?: string };

/** The run's migrated PGlite (test/globalSetup.ts), read once per test file. */
let pgliteTemplate: Promise<Uint8Array> | undefined;

export async function freshDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'pglite') {
    pgliteTemplate ??= readFile(inject('pgliteTemplatePath')).then((bytes) => new Uint8Array(bytes));
    const database = await openDatabase({ pgliteFrom: await pgliteTemplate });
    // Nothing to apply on the copy; a migration added since the run began would be applied here.
    await migrate(database.db);
    return ownOrderIdRange(database);
  }
  requireLeg('postgres', 'A PostgreSQL test database');
  const adminUrl = process.env.DATABASE_URL!;
  const name = `order_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  await migrate(database.db);
  await ownOrderIdRange(database);
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
