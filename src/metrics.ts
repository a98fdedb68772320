// Prometheus metrics of this process (docs/operations.md): one registry, counters incremented where
// the events happen. The API serves them on `/metrics`; any role also on METRICS_PORT when set
// (the worker role has no other HTTP server). The Temporal SDK's own worker metrics are on the
// runtime's port (TEMPORAL_METRICS_PORT, src/temporal/runtime.ts).
import { createServer, type Server } from 'node:http';
import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, Express route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});
export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency until the answer was sent, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});
export const ordersPlaced = new Counter({
  name: 'orders_placed_total',
  help: 'Live orders placed and charged through the API, by product',
  labelNames: ['product'] as const,
  registers: [registry],
});
export const ordersFinished = new Counter({
  name: 'orders_finished_total',
  help: 'Orders finished (result files delivered), by product',
  labelNames: ['product'] as const,
  registers: [registry],
});
export const ordersRefunded = new Counter({
  name: 'orders_refunded_total',
  help: 'Orders refunded, by product',
  labelNames: ['product'] as const,
  registers: [registry],
});
export const ordersCanceled = new Counter({
  name: 'orders_canceled_total',
  help: 'Orders canceled (and refunded), by product',
  labelNames: ['product'] as const,
  registers: [registry],
});
export const ordersDeleted = new Counter({
  name: 'orders_deleted_total',
  help: "Orders whose data was deleted (the record kept for the bill), by product and by whom: the customer (API or account area), an operator, or the order's delete_after_seconds",
  labelNames: ['product', 'by'] as const,
  registers: [registry],
});
export const callbackAttempts = new Counter({
  name: 'callback_attempts_total',
  help: 'Callback POSTs to customer receivers, by outcome (ok, wrong_answer, http_error, network_error, gone)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
export const ordersLate = new Counter({
  name: 'orders_late_total',
  help: 'Orders still open at their delivery estimate (marked late once), by product',
  labelNames: ['product'] as const,
  registers: [registry],
});
export const walletChargeFailures = new Counter({
  name: 'wallet_charge_failures_total',
  help: 'Wallet charges refused, by reason (insufficient_funds)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const unhandledRejections = new Counter({
  name: 'unhandled_rejections_total',
  help: 'Promises that rejected with no handler: logged, and the process served on (src/main.ts); each is a bug to fix',
  registers: [registry],
});

/** Counts a settled order: finished, refunded or canceled. */
export function countSettled(status: 'finished' | 'refunded' | 'canceled', product: string): void {
  (status === 'finished' ? ordersFinished : status === 'refunded' ? ordersRefunded : ordersCanceled).inc({ product });
}

/**
 * Request counts and latencies by the matched route's pattern (`/api/v4/orders/:id`, never the raw
 * path, so ids and tokens never become labels); `unmatched` for answers no route gave (404s,
 * refusals before routing).
 */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const end = httpDuration.startTimer();
    res.on('finish', () => {
      const pattern = req.route?.path;
      const route = pattern === undefined ? 'unmatched' : `${req.baseUrl}${String(pattern)}`;
      const labels = { method: req.method, route, status: String(res.statusCode) };
      httpRequests.inc(labels);
      end(labels);
    });
    next();
  };
}

/** `GET /metrics`: the registry in Prometheus' text format. */
export function metricsHandler(): RequestHandler {
  // Express 5 passes what an async handler throws to next(), a failure to answer included.
  return async (_req, res) => {
    const text = await registry.metrics();
    res.set('content-type', registry.contentType).send(text);
  };
}

/** A listener for the registry alone on `port` (METRICS_PORT): what a worker process without the API serves. */
export async function startMetricsServer(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  return server;
}

// The workbench (docs/operations.md, Workbench).
export const taskClaims = new Counter({
  name: 'workbench_claims_total',
  help: 'Tasks claimed by workers, by skill',
  labelNames: ['skill'] as const,
  registers: [registry],
});
export const taskLeaseExpiries = new Counter({
  name: 'workbench_lease_expiries_total',
  help: 'Claims left idle past TASK_LEASE_MINUTES and returned to the queue, by skill',
  labelNames: ['skill'] as const,
  registers: [registry],
});
export const paidToFirstClaim = new Histogram({
  name: 'workbench_paid_to_first_claim_seconds',
  help: 'From an order being paid to the first claim of one of its tasks, by product',
  labelNames: ['product'] as const,
  registers: [registry],
  buckets: [60, 300, 900, 3600, 4 * 3600, 12 * 3600, 24 * 3600, 72 * 3600],
});

export const draftEditRate = new Histogram({
  name: 'workbench_draft_edit_rate',
  help: 'How much of the machine draft the people changed (word edit distance ÷ the delivered words), by product and language',
  labelNames: ['product', 'language'] as const,
  registers: [registry],
  buckets: [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 2],
});

export const draftWordsChanged = new Histogram({
  name: 'workbench_draft_words_changed_ratio',
  help: "Of the machine draft's words the engine doubted (confidence=doubtful) and the others (confident), the share people changed, by product: whether the editor's marks point at the words people fix",
  labelNames: ['product', 'confidence'] as const,
  registers: [registry],
  buckets: [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1],
});

type QueueStats = Array<{ skill: string; waiting: number; oldestMs: number }>;
let queueStatsSource: (() => Promise<QueueStats>) | undefined;
let latestStats: Promise<QueueStats> | undefined;
/** One query per scrape for both gauges; none (empty) when no source is set or it fails. */
const readQueueStats = () =>
  (latestStats ??= (queueStatsSource?.() ?? Promise.resolve([]))
    .catch(() => [])
    .finally(() =>
      setTimeout(() => {
        latestStats = undefined;
      }, 500).unref(),
    ));

/**
 * Queue depth and the oldest waiting task per skill are read from the database when /metrics is
 * scraped, through `source`, which the process serving the API gives (this module reads no database).
 */
export function setQueueStatsSource(source: () => Promise<QueueStats>): void {
  queueStatsSource = source;
}

new Gauge({
  name: 'workbench_queue_depth',
  help: 'Tasks waiting for a worker, by skill',
  labelNames: ['skill'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const s of await readQueueStats()) this.set({ skill: s.skill }, s.waiting);
  },
});
new Gauge({
  name: 'workbench_oldest_waiting_seconds',
  help: 'Age of the oldest waiting task, by skill',
  labelNames: ['skill'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const s of await readQueueStats()) this.set({ skill: s.skill }, Math.round(s.oldestMs / 1000));
  },
});

export const renderingsFailed = new Counter({
  name: 'result_renderings_failed_total',
  help: 'Result file renderings that failed (each once: the failure is remembered and answered again), by format and reason (time, memory, crashed, timing, unreadable)',
  labelNames: ['format', 'reason'] as const,
  registers: [registry],
});

export const pdfCharactersDropped = new Counter({
  name: 'pdf_characters_dropped_total',
  help: "Code points of result files past a PDF's layout caps (marks on one letter, unbreakable words), left out of the PDF",
  registers: [registry],
});

export const pdfCharactersMissing = new Counter({
  name: 'pdf_characters_missing_total',
  help: 'Characters of PDF results that no installed font covers, drawn as U+FFFD (install fonts-noto-core and fonts-noto-cjk)',
  registers: [registry],
});
