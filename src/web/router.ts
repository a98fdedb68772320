// The account area (/account): server-rendered pages for a person signed in with the account's
// API token. Mounted by src/api/app.ts; answers every /account path itself (HTML errors included).
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { Router, RequestHandler } from 'express';
import type { WebDeps } from './context.js';
import { PageError, webErrorHandler } from './errors.js';
import { requireSession } from './session.js';
import { signInRouter } from './pages/signIn.js';
import { ordersRouter } from './pages/orders.js';
import { orderRouter } from './pages/order.js';
import { sharingRouter } from './pages/sharing.js';
import { walletRouter } from './pages/wallet.js';
import { settingsRouter } from './pages/settings.js';
import { sampleRouter } from './pages/sample.js';
import { newOrderRouter } from './pages/newOrder.js';
import { caseSensitiveRouter } from '../http/router.js';
import { compiledScript } from '../runtime/compiledScript.js';

const ASSET_TYPES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'work.js': 'text/javascript; charset=utf-8',
  'new-order.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

/**
 * The scripts, the style sheet and the icon, read once from dist/web/assets, where the build leaves
 * them (the scripts bundled from src/web/client by scripts/bundle-pages.mjs, the others copied by
 * scripts/copy-assets.mjs), also when this module runs from its TypeScript source (the tests); the
 * workbench serves them too.
 */
export function assets(): RequestHandler {
  const files = new Map(
    Object.entries(ASSET_TYPES).map(([name, type]) => {
      const body = readFileSync(compiledScript(import.meta.url, `assets/${name}`));
      return [name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` }];
    }),
  );
  return (req, res, next) => {
    const file = files.get(String(req.params.name));
    if (!file) return next();
    res.set({ 'Content-Type': file.type, ETag: file.etag, 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' });
    if (req.headers['if-none-match'] === file.etag) return void res.status(304).end();
    res.send(file.body);
  };
}

export function accountArea(deps: WebDeps): Router {
  const router = caseSensitiveRouter();
  router.get('/assets/:name', assets());
  router.use(signInRouter(deps));
  router.use(requireSession(deps));
  router.get('/', (_req, res) => void res.redirect(303, '/account/orders'));
  // The fixed paths (orders/new, status.json) before the order page's /orders/:id.
  router.use(newOrderRouter(deps));
  router.use(ordersRouter(deps));
  router.use(orderRouter(deps));
  router.use(sharingRouter(deps));
  router.use(walletRouter(deps));
  router.use(settingsRouter(deps));
  router.use(sampleRouter(deps));
  router.use(() => {
    throw new PageError(404, 'There is no such page in the account area.');
  });
  router.use(webErrorHandler(deps.log));
  return router;
}
