// The composition root of HTTP: one Express application that mounts the API (src/api/) and the pages
// for people (src/web/), siblings that never import each other, with body parsing for JSON,
// urlencoded and multipart fields, metrics, and the API's one error mapper.
import express from 'express';
import multer from 'multer';
import type { ApiDeps } from './api/context.js';
import { errorHandler, errorObject, readingBody } from './api/errors.js';
import { DEFAULT_RATE_LIMITS, rateLimiter } from './api/rateLimit.js';
import { createOrdersRouter } from './api/routes/create.js';
import { recordsRouter } from './api/routes/records.js';
import { languagesRouter } from './api/routes/languages.js';
import { filesRouter } from './api/routes/files.js';
import { opsRouter } from './api/routes/ops.js';
import { workforceRouter } from './api/routes/workforce.js';
import { codecRouter } from './api/routes/codec.js';
import { openApiRouter } from './api/routes/openapi.js';
import { accountArea } from './web/router.js';
import { workbench } from './web/work/router.js';
import { httpMetrics, metricsHandler, setQueueStatsSource } from './metrics.js';
import { queueStats } from './db/tasks.js';
import { parseQueryString, refuseConflictingQueryKeys } from './http/queryString.js';
import { databaseCheck, readyzHandler, temporalCheck } from './api/health.js';
import { loggedPath } from './http/loggedPath.js';
import { sharedOrders } from './web/shared.js';

export function createApp(deps: ApiDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', parseQueryString);

  // Access log (first, so refused bodies and rate limits are logged too): the path only, since query strings carry API tokens (and share tokens masked).
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    const path = loggedPath(req.path); // now: a router mounted on a path answers with its own req.path
    res.on('finish', () =>
      deps.log('http', {
        method: req.method,
        path,
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
      }),
    );
    next();
  });
  // Request counts and latencies by route pattern; /metrics (Prometheus) before the parsers and the rate limiter (docs/decisions.md).
  app.use(httpMetrics());
  setQueueStatsSource(() => queueStats(deps.db));
  app.get('/metrics', metricsHandler());
  // Orders have a few dozen fields at most: bounded parsing work per request (over a limit: 413).
  app.use(readingBody(express.json({ limit: '1mb' }), 'json'));
  app.use(readingBody(express.urlencoded({ extended: false, limit: '1mb', parameterLimit: 100 }), 'urlencoded'));
  app.use(readingBody(multer({ limits: { fieldSize: 64 * 1024, fields: 50, parts: 50, files: 0 } }).none(), 'multipart'));
  app.use(openApiRouter()); // the OpenAPI document and /docs: before the rate limiter
  // After the parsers: a creation's token is in its body.
  const limiter = rateLimiter(deps.rateLimits ?? DEFAULT_RATE_LIMITS);
  app.use(limiter.limit);
  app.use('/api', refuseConflictingQueryKeys);
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', readyzHandler(deps.readiness ?? { database: databaseCheck(deps.db), temporal: temporalCheck(deps.temporal.connection) }));
  app.use(languagesRouter());
  app.use(createOrdersRouter(deps));
  app.use(filesRouter(deps));
  app.use(recordsRouter(deps));
  app.use(opsRouter(deps));
  app.use(workforceRouter(deps));
  app.use(codecRouter(deps));
  app.use('/account', accountArea(deps));
  app.use('/work', workbench(deps));
  app.use('/shared', sharedOrders(deps));
  app.use((req, res) => void res.status(404).json(errorObject('', `no such endpoint: ${req.method} ${req.path}`)));
  app.use(limiter.countFailures);
  app.use(errorHandler(deps.log));
  return app;
}
