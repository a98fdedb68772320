// The service as tests run it: real Temporal (the run's dev server), a real database, the worker
// and the HTTP API on a loopback port. Each instance has its own task queue and database.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { inject } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createApp } from '../../src/api/app.js';
import { createAccount } from '../../src/db/accounts.js';
import { priceTableSchema, type PriceTable } from '../../src/products/registry.js';
import { localFileStore } from '../../src/storage/fileStore.js';
import { createOrderWorkers, type OrderWorkers } from '../../src/temporal/worker.js';
import type { ActivityDeps } from '../../src/activities/index.js';
import type { EngineSettings } from '../../src/activities/deps.js';
import { freshDatabase, type Engine, type TestDatabase } from './databases.js';
import { close, listen } from './net.js';

let runtimeQuiet = false;
function quietTemporalLogs() {
  if (runtimeQuiet) return;
  runtimeQuiet = true;
  Runtime.install({ logger: new DefaultLogger('ERROR') });
}

export interface ServiceOptions {
  engine?: Engine;
  qualityCheckProbability?: number;
  callbackRetryMs?: [number, number];
  payment?: { windowMs: number; graceMs: number };
  /** false: run no worker in this process (a test starts worker processes itself). */
  inProcessWorker?: boolean;
  /** Speech engines of the worker; none: engine orders wait for an operator. */
  engines?: EngineSettings;
}

export interface TestService {
  baseUrl: string;
  database: TestDatabase;
  temporal: Client;
  opsToken: string;
  secretKey: Buffer;
  taskQueue: string;
  /** Its file store is `files/` in here, as a worker process with DATA_DIR set to it would use. */
  dataDir: string;
  createAccount(balanceUsd: number, extra?: { createdAt?: Date; callbackUrl?: string }): Promise<{ accountId: number; token: string }>;
  /** POSTs a form to the API (the way curl -d does). */
  post(path: string, fields: Record<string, unknown>): Promise<{ status: number; body: any }>;
  get(path: string): Promise<{ status: number; body: any; headers: Headers; bytes: Buffer }>;
  ops(method: string, path: string, body?: unknown, raw?: Buffer): Promise<{ status: number; body: any }>;
  /** Completes an order the way order-ops does: upload, then the complete update (kind transcription unless given). */
  complete(orderId: number, fileName: string, content: string, kinds?: string[]): Promise<{ status: number; body: any }>;
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

export async function startService(opts: ServiceOptions = {}): Promise<TestService> {
  quietTemporalLogs();
  const address = inject('temporalAddress');
  const workflowBundle = { codePath: inject('workflowBundlePath') };
  const database = await freshDatabase(opts.engine ?? 'pglite');
  const dataDir = await mkdtemp(join(tmpdir(), 'order-data-'));
  const filesDir = join(dataDir, 'files');
  const secretKey = randomBytes(32);
  const opsToken = randomBytes(16).toString('hex');
  const taskQueue = `orders-${randomBytes(6).toString('hex')}`;
  const [minMs, maxMs] = opts.callbackRetryMs ?? [5, 20];
  const connection = await Connection.connect({ address });
  const temporal = new Client({ connection, namespace: 'default' });
  const nativeConnection = await NativeConnection.connect({ address });
  const priceTable = priceTableSchema.parse(JSON.parse(await readFile(resolve('config/prices.json'), 'utf8'))) as PriceTable;
  const media = { maxBytes: 50 * 1024 * 1024, timeoutMs: 2000 };

  // Listen first: result URLs need the port.
  let app: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => app!(req, res));
  const baseUrl = await listen(server);
  const deps: ActivityDeps = {
    db: database.db,
    files: localFileStore(filesDir),
    secretKey,
    publicBaseUrl: baseUrl,
    callbacks: { retryMinMs: minMs, retryMaxMs: maxMs, timeoutMs: 2000 },
    priceTable,
    engines: opts.engines ?? {},
    media,
  };
  app = createApp({
    ...deps, temporal, taskQueue, opsToken, documents: { maxBytes: 10 * 1024 * 1024, timeoutMs: 2000 },
    qualityCheck: { probability: opts.qualityCheckProbability ?? 0, windowMs: 3_600_000 },
    payment: opts.payment ?? { windowMs: 20_000, graceMs: 5_000 },
    log: (message, meta) => { if (message === 'request failed') console.error(message, meta); },
  });

  let worker: OrderWorkers | undefined;
  let running: Promise<void> | undefined;
  const startWorker = async () => {
    worker = await createOrderWorkers({ connection: nativeConnection, namespace: 'default', taskQueue, deps, workflowBundle });
    running = worker.run();
  };
  const stopWorker = async () => {
    worker?.shutdown();
    await running;
    worker = undefined;
  };
  if (opts.inProcessWorker !== false) await startWorker();

  const request = async (method: string, path: string, init: RequestInit = {}) => {
    const response = await fetch(baseUrl + path, { method, ...init });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    let body: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
    return { status: response.status, body: body as any, headers: response.headers, bytes };
  };

  const service: TestService = {
    baseUrl, database, temporal, opsToken, secretKey, taskQueue, dataDir,
    async createAccount(balanceUsd, extra = {}) {
      const created = await createAccount(database.db, secretKey, { name: 'test', balanceCents: Math.round(balanceUsd * 100), ...extra });
      return { accountId: created.accountId, token: created.apiToken };
    },
    post: (path, fields) => request('POST', path, {
      body: new URLSearchParams(Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])),
    }),
    get: (path) => request('GET', path),
    ops: (method, path, body, raw) => request(method, path, {
      headers: { authorization: `Bearer ${opsToken}`, 'content-type': raw ? 'application/octet-stream' : 'application/json' },
      body: raw ? new Uint8Array(raw) : body === undefined ? undefined : JSON.stringify(body),
    }),
    async complete(orderId, fileName, content, kinds = ['transcription']) {
      const upload = await service.ops('PUT', '/ops/files', undefined, Buffer.from(content));
      return service.ops('POST', `/ops/orders/${orderId}/complete`, { files: kinds.map((kind) => ({ kind, key: upload.body.key, file_name: fileName })) });
    },
    startWorker,
    stopWorker,
    async close() {
      await stopWorker();
      await close(server);
      await nativeConnection.close();
      await connection.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return service;
}
