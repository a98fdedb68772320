// The composition root of HTTP: one Express application that mounts the API (src/api/) and the pages
// for people (src/web/), siblings that never import each other, with body parsing for JSON,
// urlencoded and multipart fields, metrics, and the API's one error mapper.
import express, { type RequestHandler } from 'express';
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
import { uploadsRouter } from './api/routes/uploads.js';
import { openApiRouter } from './api/routes/openapi.js';
import { accountArea } from './web/router.js';
import { workbench } from './web/work/router.js';
import { carriesWorkerSession } from './web/work/session.js';
import { httpMetrics, metricsHandler, setQueueStatsSource } from './metrics.js';
import { queueStats } from './db/tasks.js';
import { parseQueryString, refuseConflictingQueryKeys } from './http/queryString.js';
import { databaseCheck, readyzHandler, temporalCheck } from './api/health.js';
import { loggedPath } from './http/loggedPath.js';
import { sharedOrders } from './web/shared.js';
import { WORK_TEXT_BODY_BYTES } from './domain/humanWork/workText.js';

/** The workbench's routes that take a worker's whole text (src/web/work/task.ts). */
const WORK_TEXT_ROUTES = ['/work/tasks/:id/save', '/work/tasks/:id/submit', '/work/tasks/:id/review'];

/** A parser that passes by a body read already (multer would fail on the spent stream; body-parser skips it itself). */
const unlessRead =
  (parser: RequestHandler): RequestHandler =>
  (req, res, next) =>
    req.readableEnded ? next() : parser(req, res, next);

export function createApp(deps: ApiDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // One spelling per path, as every router has it (src/http/router.ts); set before the first route.
  app.set('case sensitive routing', true);
  // req.ip: X-Forwarded-For only from the proxies TRUST_PROXY names (src/http/clientAddress.ts).
  app.set('trust proxy', deps.trustProxy ?? false);
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
  // Request counts and latencies by route pattern; /metrics (Prometheus) before the parsers and the rate limiter (docs/decisions/metrics.md).
  app.use(httpMetrics());
  setQueueStatsSource(() => queueStats(deps.db));
  app.get('/metrics', metricsHandler());
  const limiter = rateLimiter(deps.rateLimits ?? DEFAULT_RATE_LIMITS);
  // Uploads before the body parsers: their body is the customer's file, whatever its type.
  app.use(uploadsRouter(deps, limiter.refuseBlocked));
  // A worker's text (autosave, Submit, review) may be MAX_WORK_TEXT characters: these routes' bodies
  // are limited by it in its worst encoding (WORK_TEXT_BODY_BYTES), so that a text one over is the
  // route's 400 naming the field and never the parser's 413; the parsers below then pass them by.
  // Only with a worker's session: anyone else's body keeps the limit below (and then the sign-in page).
  app.post(
    WORK_TEXT_ROUTES,
    (req, _res, next) => void carriesWorkerSession(deps.db, req).then((signed) => next(signed ? undefined : 'route'), next),
    readingBody(express.json({ limit: WORK_TEXT_BODY_BYTES }), 'json'),
    readingBody(express.urlencoded({ extended: false, limit: WORK_TEXT_BODY_BYTES, parameterLimit: 100 }), 'urlencoded'),
    readingBody(multer({ limits: { fieldSize: WORK_TEXT_BODY_BYTES, fields: 50, parts: 50, files: 0 } }).none(), 'multipart'),
  );
  // Orders have a few dozen fields at most: bounded parsing work per request (over a limit: 413).
  app.use(readingBody(express.json({ limit: '1mb' }), 'json'));
  app.use(readingBody(express.urlencoded({ extended: false, limit: '1mb', parameterLimit: 100 }), 'urlencoded'));
  app.use(readingBody(unlessRead(multer({ limits: { fieldSize: 64 * 1024, fields: 50, parts: 50, files: 0 } }).none()), 'multipart'));
  app.use(openApiRouter()); // the OpenAPI document and /docs: before the rate limiter
  // After the parsers: a creation's token is in its body.
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
