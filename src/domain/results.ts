// Which result files an order takes: shared by the workflow's update validators and the
// operator endpoints (which check before reading the files' contents).
import { PRODUCTS, type ProductKey } from './catalog.js';

/**
 * Why `kinds` cannot be submitted for a `product` order, or undefined when they can.
 * `completing`: the submission finishes the order, so the product's main result must be there.
 */
export function resultKindsProblem(product: string, kinds: readonly string[], completing: boolean): string | undefined {
  const allowed = PRODUCTS[product as ProductKey].resultKinds as readonly string[];
  if (kinds.length === 0) return 'at least one result file is needed';
  const stranger = kinds.find((k) => !allowed.includes(k));
  if (stranger) return `${stranger} is not a result of ${product} orders (expected ${allowed.join(', ')})`;
  if (completing && !kinds.includes(allowed[0]!)) return `a ${allowed[0]} file is needed`;
  return undefined;
}
