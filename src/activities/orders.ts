// Activities that change orders and money. Typed failures become non-retryable ApplicationFailures.
import { ApplicationFailure, log } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';
import { chargeWalletForOrder, refundOrder as refundInDb } from '../db/wallet.js';
import { applyQualityFix as applyFixInDb, finishOrder as finishInDb, getOrder, markOrderLate as markLateInDb, setQualityCheck } from '../db/orders.js';
import { FAILURE_TYPES, InsufficientFundsError, OrderStateError } from '../contracts/failures.js';
import type { OrderParams } from '../products/registry.js';
import type { OrderToPlace, PlacedOrder, ResultFile } from '../contracts/orders.js';
import { handOrderOn } from '../orders/handOff.js';
import { crashPoint } from '../runtime/crashPoints.js';
import { closeOpenTasks } from '../db/tasks.js';
import { countSettled, ordersLate, walletChargeFailures } from '../metrics.js';
import { scheduleOrderDeletion } from './deletion.js';

async function typed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof InsufficientFundsError) {
      walletChargeFailures.inc({ reason: 'insufficient_funds' });
      throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPES.insufficientFunds);
    }
    if (err instanceof OrderStateError) throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPES.orderState);
    throw err;
  }
}

export function createOrderActivities({ db, files, priceTable }: ActivityDeps) {
  async function requireStoredFiles(list: ResultFile[]): Promise<void> {
    for (const f of list) {
      if (!(await files.has(f.blobKey))) throw new OrderStateError(`the ${f.kind} file ${f.blobKey} is not in the file store`);
    }
  }

  return {
    /** Creates the order as paid and charges the wallet in one transaction (idempotent). */
    async chargeWallet(order: OrderToPlace<OrderParams>): Promise<PlacedOrder> {
      const paid = await typed(() => chargeWalletForOrder(db, order, () => crashPoint('before-charge-commit')));
      crashPoint('after-charge-commit');
      log.info('order paid', { orderId: order.id, accountId: order.accountId, priceCents: paid.chargedCents });
      return {
        orderId: paid.orderId,
        chargedCents: paid.chargedCents,
        balanceCents: paid.balanceCents,
        aiMinutesLeft: paid.aiMinutesLeft,
        paidAt: paid.paidAt.toISOString(),
        deliveryEstimate: paid.deliveryEstimate.toISOString(),
      };
    },

    async finishOrder(input: { orderId: number; files: ResultFile[]; qualityCheck: boolean }): Promise<void> {
      const order = await typed(async () => {
        await requireStoredFiles(input.files);
        return finishInDb(db, input.orderId, input.files, input.qualityCheck ? 'pending' : null);
      });
      await closeOpenTasks(db, input.orderId);
      await scheduleOrderDeletion(order);
      countSettled('finished', order.product);
      log.info('order finished', { orderId: input.orderId, accountId: order.accountId, qualityCheck: input.qualityCheck });
    },

    async refundOrder(input: { orderId: number; status: 'refunded' | 'canceled'; reason: string | null }): Promise<{ balanceCents: number }> {
      const refunded = await typed(() => refundInDb(db, input.orderId, input.status, input.reason));
      await closeOpenTasks(db, input.orderId);
      crashPoint('after-refund-commit');
      const order = await getOrder(db, input.orderId);
      if (order) {
        await scheduleOrderDeletion(order);
        countSettled(input.status, order.product);
      }
      log.info(`order ${input.status}`, { orderId: input.orderId, accountId: order?.accountId, reason: input.reason });
      return refunded;
    },

    /**
     * The hand-off its product declares (proofreading → human transcription): refunds the order
     * and creates, charged at the other product's price, the order that replaces it. Returns that
     * order for its own workflow, or null when the wallet could not pay for it.
     */
    async retranscribe(input: { orderId: number }): Promise<OrderToPlace | null> {
      const { parent, target, child } = await typed(() => handOrderOn(db, priceTable, input.orderId));
      const settled = await getOrder(db, parent.id);
      if (settled) await scheduleOrderDeletion(settled);
      log.info(
        child ? `order handed on: replaced by a ${target.label} order` : `order refunded: the wallet cannot pay for the ${target.label} that would replace it`,
        { orderId: parent.id, accountId: parent.accountId, product: parent.product, childOrderId: child?.id ?? null },
      );
      return child;
    },

    async applyQualityFix(input: { orderId: number; files: ResultFile[] }): Promise<void> {
      await typed(async () => {
        await requireStoredFiles(input.files);
        await applyFixInDb(db, input.orderId, input.files);
      });
      await closeOpenTasks(db, input.orderId);
      log.info('quality check fixed result files', { orderId: input.orderId, kinds: input.files.map((f) => f.kind) });
    },

    async closeQualityCheck(input: { orderId: number; result: 'passed' }): Promise<void> {
      await setQualityCheck(db, input.orderId, input.result);
      await closeOpenTasks(db, input.orderId);
    },

    /** The order is still open at its delivery estimate: `late_at` set once (order-ops pending lists it first). */
    async markOrderLate(input: { orderId: number }): Promise<{ marked: boolean }> {
      const marked = await markLateInDb(db, input.orderId);
      if (marked) {
        ordersLate.inc({ product: marked.product });
        log.warn('order is late', { orderId: input.orderId, accountId: marked.accountId, deliveryEstimate: marked.deliveryEstimate?.toISOString() });
      }
      return { marked: marked !== undefined };
    },
  };
}
