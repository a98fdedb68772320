// The Express application: body parsing for JSON, urlencoded and multipart fields, the routes,
// and one error mapper.
import express from 'express';
import multer from 'multer';
import type { ApiDeps } from './context.js';
import { errorHandler, errorObject } from './errors.js';
import { createOrdersRouter } from './routes/create.js';
import { recordsRouter } from './routes/records.js';
import { languagesRouter } from './routes/languages.js';
import { filesRouter } from './routes/files.js';
import { opsRouter } from './routes/ops.js';

export function createApp(deps: ApiDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(express.json({ limit: '1mb' }));
  app.use(express.urlencoded({ extended: false, limit: '1mb' }));
  app.use(multer({ limits: { fieldSize: 1024 * 1024, fields: 50, files: 0 } }).none());

  // Access log: the path only, since query strings carry API tokens.
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => deps.log('http', {
      method: req.method, path: req.path, status: res.statusCode, ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
    }));
    next();
  });
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.use(languagesRouter());
  app.use(createOrdersRouter(deps));
  app.use(filesRouter(deps));
  app.use(recordsRouter(deps));
  app.use(opsRouter(deps));
  app.use((req, res) => void res.status(404).json(errorObject('', `no such endpoint: ${req.method} ${req.path}`)));
  app.use(errorHandler(deps.log));
  return app;
}
