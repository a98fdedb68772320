// Operation 11: supported languages per product, from the product registry.
import type { Router } from 'express';
import { z } from 'zod';
import { LANGUAGE_LISTED_PRODUCTS, languagesByProduct } from '../../products/registry.js';
import { caseSensitiveRouter } from '../../http/router.js';

export const languagesQuery = z.object({
  product: z
    .enum(LANGUAGE_LISTED_PRODUCTS as [string, ...string[]], {
      error: (iss) => `must be one of ${LANGUAGE_LISTED_PRODUCTS.join(', ')}, got ${JSON.stringify(iss.input)}`,
    })
    .optional(),
});

export function languagesRouter(): Router {
  const router = caseSensitiveRouter();
  router.get('/api/v4/languages', (req, res) => {
    const { product } = languagesQuery.parse(req.query);
    res.set('Cache-Control', 'public, max-age=3600').json(languagesByProduct(product as never));
  });
  return router;
}
