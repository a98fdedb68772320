// An order's media and result files as the pages serve them: the account's order page (with its
// session) and a share link (with its token) send the same bytes, with the same refusals as pages.
import type { Request, Response } from 'express';
import type { WebDeps } from './context.js';
import type { OrderRow } from '../db/schema.js';
import { RequestError } from '../contracts/failures.js';
import { checkResultKind, sendResultFile } from '../http/resultFiles.js';
import { FetchError } from '../net/outbound.js';
import { MediaRefusedError } from '../orders/orderMedia.js';
import { servedWorkFile } from '../orders/tasks.js';
import { sendRange } from './customerFiles.js';
import { PageError } from './errors.js';

/** The order's media for its transcript's player: only as what its bytes are, by ranges. */
export async function sendOrderMedia(req: Request, res: Response, deps: WebDeps, order: OrderRow, cacheControl?: string): Promise<void> {
  let file: { key: string; type: string } | undefined;
  try {
    file = await servedWorkFile(deps, order, 'media'); // kept on its first play where nobody heard it yet
  } catch (err) {
    // The customer's server would not give its file whole now: an upstream failure, not the viewer's.
    if (err instanceof FetchError) throw new PageError(502, "The media cannot be read from the customer's server now; try again later.");
    if (!(err instanceof MediaRefusedError)) throw err;
  }
  if (!file) throw new PageError(404, 'This order has no media to play.');
  await sendRange(req, res, deps, file.key, file.type, cacheControl);
}

/** A result file of the order, in the format asked: the API's bytes (src/http/resultFiles.ts). */
export async function sendOrderResult(req: Request, res: Response, deps: WebDeps, order: OrderRow, kind: string): Promise<void> {
  try {
    await sendResultFile(deps, req, res, order, checkResultKind(kind), req.query.format);
  } catch (err) {
    // The API's message names the problem (no such kind, format, not finished yet; a rendering that
    // cannot be made, 422, which is not a missing page).
    if (err instanceof RequestError) throw new PageError([410, 422].includes(err.status) ? err.status : 404, `This file is not available: ${err.message}.`);
    throw err;
  }
}
