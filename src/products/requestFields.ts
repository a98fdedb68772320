// What a creation body means to one product, before its schema reads it. Clients are as they are:
// HTML and PHP forms send unset fields empty, and one parameter set is often sent to several
// products. So a parameter sent empty ('' or JSON null) is absent, and its default applies; a v4
// parameter that belongs to other products only is ignored; a name no v4 operation knows stays,
// for the product's strict schema to refuse by name (typos stay caught).
import { z } from 'zod';
import type { ProductDefinition } from './types.js';

/** The parameter names a product's request schema declares. */
export function parameterNames(product: ProductDefinition): string[] {
  if (!(product.request instanceof z.ZodObject)) throw new Error(`${product.key}: the request schema must be a z.strictObject`);
  return Object.keys(product.request.shape);
}

const isEmpty = (value: unknown) => value === null || (typeof value === 'string' && value.trim() === '');

/**
 * `body` as `product` reads it (`mode` kept for the caller), and the names it ignored because they
 * are other products' parameters. `allParameters`: every product's parameter names.
 */
export function requestFields(
  product: ProductDefinition,
  allParameters: ReadonlySet<string>,
  body: Record<string, unknown>,
): { fields: Record<string, unknown>; ignored: string[] } {
  const own = new Set(parameterNames(product));
  const fields: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    if (isEmpty(value)) continue;
    if (name !== 'mode' && !own.has(name) && allParameters.has(name)) ignored.push(name);
    else fields[name] = value;
  }
  return { fields, ignored };
}
