// The embedded databases' own thread: PGlite (Postgres compiled to WebAssembly) runs its queries
// here, so the thread that serves HTTP and the Temporal worker never waits for them (pgliteThread.ts).
// One thread per process serves every PGlite it opens (tests open many: the WebAssembly is
// compiled once). Each PGlite's own queue orders its queries, and a transaction holds it until
// the main thread commits or rolls back.
import { parentPort } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import type { ThreadReply, ThreadRequest } from './pgliteProtocol.js';

const port = parentPort!;

/** Thrown inside a transaction's callback so that PGlite rolls it back. */
class RollBack extends Error {}

interface OpenTransaction {
  tx: Transaction;
  end: (how: 'commit' | 'rollback') => void;
  closed: Promise<void>;
}

interface Database {
  pglite: PGlite;
  transactions: Map<number, OpenTransaction>;
}
const databases = new Map<number, Database>();

/** Parsers cannot cross threads: the types the caller parses itself arrive as their text. */
function optionsOf(request: { rowMode?: 'array' | 'object'; rawTypes?: number[] }): QueryOptions {
  const parsers = Object.fromEntries((request.rawTypes ?? []).map((type) => [type, (value: string) => value]));
  return { rowMode: request.rowMode ?? 'object', parsers };
}

function begin({ pglite, transactions }: Database, txId: number): Promise<void> {
  return new Promise((opened, failed) => {
    const entry = {} as OpenTransaction;
    const decided = new Promise<'commit' | 'rollback'>((resolve) => (entry.end = resolve));
    entry.closed = pglite
      .transaction(async (tx) => {
        entry.tx = tx;
        transactions.set(txId, entry);
        opened();
        if ((await decided) === 'rollback') throw new RollBack();
      })
      .then(
        () => undefined,
        (err: unknown) => {
          if (!(err instanceof RollBack)) throw err;
        },
      )
      .finally(() => transactions.delete(txId));
    // BEGIN itself failed: the transaction never opened (later failures reach finish()).
    entry.closed.catch(failed);
  });
}

async function finish({ transactions }: Database, txId: number, how: 'commit' | 'rollback'): Promise<void> {
  const open = transactions.get(txId);
  if (!open) throw new Error(`transaction ${txId} is not open`);
  open.end(how);
  await open.closed;
}

function targetOf(database: Database, txId: number | undefined) {
  if (txId === undefined) return database.pglite;
  const open = database.transactions.get(txId);
  if (!open) throw new Error(`transaction ${txId} is not open`);
  return open.tx;
}

async function run(request: ThreadRequest): Promise<unknown> {
  if (request.op === 'open') {
    // One options object: PGlite reads its second argument only when the first is a directory.
    const pglite = new PGlite({
      ...(request.dataDir !== undefined && { dataDir: request.dataDir }),
      ...(request.from && { loadDataDir: new Blob([request.from as Uint8Array<ArrayBuffer>]) }),
    });
    await pglite.waitReady;
    databases.set(request.db, { pglite, transactions: new Map() });
    return null;
  }
  const database = databases.get(request.db);
  if (!database) throw new Error(`database ${request.db} is not open`);
  switch (request.op) {
    case 'query':
      return targetOf(database, request.txId).query(request.sql, request.params, optionsOf(request));
    case 'exec':
      return targetOf(database, request.txId).exec(request.sql, optionsOf(request));
    case 'begin':
      return begin(database, request.txId);
    case 'commit':
    case 'rollback':
      return finish(database, request.txId, request.op);
    case 'dump':
      return new Uint8Array(await (await database.pglite.dumpDataDir('none')).arrayBuffer());
    case 'close':
      databases.delete(request.db);
      await database.pglite.close();
      return null;
  }
}

/** A database error's fields (code, detail, constraint…) as plain data: an Error's own properties do not survive postMessage. */
function plainError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields: Record<string, unknown> = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return fields;
}

port.on('message', (request: ThreadRequest) => {
  // One chain: a result that cannot be posted (a value the channel cannot copy) is the request's error,
  // not an unhandled rejection that would end this thread and every query after it.
  run(request)
    .then((result) => port.postMessage({ id: request.id, ok: true, result } satisfies ThreadReply))
    .catch((err: unknown) => port.postMessage({ id: request.id, ok: false, error: plainError(err) } satisfies ThreadReply));
});
