// Accounts found by API token, remembered for a moment per process. Every quote, listing and
// retrieval authenticates, and on the embedded database that one lookup was the largest cost of a
// quote (docs/benchmarks.md). Each write to an account made through this process forgets it at once
// (a rotated token is refused from the very next request, a top-up shows in the next quote); a
// change made by another process is seen within TTL_MS. The wallet's charge never reads from here:
// it decides in its own transaction.
import type { AccountRow } from './schema.js';

const TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  row: AccountRow;
  until: number;
}
/** An account has one token at a time, so one hash per account id. */
interface Cache {
  byHash: Map<string, Entry>;
  byAccount: Map<number, string>;
  writes: number;
}

/** Per database handle, so two services in one process (tests) never share entries. */
const caches = new WeakMap<object, Cache>();

function cacheOf(db: object): Cache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { byHash: new Map(), byAccount: new Map(), writes: 0 }));
  return cache;
}

export function rememberedAccount(db: object, tokenHash: string): AccountRow | undefined {
  const cache = caches.get(db);
  const entry = cache?.byHash.get(tokenHash);
  if (!entry) return undefined;
  if (entry.until > Date.now()) return entry.row;
  dropAccount(cache!, entry.row.id);
  return undefined;
}

/** Taken before a lookup: a write that lands while it reads makes its row too old to remember. */
export function accountWrites(db: object): number {
  return cacheOf(db).writes;
}

export function rememberAccount(db: object, tokenHash: string, row: AccountRow, writesBefore: number): void {
  const cache = cacheOf(db);
  if (cache.writes !== writesBefore) return;
  dropAccount(cache, row.id);
  if (cache.byHash.size >= MAX_ENTRIES) dropAccount(cache, cache.byHash.values().next().value!.row.id);
  cache.byHash.set(tokenHash, { row, until: Date.now() + TTL_MS });
  cache.byAccount.set(row.id, tokenHash);
}

/** After a write to the account (balance, minutes, token, settings): the next lookup reads it. */
export function forgetAccount(db: object, accountId: number): void {
  const cache = cacheOf(db);
  cache.writes += 1;
  dropAccount(cache, accountId);
}

function dropAccount(cache: Cache, accountId: number): void {
  const hash = cache.byAccount.get(accountId);
  if (hash === undefined) return;
  cache.byAccount.delete(accountId);
  cache.byHash.delete(hash);
}
