// Request validation built from the product catalog (the one source of truth).
import { z } from 'zod';
import { ENUMS, PRODUCTS, languageSet, type ParamSpec, type ProductKey } from '../domain/catalog.js';

const required = (what: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'is required' : `must be ${what}`);

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

export const booleanParam = z.union([z.boolean(), z.string(), z.number()], { error: 'must be true, false, 1 or 0' })
  .transform((value, ctx) => {
    const result = BOOLEAN_WORDS[String(value).toLowerCase()];
    if (result === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be true, false, 1 or 0, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return result;
  });

export const httpUrl = z.string({ error: required('an http or https URL') }).trim().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}, { error: (iss) => `must be an http or https URL, got ${JSON.stringify(iss.input)}` });

const wholeSeconds = z.union([z.number(), z.string().trim().regex(/^\d+$/, 'must be a whole number of seconds')], { error: 'must be a whole number of seconds' })
  .transform(Number)
  .pipe(z.number().int('must be a whole number of seconds').nonnegative('must not be negative').max(24 * 3600 * 30, 'is too large'));

function paramSchema(spec: ParamSpec, productLabel: string): z.ZodType {
  switch (spec.kind) {
    case 'url':
      return spec.required ? httpUrl : httpUrl.optional();
    case 'language': {
      const set = languageSet(spec.set);
      return z.string({ error: required('a language slug') }).trim().toLowerCase().superRefine((value, ctx) => {
        if (!set.has(value)) ctx.addIssue({ code: 'custom', message: `'${value}' is not supported for ${productLabel} (GET /api/v4/languages lists the supported values)` });
      });
    }
    case 'enum': {
      const values = ENUMS[spec.values];
      return z.enum(values as unknown as [string, ...string[]], { error: (iss) => `must be one of ${values.join(', ')}, got ${JSON.stringify(iss.input)}` })
        .default(spec.default);
    }
    case 'text':
      return z.string({ error: 'must be text' }).max(10_000, 'is longer than 10000 characters').optional();
    case 'seconds':
      return wholeSeconds.optional();
    case 'boolean':
      return booleanParam.default(spec.default);
  }
}

export const modeParam = z.enum(ENUMS.mode, { error: (iss) => (iss.input === undefined ? 'is required (test or live)' : `must be test or live, got ${JSON.stringify(iss.input)}`) });

/** The creation request of `product`: mode, the product's parameters and nothing else. */
export function orderRequestSchema(product: ProductKey) {
  const def = PRODUCTS[product];
  const shape: Record<string, z.ZodType> = { mode: modeParam };
  for (const [name, spec] of Object.entries(def.params)) shape[name] = paramSchema(spec, def.label);
  return z.strictObject(shape);
}
