// One database handle for both engines: PGlite (embedded default) or PostgreSQL (DATABASE_URL).
import { readdir, readFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.js';
import { log } from '../log.js';
import { openPgliteThread } from './pgliteThread.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** `databaseUrl` selects PostgreSQL; otherwise PGlite in `pgliteDir` (in memory when absent). */
export async function openDatabase(opts: { databaseUrl?: string; pgliteDir?: string; poolSize?: number }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle connection the server drops (restart, failover) must not crash the process;
    // the pool replaces it on next use.
    pool.on('error', (err) => log('database connection lost', { error: err.message }));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return { db, engine: 'postgres', close: () => pool.end() };
  }
  if (opts.pgliteDir) await mkdir(opts.pgliteDir, { recursive: true });
  // On a thread of its own: its queries do not hold up the thread that serves HTTP (pgliteThread.ts).
  const client = await openPgliteThread(opts.pgliteDir);
  const db = drizzlePglite({ client: client as never, schema }) as unknown as Db;
  return { db, engine: 'pglite', close: () => client.close() };
}

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Applies src/db/migrations/*.sql in name order, each once, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const name of files) {
    const text = await readFile(MIGRATIONS_DIR + name, 'utf8');
    const done = await db.transaction(async (tx) => {
      // Serialises the api and worker roles starting together against one PostgreSQL.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await tx.execute(sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const seen = (await tx.execute(sql`SELECT 1 FROM schema_migrations WHERE name = ${name}`)) as unknown as { rows: unknown[] };
      if (seen.rows.length > 0) return false;
      // One statement per execute: PGlite's extended protocol takes no multi-statement strings.
      for (const statement of splitStatements(text)) await tx.execute(sql.raw(statement));
      await tx.execute(sql`INSERT INTO schema_migrations (name) VALUES (${name})`);
      return true;
    });
    if (done) applied.push(name);
  }
  return applied;
}

const MIGRATION_LOCK = 7_240_001;

/** Splits a migration on statement-ending semicolons (migrations hold no procedural code). */
function splitStatements(text: string): string[] {
  return text
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}

/** One round trip to the database (readiness). */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
