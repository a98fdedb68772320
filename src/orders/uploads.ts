// The end of an upload (issue 52): expired (UPLOAD_TTL_HOURS after its creation, by a durable timer:
// src/workflows/uploadExpiry.ts) or terminated by its owner (tus DELETE). An upload no order uses goes
// with its bytes; one that live orders were placed on is first kept as each order's media (a link to
// the same file, orderMedia.ts), so no order loses its media and no byte is stored twice.
import { rm } from 'node:fs/promises';
import { getOrder } from '../db/orders.js';
import { endUpload, ordersOnUpload } from '../db/uploads.js';
import type { UploadedFiles } from '../net/uploadedFiles.js';
import { FetchError } from '../net/outbound.js';
import { log } from '../log.js';
import { MediaRefusedError, orderMedia, type OrderMediaDeps } from './orderMedia.js';

export type UploadEndDeps = OrderMediaDeps & { uploads: UploadedFiles };

/** Keeps the media of every order placed on upload `id` that has not kept it yet. */
export async function keepMediaOfUploadOrders(deps: UploadEndDeps, id: string, orderIds?: number[]): Promise<void> {
  for (const orderId of orderIds ?? (await ordersOnUpload(deps.db, id))) {
    const order = await getOrder(deps.db, orderId);
    // An order that was never charged has no media to keep.
    if (!order || order.inputFiles.media || !order.paidAt) continue;
    await orderMedia(deps, order).catch((err: unknown) => {
      // Not media by its bytes: there is nothing to keep, whoever asks again.
      if (err instanceof MediaRefusedError || err instanceof FetchError)
        return log("an upload's order kept no media", { orderId, upload: id, error: String(err) });
      throw err;
    });
  }
}

/** Expires upload `id`: ended, its orders' media kept, its file removed. Run again, it finishes what it began. */
export async function expireUpload(deps: UploadEndDeps, id: string): Promise<void> {
  const orderIds = await endUpload(deps.db, id, 'expired');
  await keepMediaOfUploadOrders(deps, id, orderIds);
  await rm(deps.uploads.pathOf(id), { force: true });
  log('upload expired', { upload: id, orders: orderIds.length });
}
