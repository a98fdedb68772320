// Handing an order on, the use case: a proofreading order whose supplied transcript fails the check
// is refunded and replaced, charged at the other product's price, by the order its product's
// `handOff` names (docs/decisions/proofreading-check-and-hand-off.md). The `retranscribe` activity is its adapter. And an engine
// order that no engine can do, handed to people: the turnaround their work takes.
import type { Db } from '../db/connection.js';
import { getOrder } from '../db/orders.js';
import { closeOpenTasks } from '../db/tasks.js';
import { nextOrderId, retranscribe } from '../db/wallet.js';
import { OrderStateError } from '../contracts/failures.js';
import type { OrderToPlace, PeopleWork } from '../contracts/orders.js';
import { PRODUCTS, productOf, type OrderParams, type PriceTable, type ProductDefinition } from '../products/registry.js';
import { orderPlan } from '../products/shared.js';
import { translationTurnaroundHours } from '../products/translation/index.js';
import { TURNAROUND_HOURS } from '../domain/turnaround.js';

export interface HandedOn {
  parent: { id: number; accountId: number; product: string };
  target: ProductDefinition;
  /** The replacing order, or null when the wallet could not pay for it (the parent is refunded all the same). */
  child: OrderToPlace<OrderParams> | null;
}

/** Refunds the order and places the one that replaces it, in one transaction; repeatable. */
export async function handOrderOn(db: Db, priceTable: PriceTable, orderId: number): Promise<HandedOn> {
  const parent = await getOrder(db, orderId);
  if (!parent) throw new OrderStateError(`order ${orderId} not found`);
  const handOff = productOf(parent.product).handOff;
  if (!handOff) throw new OrderStateError(`order ${parent.id}: ${parent.product} hands off to no product`);
  const target = PRODUCTS[handOff.to];
  const params = target.request.parse(handOff.params(parent.params));
  const child: OrderToPlace<OrderParams> = {
    // A repeat (the activity retried) finds the id the first round reserved.
    id: parent.retranscribedOrderId ?? (await nextOrderId(db)),
    accountId: parent.accountId,
    priceCents: target.price(priceTable[target.key], params, { seconds: parent.seconds, words: 0 }),
    seconds: parent.seconds,
    words: 0,
    params: { ...params, retranscription_of: parent.id },
    callbackUrl: parent.callbackUrl,
    ...orderPlan(target, params),
    ...(parent.deleteAfterSeconds !== null ? { deleteAfterSeconds: parent.deleteAfterSeconds } : {}),
  };
  const { childOrderId } = await retranscribe(db, parent.id, child, handOff.refundNote);
  await closeOpenTasks(db, parent.id);
  return { parent, target, child: childOrderId === null ? null : { ...child, id: childOrderId, parentOrderId: parent.id } };
}

/**
 * Hours the people's work takes, from which a handed-over order's new delivery estimate counts:
 * human transcription's standard turnaround (5 days, open to every language), or a translation's
 * without the additional review. A machine's hour would report the order late from the first hour.
 */
export function peopleTurnaroundHours(work: PeopleWork): number {
  return work === 'translator' ? translationTurnaroundHours(false) : TURNAROUND_HOURS['5_days'];
}
