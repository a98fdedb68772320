// The messages between the main thread's PGlite clients (pgliteThread.ts) and the databases' thread (pgliteWorker.ts).

interface QueryShape {
  sql: string;
  rowMode?: 'array' | 'object';
  /** Types the caller parses itself (its parsers are functions, which cannot cross): they arrive as text. */
  rawTypes?: number[];
  /** Within this open transaction; outside any when absent. */
  txId?: number;
}

/** Each request names its database: one thread serves every PGlite a process opens. */
export type ThreadRequest = { id: number; db: number } & (
  | { op: 'open'; dataDir?: string; /** A copy of a data directory (a `dump`'s tarball) to start from, in memory. */ from?: Uint8Array }
  | { op: 'dump' | 'close' }
  | ({ op: 'query'; params: unknown[] } & QueryShape)
  | ({ op: 'exec' } & QueryShape)
  | { op: 'begin' | 'commit' | 'rollback'; txId: number }
);

export type ThreadReply = { id: number } & ({ ok: true; result: unknown } | { ok: false; error: Record<string, unknown> });
