// Result files: GET /api/v4/orders/:id/files/:kind?api_token=…[&format=]. The rendering
// (format, ETag, render cache, file name) is `sendResultFile`, which the account area's
// session-served file links (src/web/) use too, so both serve the same bytes. With mode=test, the
// sample orders' files: the sample transcript in every format of the kind (no account data, so no
// token needed; one given is checked).
import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { ApiDeps } from '../context.js';
import { authenticate } from '../auth.js';
import { RequestError } from '../../contracts/failures.js';
import { RenderCache } from '../renderCache.js';
import { parseOrderId } from './records.js';
import { getAccountOrder, getOrderFile } from '../../db/orders.js';
import type { OrderRow } from '../../db/schema.js';
import { isResultKind, RESULT_KIND_DEFINITIONS, RESULT_KINDS, type ResultKind } from '../../domain/resultKinds.js';
import type { ResultFormat } from '../../domain/formats.js';
import { productOf } from '../../products/registry.js';
import { resultLanguageTag } from '../../products/shared.js';
import type { Timestamping } from '../../domain/render/layout.js';
import { renderResult, type RenderedFile } from '../../domain/render/index.js';
import { SAMPLE_ID_RANGE, SAMPLE_TRANSCRIPT, sampleOrderById } from '../../products/samples.js';

const CACHE_BYTES = 64 * 1024 * 1024;

/** One render cache per app (keyed by its deps), shared by the API route and the account area. */
const caches = new WeakMap<object, RenderCache>();
const cacheOf = (deps: object) => caches.get(deps) ?? caches.set(deps, new RenderCache(CACHE_BYTES)).get(deps)!;

export function checkResultKind(kind: string): ResultKind {
  if (!isResultKind(kind)) throw new RequestError(`kind: '${kind}' is not a result kind (${RESULT_KINDS.join(', ')})`);
  return kind;
}

/**
 * Answers with the order's `kind` file in `rawFormat` (default: the kind's first format), or 304
 * for a matching If-None-Match. The caller has checked that the order is the caller's.
 */
export async function sendResultFile(
  deps: Pick<ApiDeps, 'db' | 'files' | 'documentReader'>,
  req: Request,
  res: Response,
  order: OrderRow,
  kind: ResultKind,
  rawFormat: unknown,
): Promise<void> {
  const id = order.id;
  if (
    !productOf(order.product)
      .results(order.params)
      .some((r) => r.kind === kind)
  ) {
    throw new RequestError(`kind: order ${id} has no ${kind} file (a ${order.product} order)`);
  }
  const definition = RESULT_KIND_DEFINITIONS[kind];
  const format = checkFormat(kind, rawFormat);
  const file = order.status === 'finished' ? await getOrderFile(deps.db, id, kind) : undefined;
  if (!file) throw new RequestError(`order ${id} has no ${kind} file yet (the order is ${order.status})`);

  const timestamping = (definition.timestamped ? (order.params.timestamping ?? 'not_required') : 'not_required') as Timestamping;
  const title = `Order ${id} ${kind.replace(/_/g, ' ')}`;
  const language = resultLanguageTag(order.params);
  // Everything the rendering depends on; a quality fix changes the content key.
  const key = [file.blobKey, file.fileName, kind, format, timestamping, title, language].join('\n');
  const etag = `"${createHash('sha256').update(key).digest('base64url').slice(0, 32)}"`;
  res.set('ETag', etag).set('Cache-Control', 'private, no-cache');
  if (req.headers['if-none-match'] === etag) return void res.status(304).end();

  const rendered = await cacheOf(deps).get(key, async () =>
    deps.documentReader.renderResult(kind, await deps.files.get(file.blobKey), file.fileName, format, { title, timestamping, language }),
  );
  send(res, rendered, id, kind);
}

function checkFormat(kind: ResultKind, rawFormat: unknown): ResultFormat {
  const { formats } = RESULT_KIND_DEFINITIONS[kind];
  const format = (rawFormat ?? formats[0]) as ResultFormat;
  if (typeof rawFormat !== 'undefined' && !formats.includes(format)) {
    throw new RequestError(`format: must be one of ${formats.join(', ')} for a ${kind} file, got ${JSON.stringify(rawFormat)}`);
  }
  return format;
}

/** A download, never a page of this origin (an HTML result holds words people typed): nosniff and a CSP sandbox. */
function send(res: Response, rendered: RenderedFile, id: number, kind: ResultKind): void {
  res
    .set({ 'Content-Type': rendered.contentType, 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': 'sandbox' })
    .set('Content-Disposition', `attachment; filename="order-${id}-${kind.replace(/_/g, '-')}.${rendered.extension}"`)
    .send(rendered.body);
}

/** A sample order's result file (mode=test): the sample transcript, rendered as the kind and format ask. */
async function sendSampleFile(req: Request, res: Response, id: number, kind: ResultKind): Promise<void> {
  const order = sampleOrderById(id);
  if (!order) throw new RequestError(`order_id: ${id} is not a sample order (mode=test: the sample orders are ${SAMPLE_ID_RANGE})`);
  if (
    order.status !== 'finished' ||
    !productOf(order.product)
      .results(order.params)
      .some((r) => r.kind === kind)
  ) {
    throw new RequestError(`kind: sample order ${id} has no ${kind} file (a ${order.status} ${order.product} order)`);
  }
  const format = checkFormat(kind, req.query.format);
  const timestamping = (RESULT_KIND_DEFINITIONS[kind].timestamped ? (order.params.timestamping ?? 'not_required') : 'not_required') as Timestamping;
  // Our own fixed transcript, not a customer's file: rendered here, as the renderers are pure.
  const options = { title: `Sample order ${id} ${kind.replace(/_/g, ' ')}`, timestamping, language: resultLanguageTag(order.params) };
  send(res, await renderResult(kind, SAMPLE_TRANSCRIPT, format, options), id, kind);
}

export function filesRouter(deps: ApiDeps): Router {
  const router = Router();
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
