import type { Client } from '@temporalio/client';
import type { Db } from '../db/connection.js';
import type { FileStore } from '../storage/fileStore.js';
import type { PriceTable } from '../products/registry.js';
import type { Limits } from '../net/outbound.js';

/** What the HTTP layer needs; built by main.ts or by a test. */
export interface ApiDeps {
  db: Db;
  files: FileStore;
  temporal: Client;
  taskQueue: string;
  secretKey: Buffer;
  opsToken: string;
  publicBaseUrl: string;
  priceTable: PriceTable;
  media: Limits;
  /** Limits when reading a customer's document (transcripts, documents to translate or type). */
  documents: Limits;
  qualityCheck: { probability: number; windowMs: number };
  /**
   * A live order's charge must start within `windowMs`; the API waits `graceMs` longer for a
   * charge that started in time.
   */
  payment: { windowMs: number; graceMs: number };
  log: (message: string, meta: object) => void;
}
