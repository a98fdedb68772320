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
  /** PostgreSQL's pool, for what needs a session of its own (the uploads' advisory locks). */
  pool?: pg.Pool;
  /** PGlite's: a copy of its whole data directory, to open another database from (`pgliteFrom`). */
  dump?: () => Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * `databaseUrl` selects PostgreSQL; otherwise PGlite in `pgliteDir`, or in memory when absent: there
 * from `pgliteFrom` (a `dump`) when given, which skips creating a cluster (the tests' databases).
 */
export async function openDatabase(opts: { databaseUrl?: string; pgliteDir?: string; pgliteFrom?: Uint8Array; poolSize?: number }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle connection the server drops (restart, failover) must not crash the process;
    // the pool replaces it on next use.
    pool.on('error', (err) => log('database connection lost', { error: err.message }));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return { db, engine: 'postgres', pool, close: () => pool.end() };
  }
  if (opts.pgliteDir) await mkdir(opts.pgliteDir, { recursive: true });
  // On a thread of its own: its queries do not hold up the thread that serves HTTP (pgliteThread.ts).
  const client = await openPgliteThread(opts.pgliteDir, opts.pgliteDir ? undefined : opts.pgliteFrom);
  const db = drizzlePglite({ client: client as never, schema }) as unknown as Db;
  return { db, engine: 'pglite', dump: () => client.dump(), close: () => client.close() };
}

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Code migrations are modules beside the SQL ones, compiled as this one is (.ts under the tests, .js in dist/). */
const CODE = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** A migration that needs the service's code (a product's rules): a module exporting `up`. */
export type CodeMigration = { up(tx: Parameters<Parameters<Db['transaction']>[0]>[0]): Promise<void> };

/** Applies src/db/migrations/*.sql (and code migrations) in name order, each once, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  const isMigration = (f: string) => f.endsWith('.sql') || (f.endsWith(CODE) && !f.endsWith(`.d${CODE}`));
  const files = (await readdir(MIGRATIONS_DIR)).filter(isMigration).sort();
  const applied: string[] = [];
  for (const name of files) {
    const text = name.endsWith('.sql') ? await readFile(MIGRATIONS_DIR + name, 'utf8') : undefined;
    const code = text === undefined ? ((await import(new URL(`./migrations/${name}`, import.meta.url).href)) as CodeMigration) : undefined;
    const done = await db.transaction(async (tx) => {
      // Serialises the api and worker roles starting together against one PostgreSQL.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await tx.execute(sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const seen = (await tx.execute(sql`SELECT 1 FROM schema_migrations WHERE name = ${name}`)) as unknown as { rows: unknown[] };
      if (seen.rows.length > 0) return false;
      // One statement per execute: PGlite's extended protocol takes no multi-statement strings.
      if (text !== undefined) for (const statement of splitStatements(text)) await tx.execute(sql.raw(statement));
      else await code!.up(tx);
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
