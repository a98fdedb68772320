// 1.0.0 (issue 54): every order keeps its plan (what it delivers, who works it, what a rejection does).
// Orders placed before plans were kept (0.x, before migration 0012) get the plan their product gives
// their parameters, as their code worked it out then; `orders.plan` is then never empty.
import { isNull, eq, sql } from 'drizzle-orm';
import { orders } from '../schema.js';
import { fixedPlanOf, type OrderToPlace } from '../../contracts/orders.js';
import { productOf } from '../../products/registry.js';
import { orderPlan } from '../../products/shared.js';
import type { CodeMigration } from '../connection.js';

export const up: CodeMigration['up'] = async (tx) => {
  const rows = await tx.select({ id: orders.id, product: orders.product, params: orders.params }).from(orders).where(isNull(orders.plan));
  for (const row of rows) {
    const plan = fixedPlanOf(orderPlan(productOf(row.product), row.params) as OrderToPlace);
    await tx.update(orders).set({ plan }).where(eq(orders.id, row.id));
  }
  await tx.execute(sql`ALTER TABLE orders ALTER COLUMN plan SET NOT NULL`);
};
