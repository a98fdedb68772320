// The service as tests run it: real Temporal (the run's dev server), a real database, the worker
// and the HTTP API on a loopback port. Each instance has its own task queue and database.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inject } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createApp } from '../../src/app.js';
import { createHttpServer, DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../src/api/httpServer.js';
import type { RateLimits } from '../../src/api/rateLimit.js';
import { parseTrustProxy } from '../../src/http/clientAddress.js';
import { createAccount } from '../../src/db/accounts.js';
import { priceTableSchema, type PriceTable } from '../../src/products/registry.js';
import { payRatesSchema } from '../../src/products/payRates.js';
import type { WorkbenchSettings } from '../../src/contracts/orders.js';
import { localFileStore } from '../../src/storage/fileStore.js';
import { createOrderWorkers, type OrderWorkers } from '../../src/temporal/worker.js';
import { payloadDataConverter, type PayloadKey } from '../../src/temporal/payloadCodec.js';
import type { ActivityDeps } from '../../src/activities/index.js';
import { createOutboundClient, type MediaLimits, type OutboundClient } from '../../src/net/outbound.js';
import { uploadedFiles, withUploads } from '../../src/net/uploadedFiles.js';
import { createUploadStore, type UploadStore } from '../../src/storage/uploads.js';
import { ffmpegRenderer } from '../../src/engines/audioRendition.js';
import type { ProbePolicy } from '../../src/orders/measureTools.js';
import { createDocumentSandbox, DEFAULT_SANDBOX, type DocumentReader, type SandboxSettings } from '../../src/documents/sandbox/index.js';
import type { DocumentLimits } from '../../src/documents/limits.js';
import type { EngineSettings } from '../../src/activities/deps.js';
import { freshDatabase, type Engine, type TestDatabase } from './databases.js';
import { auditLedger } from './ledgerAudit.js';
import { close, listen } from './net.js';

function quietTemporalLogs() {
  // A test file may have installed its own runtime first (metrics.test.ts: with a Prometheus
  // endpoint); the SDK drops it when its last worker and connection close.
  if (!Runtime._instance) Runtime.install({ logger: new DefaultLogger('ERROR') });
}

/** The browser origin the test service's codec endpoint allows (CORS), as a deployment's Temporal UI. */
export const CODEC_TEST_UI_ORIGIN = 'http://temporal-ui.test:8233';

export interface ServiceOptions {
  engine?: Engine;
  qualityCheckProbability?: number;
  callbackRetryMs?: [number, number];
  payment?: { windowMs: number; graceMs: number };
  /** false: run no worker in this process (a test starts worker processes itself). */
  inProcessWorker?: boolean;
  /** Speech engines of the worker; none: engine orders wait for an operator. */
  engines?: EngineSettings;
  /** The server's limits; default: as `npm start`. */
  http?: Partial<HttpLimits>;
  /** Per-minute limits; default: high enough that no test meets them. */
  rateLimits?: Partial<RateLimits>;
  /** TRUST_PROXY as the environment gives it; default none (the socket's peer is the client). */
  trustProxy?: string;
  /** Private ranges customer URLs may reach; default loopback (the tests' media and callback servers). */
  outboundAllowCidrs?: string[];
  /** Quote limits and the per-account probe cap; default: quotes 1.5 s, 4 probes at once. */
  probes?: Partial<ProbePolicy>;
  /** The document sandbox; default: as `npm start`. */
  sandbox?: Partial<Omit<SandboxSettings, 'limits'>> & { limits?: Partial<DocumentLimits> };
  /** The workbench's lease and part length; default: as `npm start` (120 minutes, 360 seconds). */
  workbench?: Partial<WorkbenchSettings>;
  /** The workers' lease, where it differs from the API's (`workbench.leaseMs`). */
  taskLeaseMs?: number;
  /** Limits on customer media; default 50 MiB, 10 hours, 2 s to measure. */
  media?: Partial<MediaLimits>;
  /** How many tasks one worker may hold at once; default: as `npm start` (2). */
  maxHeldTasks?: number;
  /** An unused upload's life; default: as `npm start` (48 hours). */
  uploadTtlMs?: number;
}

export interface TestService {
  baseUrl: string;
  /** The Express app it serves (route tests walk its router). */
  app: ReturnType<typeof createApp>;
  database: TestDatabase;
  temporal: Client;
  opsToken: string;
  secretKey: Buffer;
  /** The payload keys of its client, worker and codec endpoint (a worker process gets them as PAYLOAD_KEYS). */
  payloadKeys: PayloadKey[];
  taskQueue: string;
  /** Its file store is `files/` in here, as a worker process with DATA_DIR set to it would use. */
  dataDir: string;
  /** What the API and the outbound client logged (failure details customers do not see). */
  logged: Array<{ message: string; meta: object }>;
  /** The guarded client of its API and worker (OUTBOUND_ALLOW_CIDRS = outboundAllowCidrs). */
  outbound: OutboundClient;
  /** The document sandbox of its API and worker. */
  documentReader: DocumentReader;
  /** What its worker's activities are built from (a test may run a worker of its own on them). */
  activityDeps: ActivityDeps;
  createAccount(balanceUsd: number, extra?: { createdAt?: Date; callbackUrl?: string }): Promise<{ accountId: number; token: string }>;
  /** POSTs a form to the API (the way curl -d does). */
  post(path: string, fields: Record<string, unknown>): Promise<{ status: number; body: any; headers: Headers }>;
  get(path: string): Promise<{ status: number; body: any; headers: Headers; bytes: Buffer }>;
  ops(method: string, path: string, body?: unknown, raw?: Buffer): Promise<{ status: number; body: any }>;
  /** Completes an order the way order-ops does: upload, then the complete update (kind transcription unless given). */
  complete(orderId: number, fileName: string, content: string | Uint8Array, kinds?: string[]): Promise<{ status: number; body: any }>;
  stopWorker(): Promise<void>;
  /** Starts the in-process worker again; on `workflowBundlePath`, another build of the workflows (one from before a change). */
  startWorker(workflowBundlePath?: string): Promise<void>;
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
  const payloadKeys: PayloadKey[] = [{ id: `test-${randomBytes(3).toString('hex')}`, key: randomBytes(32) }];
  const dataConverter = payloadDataConverter(payloadKeys);
  const temporal = new Client({ connection, namespace: 'default', dataConverter });
  const nativeConnection = await NativeConnection.connect({ address });
  const priceTable = priceTableSchema.parse(JSON.parse(await readFile(resolve('config/prices.json'), 'utf8'))) as PriceTable;
  const payRates = payRatesSchema.parse(JSON.parse(await readFile(resolve('config/pay-rates.json'), 'utf8')));
  const media = { maxBytes: 50 * 1024 * 1024, maxSeconds: 36_000, timeoutMs: 2000, ...opts.media };
  const logged: TestService['logged'] = [];
  const log = (message: string, meta: object) => {
    logged.push({ message, meta });
    if (message === 'request failed') console.error(message, meta);
  };

  // Listen first: result URLs need the port.
  let app: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createHttpServer((req, res) => app!(req, res), { ...DEFAULT_HTTP_LIMITS, ...opts.http }, log);
  const baseUrl = await listen(server);
  const uploadStore = createUploadStore(database.db, filesDir, { ttlMs: opts.uploadTtlMs ?? 48 * 3_600_000, maxBytes: media.maxBytes }, database.pool);
  const uploads = uploadedFiles(database.db, uploadStore, baseUrl);
  const deps: ActivityDeps & { uploadStore: UploadStore } = {
    db: database.db,
    files: localFileStore(filesDir),
    uploadStore,
    uploads,
    secretKey,
    publicBaseUrl: baseUrl,
    callbacks: { retryMinMs: minMs, retryMaxMs: maxMs, timeoutMs: 2000 },
    priceTable,
    payRates,
    engines: opts.engines ?? {},
    media,
    audioRenderer: ffmpegRenderer(),
    outbound: withUploads(createOutboundClient({ allowCidrs: opts.outboundAllowCidrs ?? ['127.0.0.0/8', '::1/128'], log }), uploads),
    documentReader: createDocumentSandbox({ ...DEFAULT_SANDBOX, warm: true, ...opts.sandbox, limits: { ...DEFAULT_SANDBOX.limits, ...opts.sandbox?.limits } }),
    // The workers' lease (TASK_LEASE_MINUTES as the workers have it); the API's is `workbench.leaseMs`.
    taskLeaseMs: opts.taskLeaseMs ?? opts.workbench?.leaseMs ?? 120 * 60_000,
  };
  app = createApp({
    ...deps,
    temporal,
    taskQueue,
    opsToken,
    codec: { uiOrigins: [CODEC_TEST_UI_ORIGIN], trustLoopbackUi: false },
    documents: { maxBytes: 10 * 1024 * 1024, timeoutMs: 2000 },
    qualityCheck: { probability: opts.qualityCheckProbability ?? 0, windowMs: 3_600_000 },
    workbench: { leaseMs: 120 * 60_000, partSeconds: 360, ...opts.workbench },
    ...(opts.maxHeldTasks !== undefined ? { maxHeldTasks: opts.maxHeldTasks } : {}),
    payment: opts.payment ?? { windowMs: 20_000, graceMs: 5_000 },
    rateLimits: { createPerMinute: 1_000_000, readsPerMinute: 1_000_000, failedAuthPerMinute: 1_000_000, signInPerMinute: 1_000_000, ...opts.rateLimits },
    trustProxy: parseTrustProxy(opts.trustProxy),
    log,
    probes: { quote: { timeoutMs: 1500 }, perAccount: 4, waitMs: 1000, cacheEntries: 1000, ...opts.probes },
  });

  let worker: OrderWorkers | undefined;
  let running: Promise<void> | undefined;
  const startWorker = async (workflowBundlePath?: string) => {
    const bundle = workflowBundlePath ? { codePath: workflowBundlePath } : workflowBundle;
    worker = await createOrderWorkers({ connection: nativeConnection, namespace: 'default', taskQueue, deps, workflowBundle: bundle, dataConverter });
    running = worker.run();
  };
  const stopWorker = async () => {
    await worker?.shutdown();
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
    baseUrl,
    database,
    temporal,
    opsToken,
    secretKey,
    payloadKeys,
    taskQueue,
    dataDir,
    logged,
    outbound: deps.outbound,
    documentReader: deps.documentReader,
    activityDeps: deps,
    app: app as ReturnType<typeof createApp>,
    async createAccount(balanceUsd, extra = {}) {
      const created = await createAccount(database.db, secretKey, { name: 'test', balanceCents: Math.round(balanceUsd * 100), ...extra });
      return { accountId: created.accountId, token: created.apiToken };
    },
    post: (path, fields) =>
      request('POST', path, {
        body: new URLSearchParams(
          Object.entries(fields)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        ),
      }),
    get: (path) => request('GET', path),
    ops: (method, path, body, raw) =>
      request(method, path, {
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
      // Whatever a suite did, the money adds up: entries sum to balances, one charge per order, refunds only as due.
      const audit = await auditLedger(database.db);
      await close(server);
      await nativeConnection.close();
      await connection.close();
      await uploadStore.close();
      await database.close();
      await deps.outbound.close();
      await deps.documentReader.close();
      await rm(dataDir, { recursive: true, force: true });
      if (audit.problems.length) throw new Error(`ledger audit of the test service failed:\n${audit.problems.join('\n')}`);
    },
  };
  return service;
}
