// A timer at the delivery estimate, beside the order's life, never blocking it.
import * as wf from '@temporalio/workflow';
import { SEARCH_ATTRIBUTES } from '../../contracts/orders.js';
import { orderRecords } from '../activities.js';
import type { OrderRun } from './state.js';

/**
 * Settled before the delivery estimate, the timer is cancelled (wf.condition's own scope) and
 * nothing happens; still paid when it fires, the order is marked late once: search attribute
 * OrderLate, a warning, and `late_at` in the database. An estimate moved (an engine order handed
 * to people) starts the wait again, and an order marked late by the machine's estimate is no longer
 * (its `late_at` is cleared with the move).
 */
export async function watchDeliveryEstimate(run: OrderRun): Promise<void> {
  for (;;) {
    const estimate = run.deliveryEstimate;
    const moved = () => run.deliveryEstimate !== estimate;
    await wf.condition(() => !run.is('paid') || moved(), Math.max(1, Date.parse(estimate) - Date.now()));
    if (!run.is('paid')) return;
    if (moved()) continue;
    wf.upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.late, value: true }]);
    wf.log.warn('order is late: still open at its delivery estimate', { orderId: run.order.id, deliveryEstimate: estimate });
    await orderRecords.markOrderLate({ orderId: run.order.id });
    await wf.condition(() => !run.is('paid') || moved());
    if (!run.is('paid')) return;
    wf.upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.late, value: false }]);
  }
}
