// Activities that change orders and money. Typed failures become non-retryable ApplicationFailures.
import { ApplicationFailure, log } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';
import { chargeWalletForOrder, InsufficientFundsError, OrderStateError, refundOrder as refundInDb } from '../db/wallet.js';
import { applyQualityFix as applyFixInDb, finishOrder as finishInDb, setQualityCheck } from '../db/orders.js';
import { FAILURE_TYPES, type OrderToPlace, type PlacedOrder, type ResultFile } from '../workflows/messages.js';

async function typed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof InsufficientFundsError) throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPES.insufficientFunds);
    if (err instanceof OrderStateError) throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPES.orderState);
    throw err;
  }
}

export function createOrderActivities({ db, files }: ActivityDeps) {
  async function requireStoredFiles(list: ResultFile[]): Promise<void> {
    for (const f of list) {
      if (!(await files.has(f.blobKey))) throw new OrderStateError(`the ${f.kind} file ${f.blobKey} is not in the file store`);
    }
  }

  return {
    /** Creates the order as paid and charges the wallet in one transaction. */
    async placeOrder(order: OrderToPlace): Promise<PlacedOrder> {
      const paid = await typed(() => chargeWalletForOrder(db, order));
      log.info('order paid', { orderId: order.id, accountId: order.accountId, priceCents: order.priceCents });
      return {
        orderId: paid.order.id,
        balanceCents: paid.balanceCents,
        paidAt: paid.order.paidAt!.toISOString(),
        deliveryEstimate: paid.order.deliveryEstimate!.toISOString(),
      };
    },

    async finishOrder(input: { orderId: number; files: ResultFile[]; qualityCheck: boolean }): Promise<void> {
      await typed(async () => {
        await requireStoredFiles(input.files);
        await finishInDb(db, input.orderId, input.files, input.qualityCheck ? 'pending' : null);
      });
      log.info('order finished', { orderId: input.orderId, qualityCheck: input.qualityCheck });
    },

    async refundOrder(input: { orderId: number; status: 'refunded' | 'canceled'; reason: string | null }): Promise<{ balanceCents: number }> {
      const refunded = await typed(() => refundInDb(db, input.orderId, input.status, input.reason));
      log.info(`order ${input.status}`, { orderId: input.orderId, reason: input.reason });
      return refunded;
    },

    async applyQualityFix(input: { orderId: number; files: ResultFile[] }): Promise<void> {
      await typed(async () => {
        await requireStoredFiles(input.files);
        await applyFixInDb(db, input.orderId, input.files);
      });
      log.info('quality check fixed result files', { orderId: input.orderId, kinds: input.files.map((f) => f.kind) });
    },

    async closeQualityCheck(input: { orderId: number; result: 'passed' }): Promise<void> {
      await setQualityCheck(db, input.orderId, input.result);
    },
  };
}
