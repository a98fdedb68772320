// Result files: GET /api/v4/orders/:id/files/:kind?api_token=…[&format=]. The rendering (format,
// ETag, render cache, file name) is `sendResultFile` (src/http/resultFiles.ts), which the account
// area's session-served file links (src/web/) use too, so both serve the same bytes. With
// mode=test, the sample orders' files: the sample transcript in every format of the kind (no
// account data, so no token needed; one given is checked).
import type { Router, Request, Response } from 'express';
import type { ApiDeps } from '../context.js';
import { authenticate } from '../auth.js';
import { RequestError } from '../../contracts/failures.js';
import { checkFormat, checkResultKind, sendRendered, sendResultFile } from '../../http/resultFiles.js';
import { parseOrderId } from './records.js';
import { getAccountOrder } from '../../db/orders.js';
import { RESULT_KIND_DEFINITIONS, type ResultKind } from '../../domain/resultKinds.js';
import { orderResult } from '../../products/registry.js';
import { resultLanguage } from '../../products/shared.js';
import { renderResult } from '../../domain/render/index.js';
import { fontLibrary } from '../../documents/fonts.js';
import { SAMPLE_ID_RANGE, SAMPLE_TRANSCRIPT, sampleOrderById } from '../../products/samples.js';
import { caseSensitiveRouter } from '../../http/router.js';

/** A sample order's result file (mode=test): the sample transcript, rendered as the kind and format ask. */
async function sendSampleFile(req: Request, res: Response, id: number, kind: ResultKind): Promise<void> {
  const order = sampleOrderById(id);
  if (!order) throw new RequestError(`order_id: ${id} is not a sample order (mode=test: the sample orders are ${SAMPLE_ID_RANGE})`);
  const result = order.status === 'finished' ? orderResult(order, kind) : undefined;
  if (!result) throw new RequestError(`kind: sample order ${id} has no ${kind} file (a ${order.status} ${order.product} order)`);
  const format = checkFormat(kind, req.query.format, result.formats);
  const timestamping = RESULT_KIND_DEFINITIONS[kind].timestamped ? (order.params.timestamping ?? 'not_required') : 'not_required';
  // Our own fixed transcript, not a customer's file: rendered here, as the renderers are pure.
  const options = { title: `Sample order ${id} ${kind.replace(/_/g, ' ')}`, timestamping, ...resultLanguage(order.params) };
  sendRendered(res, await renderResult(kind, SAMPLE_TRANSCRIPT, format, options, fontLibrary()), id, kind);
}

export function filesRouter(deps: ApiDeps): Router {
  const router = caseSensitiveRouter();
  router.get('/api/v4/orders/:id/files/:kind', async (req, res) => {
    if (req.query.mode === 'test') {
      if (req.query.api_token !== undefined) await authenticate(deps.db, deps.secretKey, req.query.api_token);
      return void (await sendSampleFile(req, res, parseOrderId(req.params.id), checkResultKind(req.params.kind)));
    }
    const account = await authenticate(deps.db, deps.secretKey, req.query.api_token);
    const id = parseOrderId(req.params.id);
    const kind = checkResultKind(req.params.kind);
    const order = await getAccountOrder(deps.db, account.id, id);
    if (!order) throw new RequestError(`order_id: order ${id} not found`);
    await sendResultFile(deps, req, res, order, kind, req.query.format);
  });
  return router;
}
