// The service's log: one JSON line per event through pino, for operators and log collectors
// (docs/operations.md). `LOG_LEVEL` (trace, debug, info, warn, error, fatal, silent; default info)
// is read here, before the configuration, since the first lines come before it is loaded.
// Secrets are redacted by configuration (REDACT_PATHS), whatever a call site passes; still, never
// pass secrets in `meta`.
import { pino, type DestinationStream, type Logger } from 'pino';
import { orderWorkflowId } from './contracts/orders.js';

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** Fields censored on any line: tokens, credentials, cookies and webhook secrets, at the top and one level down. */
const SECRET_KEYS = [
  'api_token',
  'apiToken',
  'token',
  'new_api_token',
  'authorization',
  'Authorization',
  'cookie',
  'Cookie',
  '"set-cookie"',
  'webhook_secret',
  'webhookSecret',
  'webhook_secrets',
  'secret',
  'secrets',
  'secretKey',
  'secret_key',
  'opsToken',
  'ops_token',
  'password',
  'csrf',
  'csrfToken',
  'sessionId',
  'payloadKeys',
];
export const REDACT_PATHS: string[] = [
  ...SECRET_KEYS.flatMap((k) => (k.startsWith('"') ? [`[${k}]`, `*[${k}]`] : [k, `*.${k}`])),
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-ops-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["webhook-signature"]',
];

/** A pino logger with the service's format: `"level":"info"`, ISO `time`, `msg`, secrets redacted. */
export function createLogger(opts: { level?: string; destination?: DestinationStream } = {}): Logger {
  const level = opts.level ?? logLevelFromEnv();
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // The SDK passes errors as `error`: their message and stack, not `{}`.
      serializers: { error: pino.stdSerializers.err, err: pino.stdSerializers.err },
      redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

function logLevelFromEnv(env: Record<string, string | undefined> = process.env): LogLevelName {
  const raw = (env.LOG_LEVEL ?? '').trim().toLowerCase();
  if (!raw) return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw))
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(env.LOG_LEVEL)}`);
  return raw as LogLevelName;
}

/** The process's logger (stdout). */
export const logger: Logger = createLogger();

/** A line about an order names its workflow too: `order-<orderId>`. */
export function withOrderFields<T extends object>(meta: T): T & { workflowId?: string } {
  const { orderId, workflowId } = meta as { orderId?: unknown; workflowId?: unknown };
  if (workflowId === undefined && typeof orderId === 'number') return { ...meta, workflowId: orderWorkflowId(orderId) };
  return meta;
}

/** `log(message, meta)` of a given pino logger: level error when meta carries an `error`, info otherwise. */
function logWith(target: Logger): (message: string, meta?: object) => void {
  return (message, meta = {}) => {
    const fields = withOrderFields(meta);
    if ('error' in fields) target.error(fields, message);
    else target.info(fields, message);
  };
}

/** One line per event: `log('order placed', { orderId, accountId, … })`. A line with an `error` field is at level error. */
export const log: (message: string, meta?: object) => void = logWith(logger);

/**
 * The order an error no caller handled names, from its own fields or its causes' (`orderId`, or a
 * `workflowId` `order-<id>`, as PaymentUnconfirmedError and Temporal's WorkflowNotFoundError carry them).
 */
export function orderOfError(err: unknown): { orderId?: number } {
  for (let at = err, depth = 0; at && typeof at === 'object' && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    const { orderId, workflowId } = at as { orderId?: unknown; workflowId?: unknown };
    if (typeof orderId === 'number') return { orderId };
    const fromWorkflow = typeof workflowId === 'string' ? /^order-(\d+)$/.exec(workflowId)?.[1] : undefined;
    if (fromWorkflow) return { orderId: Number(fromWorkflow) };
  }
  return {};
}
