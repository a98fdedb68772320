import type { Client } from '@temporalio/client';
import type { WorkbenchSettings } from '../contracts/orders.js';
import type { Db } from '../db/connection.js';
import type { FileStore } from '../storage/fileStore.js';
import type { PriceTable } from '../products/registry.js';
import type { Limits, MediaLimits, OutboundClient } from '../net/outbound.js';
import type { AudioRenderer } from '../engines/audioRendition.js';
import type { ProbePolicy } from '../orders/measureTools.js';
import type { RateLimits } from './rateLimit.js';
import type { TrustProxy } from '../http/clientAddress.js';
import type { CallbackSettings } from '../orders/deliverCallback.js';
import type { ReadinessChecks } from './health.js';
import type { DocumentReader } from '../documents/sandbox/index.js';
import type { UploadStore } from '../storage/uploads.js';
import type { UploadedFiles } from '../net/uploadedFiles.js';

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
  media: MediaLimits;
  /** Limits when reading a customer's document (transcripts, documents to translate or type). */
  documents: Limits;
  qualityCheck: { probability: number; windowMs: number };
  /** The workbench's lease and part length, on every order placed (src/workflows/order/humanStages.ts). */
  workbench: WorkbenchSettings;
  /** Extracts the audio of a video once per order (the player's first play of an order no engine heard yet). */
  audioRenderer?: AudioRenderer;
  /** How many tasks one worker may hold at once (orders/tasks.ts); default DEFAULT_MAX_HELD_TASKS. */
  maxHeldTasks?: number;
  /**
   * A live order's charge must start within `windowMs`; the API waits `graceMs` longer for a
   * charge that started in time.
   */
  payment: { windowMs: number; graceMs: number };
  /** Per-process request rate limits (rateLimit.ts); default DEFAULT_RATE_LIMITS. */
  rateLimits?: RateLimits;
  /** The proxies whose X-Forwarded-For names the client of the limits per address (TRUST_PROXY); default none. */
  trustProxy?: TrustProxy;
  log: (message: string, meta: object) => void;
  /** The SSRF-guarded client for every customer URL (src/net/outbound.ts). */
  outbound: OutboundClient;
  /** Opens customers' and workers' files in bounded child processes (src/documents/sandbox/). */
  documentReader: DocumentReader;
  /** Callback delivery settings: the account pages resend callbacks and send samples (orders/deliverCallback.ts). */
  callbacks: CallbackSettings;
  /** Quotes' lower probe limits and the per-account cap on probes at once. */
  probes: ProbePolicy;
  /**
   * The codec endpoint for the Temporal UI (routes/codec.ts): browser origins allowed by CORS, and
   * whether the embedded UI may call it without the operator token from loopback. Default: neither.
   */
  codec?: { uiOrigins: string[]; trustLoopbackUi: boolean };
  /** Where uploads are received (tus and one raw body) and kept; none: no uploads. */
  uploadStore?: UploadStore;
  /** This service's upload URLs as orders' URLs (`outbound` reads them from the store). */
  uploads?: UploadedFiles;
  /** /readyz checks (health.ts); default: the database and the Temporal client's connection. main.ts adds the worker's in the embedded role. */
  readiness?: ReadinessChecks;
}
