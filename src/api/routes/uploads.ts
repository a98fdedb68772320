// The API's uploads (issue 52): `/api/v4/uploads`, tus 1.0 (creation, termination, expiration) and
// one raw body (`POST` without `Tus-Resumable`), authenticated by the API token as every v4 call
// (`Authorization: Bearer <api_token>` or `?api_token=`). Mounted before the body parsers: the body is
// the file. The answer's `url` is what an order's `url` (or a document field) takes.
import type { Request, RequestHandler } from 'express';
import type { ApiDeps } from '../context.js';
import { authenticate } from '../auth.js';
import { caseSensitiveRouter } from '../../http/router.js';
import { uploadReceiver } from '../../http/uploads.js';
import { UPLOADS_PATH } from '../../net/uploadedFiles.js';

/** The token of a v4 call: the bearer header, else the query's `api_token`. */
function tokenOf(req: Request): unknown {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  return bearer ?? req.query.api_token;
}

/** `refuseBlocked`: the failed-authentication limit per client address (rateLimit.ts), checked first. */
export function uploadsRouter(deps: ApiDeps, refuseBlocked: RequestHandler) {
  const router = caseSensitiveRouter();
  const { uploadStore, uploads } = deps;
  if (!uploadStore || !uploads) return router;
  const receiver = uploadReceiver({ ...deps, uploadStore, uploads }, UPLOADS_PATH, uploads.urlOf);
  const account = (req: Request) => authenticate(deps.db, deps.secretKey, tokenOf(req));

  router.options([UPLOADS_PATH, `${UPLOADS_PATH}/:id`], (req, res) => receiver.tus(req, res));
  router.post(UPLOADS_PATH, refuseBlocked, async (req, res) => {
    const owner = await account(req);
    if (req.headers['tus-resumable'] !== undefined) return receiver.tus(req, res, owner);
    const { id, size, expiresAt } = await receiver.whole(req, owner);
    const url = uploads.urlOf(id);
    res.status(201).location(url).json({ url, size, expires_at: expiresAt.toISOString() });
  });
  router.all(`${UPLOADS_PATH}/:id`, refuseBlocked, async (req, res) => receiver.tus(req, res, await account(req)));
  return router;
}
