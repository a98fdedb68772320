// Operations 9 and 10: list orders and get one, from the database (never from Temporal visibility).
import type { Router } from 'express';
import { z } from 'zod';
import type { ApiDeps } from '../context.js';
import { authenticate } from '../auth.js';
import { RequestError } from '../../contracts/failures.js';
import { modeParam } from '../../products/params.js';
import { getAccountOrder, listAccountOrders } from '../../db/orders.js';
import { orderRecord, type RecordSource } from '../../products/records.js';
import { resultFileUrl } from '../../orders/deliverCallback.js';
import { SAMPLE_ID_RANGE, SAMPLE_ORDERS, sampleOrderById } from '../../products/samples.js';
import { caseSensitiveRouter } from '../../http/router.js';
import { CLOSED_WORKFLOW_NOTE, deleteOrderData } from '../../orders/deleteOrder.js';

const DEFAULT_PAGE_SIZE = 20;

export const listQuery = z.object({
  mode: modeParam,
  cursor: z.string().optional(),
  // The default is in the schema, so the OpenAPI document shows it.
  per_page: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(DEFAULT_PAGE_SIZE),
});

export const getQuery = z.object({ mode: modeParam });

const encodeCursor = (beforeId: number) => Buffer.from(JSON.stringify({ before: beforeId })).toString('base64url');

function decodeCursor(cursor: string): number {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { before?: unknown };
    if (typeof value.before === 'number' && Number.isSafeInteger(value.before)) return value.before;
  } catch {
    /* reported below */
  }
  throw new RequestError('cursor: not a cursor from next_page_url');
}

/** An order id in a path (`/api/v4/orders/:id`, its files, /ops): what parseOrderId accepts and the OpenAPI document shows. */
export const ORDER_ID_PATTERN = /^\d{1,15}$/;
export const orderIdParam = z.string().regex(ORDER_ID_PATTERN).meta({ description: 'order id' });

export function parseOrderId(raw: string): number {
  if (!ORDER_ID_PATTERN.test(raw)) throw new RequestError(`order_id: '${raw}' is not an order id`);
  return Number(raw);
}

export function recordsRouter(deps: ApiDeps): Router {
  const router = caseSensitiveRouter();
  const toRecord = (order: RecordSource, token: string) => orderRecord(order, (kind) => resultFileUrl(deps.publicBaseUrl, order.id, kind, token));
  // A sample's result URLs download sample files (routes/files.ts): they carry mode=test.
  const toSampleRecord = (order: RecordSource, token: string) =>
    orderRecord(order, (kind) => `${resultFileUrl(deps.publicBaseUrl, order.id, kind, token)}&mode=test`);

  router.get('/api/v4/orders', async (req, res) => {
    const account = await authenticate(deps.db, deps.secretKey, req.query.api_token);
    const query = listQuery.parse(req.query);
    const token = req.query.api_token as string;
    if (query.mode === 'test') {
      return void res.json({ orders: SAMPLE_ORDERS.map((o) => toSampleRecord(o, token)), next_page_url: null });
    }
    const limit = query.per_page;
    const beforeId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = await listAccountOrders(deps.db, account.id, { beforeId, limit: limit + 1 });
    const page = rows.slice(0, limit);
    let nextPageUrl: string | null = null;
    if (rows.length > limit) {
      // Fetchable as given, as the result URLs are: it carries the caller's token and the mode.
      const next = new URLSearchParams({ api_token: token, mode: 'live', cursor: encodeCursor(page[page.length - 1]!.id) });
      // Only a per_page the caller sent is carried on (the default stays implicit).
      if (req.query.per_page !== undefined) next.set('per_page', String(query.per_page));
      nextPageUrl = `${deps.publicBaseUrl}/api/v4/orders?${next}`;
    }
    res.json({ orders: page.map((o) => toRecord(o, token)), next_page_url: nextPageUrl });
  });

  router.get('/api/v4/orders/:id', async (req, res) => {
    const account = await authenticate(deps.db, deps.secretKey, req.query.api_token);
    const query = getQuery.parse(req.query);
    const id = parseOrderId(req.params.id);
    const token = req.query.api_token as string;
    if (query.mode === 'test') {
      const sample = sampleOrderById(id);
      if (!sample) throw new RequestError(`order_id: ${id} is not a sample order (mode=test: the sample orders are ${SAMPLE_ID_RANGE})`);
      return void res.json({ data: toSampleRecord(sample, token) });
    }
    const order = await getAccountOrder(deps.db, account.id, id);
    if (!order) throw new RequestError(`order_id: order ${id} not found`);
    res.json({ data: toRecord(order, token) });
  });

  // An order's data deleted (issue 53): the record stays for the bill, with deleted_at.
  router.delete('/api/v4/orders/:id', async (req, res) => {
    const account = await authenticate(deps.db, deps.secretKey, req.query.api_token);
    const { mode } = getQuery.parse(req.query);
    if (mode === 'test') throw new RequestError('mode: sample orders have no data to delete; a live order is deleted with mode=live');
    const id = parseOrderId(String(req.params.id));
    const order = await getAccountOrder(deps.db, account.id, id);
    if (!order) throw new RequestError(`order_id: order ${id} not found`);
    const { order: deleted, closedWorkflow } = await deleteOrderData(deps, order, 'customer');
    res.json({
      data: toRecord(deleted, req.query.api_token as string),
      ...(closedWorkflow ? { note: CLOSED_WORKFLOW_NOTE } : {}),
    });
  });

  return router;
}
