// The OpenAPI document (GET /api/v4/openapi.json) and its reference page (/docs): Swagger UI from
// the swagger-ui-dist package, served by the service itself. The page's CSP allows only this
// origin (the validator badge, which would call validator.swagger.io, is turned off).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Router } from 'express';
import { openApiDocument } from '../openapi/document.js';
import { caseSensitiveRouter } from '../../http/router.js';

export const OPENAPI_PATH = '/api/v4/openapi.json';

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Order service API v4 reference</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_PATH)}, dom_id: '#ui', deepLinking: true, validatorUrl: null, tryItOutEnabled: false });\n`;

export function openApiRouter(): Router {
  const router = caseSensitiveRouter();
  router.get(OPENAPI_PATH, (_req, res) => void res.set('Cache-Control', 'public, max-age=300').json(openApiDocument()));
  router.get('/docs', (_req, res) => void res.set('Content-Security-Policy', CSP).type('html').send(PAGE));
  router.get('/docs/init.js', (_req, res) => void res.type('text/javascript').send(INIT));
  router.get('/docs/assets/:name', (req, res, next) => {
    const type = ASSETS[req.params.name];
    if (!type) return next();
    res.set('Cache-Control', 'public, max-age=86400').type(type).sendFile(join(SWAGGER_UI_DIR, req.params.name));
  });
  return router;
}
