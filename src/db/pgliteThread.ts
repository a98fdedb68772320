// The embedded database on a thread of its own. PGlite runs Postgres as WebAssembly on the thread
// that calls it; in the service that was the thread serving HTTP and the Temporal worker, and its
// queries were about 40% of that thread's work per order (docs/benchmarks.md). Here the main
// thread only sends queries and receives rows (pgliteWorker.ts runs them, one thread for every
// PGlite of the process), with what drizzle's PGlite driver uses: query, exec, transaction.
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import type { ThreadReply, ThreadRequest } from './pgliteProtocol.js';
import { compiledScript } from '../runtime/compiledScript.js';

type Request = ThreadRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

export interface PgliteQueries {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
}

export interface PgliteThread extends PgliteQueries {
  transaction<T>(work: (tx: PgliteQueries) => Promise<T>): Promise<T>;
  /** A copy of the whole data directory (a tarball), which `openPgliteThread` can start from. */
  dump(): Promise<Uint8Array>;
  close(): Promise<void>;
}

type Call = <T>(request: Request) => Promise<T>;

/** The process's one database thread, started with the first PGlite opened; after a failure, the next open starts another. */
let shared: { call: Call } | undefined;

function databaseThread(): { call: Call } {
  if (shared) return shared;
  const worker = new Worker(compiledScript(import.meta.url, 'pgliteWorker.js'));
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  let nextId = 1;
  let stopped: Error | undefined;

  // The thread keeps the process alive only while a query waits for it, as PGlite in-process would.
  worker.unref();
  const settle = (id: number) => {
    const call = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return call;
  };
  worker.on('message', (reply: ThreadReply) => {
    const call = settle(reply.id);
    if (reply.ok) call?.resolve(reply.result);
    else call?.reject(Object.assign(new Error(String(reply.error.message)), reply.error));
  });
  const fail = (err: Error) => {
    stopped ??= err;
    if (shared === thread) shared = undefined;
    for (const id of [...pending.keys()]) settle(id)?.reject(stopped);
  };
  worker.on('error', (err) => fail(new Error(`the embedded database's thread failed: ${err.message}`, { cause: err })));
  worker.on('exit', (code) => fail(new Error(`the embedded database's thread stopped (exit code ${code})`)));

  const thread = {
    call<T>(request: Request): Promise<T> {
      if (stopped) return Promise.reject(stopped);
      const id = nextId++;
      if (pending.size === 0) worker.ref();
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        worker.postMessage({ ...request, id } as ThreadRequest);
      });
    },
  };
  return (shared = thread);
}

let nextDb = 1;

/**
 * Opens PGlite in `dataDir` (in memory when absent; there, from the copy `from` when given) on the
 * database thread; resolves once it is ready.
 */
export async function openPgliteThread(dataDir: string | undefined, from?: Uint8Array): Promise<PgliteThread> {
  const { call } = databaseThread();
  const db = nextDb++;
  let nextTx = 1;

  /** What a query's options say, as data; the caller's parsers run here on the text of their types. */
  const shapeOf = (sql: string, options: QueryOptions, txId: number | undefined) => ({
    db,
    sql,
    rowMode: options.rowMode,
    rawTypes: Object.keys(options.parsers ?? {}).map(Number),
    txId,
  });
  const queriesOn = (txId: number | undefined): PgliteQueries => ({
    async query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}) {
      return parseRows(await call<Results<T>>({ op: 'query', params, ...shapeOf(sql, options, txId) }), options.parsers ?? {});
    },
    async exec(sql: string, options: QueryOptions = {}) {
      const results = await call<Results[]>({ op: 'exec', ...shapeOf(sql, options, txId) });
      return results.map((result) => parseRows(result, options.parsers ?? {}));
    },
  });

  await call({ op: 'open', db, ...(dataDir !== undefined ? { dataDir } : {}), ...(from ? { from } : {}) });
  return {
    ...queriesOn(undefined),
    async transaction<T>(work: (tx: PgliteQueries) => Promise<T>): Promise<T> {
      const txId = nextTx++;
      await call({ op: 'begin', db, txId });
      let result: T;
      try {
        result = await work(queriesOn(txId));
      } catch (err) {
        await call({ op: 'rollback', db, txId }).catch(() => undefined);
        throw err;
      }
      await call({ op: 'commit', db, txId });
      return result;
    },
    dump: () => call<Uint8Array>({ op: 'dump', db }),
    async close() {
      await call({ op: 'close', db }).catch(() => undefined);
    },
  };
}

function parseRows<T>(result: Results<T>, parsers: NonNullable<QueryOptions['parsers']>): Results<T> {
  const parsed = result.fields.map((field, i) => ({ i, name: field.name, parse: parsers[field.dataTypeID] })).filter((f) => f.parse);
  if (parsed.length === 0) return result;
  for (const row of result.rows as unknown as Array<Record<string | number, unknown>>) {
    for (const f of parsed) {
      const key = Array.isArray(row) ? f.i : f.name;
      if (row[key] !== null) row[key] = f.parse!(row[key] as string);
    }
  }
  return result;
}
