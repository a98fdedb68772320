// Result files: GET /api/v4/orders/:id/files/:kind?api_token=…[&format=]
import { Router } from 'express';
import { z } from 'zod';
import type { ApiDeps } from '../context.js';
import { authenticate } from '../auth.js';
import { ApiError } from '../errors.js';
import { parseOrderId } from './records.js';
import { getAccountOrder, getOrderFile } from '../../db/orders.js';
import { PRODUCTS, RESULT_KINDS, type ProductKey, type ResultKind } from '../../domain/catalog.js';
import { importTranscript, TranscriptImportError } from '../../domain/transcript.js';
import { renderTranscript, TRANSCRIPT_FORMATS } from '../../domain/render/index.js';

const formatQuery = z.object({
  format: z.enum(TRANSCRIPT_FORMATS, { error: (iss) => `must be one of ${TRANSCRIPT_FORMATS.join(', ')} for this file, got ${JSON.stringify(iss.input)}` }).default('docx'),
});

export function filesRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/api/v4/orders/:id/files/:kind', async (req, res) => {
    const account = await authenticate(deps.db, deps.secretKey, req.query.api_token);
    const id = parseOrderId(req.params.id);
    const kind = req.params.kind as ResultKind;
    if (!RESULT_KINDS.includes(kind)) throw new ApiError(`kind: '${kind}' is not a result kind (${RESULT_KINDS.join(', ')})`);
    const order = await getAccountOrder(deps.db, account.id, id);
    if (!order) throw new ApiError(`order_id: order ${id} not found`);
    if (!PRODUCTS[order.product as ProductKey].resultKinds.includes(kind)) {
      throw new ApiError(`kind: ${order.product} orders have no ${kind} file`);
    }
    const file = order.status === 'finished' ? await getOrderFile(deps.db, id, kind) : undefined;
    if (!file) throw new ApiError(`order ${id} has no ${kind} file yet (the order is ${order.status})`);
    const { format } = formatQuery.parse({ format: req.query.format });

    const etag = `"${file.blobKey.slice(0, 20)}-${format}"`;
    res.set('ETag', etag).set('Cache-Control', 'private, no-cache');
    if (req.headers['if-none-match'] === etag) return void res.status(304).end();

    let rendered;
    try {
      const transcript = importTranscript(await deps.files.get(file.blobKey), file.fileName);
      rendered = await renderTranscript(transcript, format, `Order ${id} ${kind}`);
    } catch (err) {
      if (err instanceof TranscriptImportError) throw new ApiError(`the ${kind} file of order ${id} cannot be read: ${err.message}`, 500);
      throw err;
    }
    res.set('Content-Type', rendered.contentType)
      .set('Content-Disposition', `attachment; filename="order-${id}-${kind}.${rendered.extension}"`)
      .send(rendered.body);
  });
  return router;
}
