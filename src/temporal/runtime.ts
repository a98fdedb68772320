// The Temporal SDK's runtime for this process: its logger forwards to the service's pino logger
// (src/log.ts), workflow log lines carry the order's ids, and its worker metrics are exported for
// Prometheus on TEMPORAL_METRICS_PORT when set (docs/operations.md).
import { LogTimestamp, Runtime, type InjectedSinks, type LogLevel, type LogMetadata, type Logger, type RuntimeOptions } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { Logger as PinoLogger } from 'pino';
import { SEARCH_ATTRIBUTES } from '../contracts/orders.js';
import { logger as serviceLogger, withOrderFields } from '../log.js';

/** Metadata of the SDK not worth a log line's bytes (the task token is opaque and long). */
const DROPPED = new Set(['taskToken']);

/**
 * The account of recent orders, as lines that name both told it (the workflow sink always does,
 * from the order's search attributes): the SDK's own lines about an order's activities (started,
 * failed, …) name only its workflow. Best effort, bounded.
 */
const accountOfOrder = new Map<number, number>();
const REMEMBERED = 10_000;

function rememberAccount(orderId: number, accountId: number): void {
  if (accountOfOrder.get(orderId) === accountId) return;
  if (accountOfOrder.size >= REMEMBERED) accountOfOrder.delete(accountOfOrder.keys().next().value!);
  accountOfOrder.set(orderId, accountId);
}

/** A line about an order (by orderId or its workflow `order-<id>`) gets orderId, accountId and workflowId. */
function completeOrderFields(fields: Record<string, unknown>): Record<string, unknown> {
  const fromWorkflow = typeof fields.workflowId === 'string' ? /^order-(\d+)$/.exec(fields.workflowId)?.[1] : undefined;
  const orderId = typeof fields.orderId === 'number' ? fields.orderId : fromWorkflow !== undefined ? Number(fromWorkflow) : undefined;
  if (orderId === undefined) return fields;
  if (typeof fields.accountId === 'number') rememberAccount(orderId, fields.accountId);
  const accountId = fields.accountId ?? accountOfOrder.get(orderId);
  return withOrderFields({ ...fields, orderId, ...(accountId !== undefined ? { accountId } : {}) });
}

/** The SDK's Logger interface over a pino logger: levels map one to one, SDK metadata become fields. */
export class PinoTemporalLogger implements Logger {
  constructor(private readonly target: PinoLogger = serviceLogger) {}

  log(level: LogLevel, message: string, meta: LogMetadata = {}): void {
    let fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(meta)) if (!DROPPED.has(key)) fields[key] = value;
    fields = completeOrderFields(fields);
    void meta[LogTimestamp]; // pino stamps its own time
    const method = level.toLowerCase() as 'trace' | 'debug' | 'info' | 'warn' | 'error';
    this.target[method](fields, message);
  }
  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }
  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }
  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }
  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }
  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}

export interface TemporalRuntimeOptions {
  /** Where the SDK's lines go; default the service's logger. */
  logger?: PinoLogger;
  /** Prometheus endpoint of the SDK's worker metrics (`temporal_…`), on 0.0.0.0:<port>/metrics; unset or 0: none. */
  metricsPort?: number;
  /** Bind address of that endpoint; default 0.0.0.0 (a scraper in another container). */
  metricsHost?: string;
  shutdownSignals?: RuntimeOptions['shutdownSignals'];
}

/** Installs the SDK runtime: once per process, before any NativeConnection or Worker is created. */
export function installTemporalRuntime(opts: TemporalRuntimeOptions = {}): Runtime {
  return Runtime.install({
    logger: new PinoTemporalLogger(opts.logger),
    ...(opts.shutdownSignals ? { shutdownSignals: opts.shutdownSignals } : {}),
    ...(opts.metricsPort
      ? {
          telemetryOptions: { metrics: { prometheus: { bindAddress: `${opts.metricsHost ?? '0.0.0.0'}:${opts.metricsPort}` } } },
        }
      : {}),
  });
}

/**
 * orderId and accountId of an order workflow, from the search attributes it starts with. A sink gets
 * a copy of the workflow's info (its typed search attributes are plain data there): the
 * name-to-values map is read.
 */
function orderFieldsOf(info: WorkflowInfo): { orderId?: number; accountId?: number } {
  const attributes = (info.searchAttributes ?? {}) as Record<string, unknown>;
  const first = (name: string) => {
    const values = attributes[name];
    const value = Array.isArray(values) ? values[0] : undefined;
    return typeof value === 'number' ? value : undefined;
  };
  const orderId = first(SEARCH_ATTRIBUTES.orderId.name);
  const accountId = first(SEARCH_ATTRIBUTES.accountId.name);
  return { ...(orderId !== undefined ? { orderId } : {}), ...(accountId !== undefined ? { accountId } : {}) };
}

/**
 * The workflow logger sink (what `wf.log` calls): as the SDK's own, plus the order's orderId and
 * accountId, so every workflow line about an order carries orderId, accountId and workflowId.
 * Given to the order worker as `sinks`; lines go to the runtime's logger. The SDK reserves the
 * sink's own name (`__temporal_logger`) and takes this one under its historical name,
 * `defaultWorkerLogger`, in its place.
 */
export function orderLoggerSinks(): InjectedSinks<Record<string, Record<string, (...args: any[]) => void>>> {
  const levels = ['trace', 'debug', 'info', 'warn', 'error'] as const;
  return {
    defaultWorkerLogger: Object.fromEntries(
      levels.map((level) => [
        level,
        {
          fn(info: WorkflowInfo, message: string, attrs?: LogMetadata) {
            const ids = orderFieldsOf(info);
            // Whatever the level, so the SDK's lines about the order's activities can name its account.
            if (ids.orderId !== undefined && ids.accountId !== undefined) rememberAccount(ids.orderId, ids.accountId);
            Runtime.instance().logger[level](message, { sdkComponent: 'workflow', ...ids, ...attrs });
          },
          callDuringReplay: false,
        },
      ]),
    ),
  } as InjectedSinks<Record<string, Record<string, (...args: any[]) => void>>>;
}
