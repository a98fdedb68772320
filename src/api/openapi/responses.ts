// zod schemas of what the v4 API answers and sends, for the OpenAPI document only (the API builds
// these answers in code; the schemas here describe them and are checked against the live service
// by test/integration/openapi.test.ts). Per-product shapes are derived from the product registry.
import { z } from 'zod';
import { ENUMS } from '../../domain/catalog.js';
import { RESULT_KINDS } from '../../domain/resultKinds.js';
import { PRODUCT_LIST, type ProductDefinition } from '../../products/registry.js';
import type { CallbackEvent, OrderStatus } from '../../contracts/orders.js';
import type { CreationField } from '../../products/types.js';

/** Every OrderStatus (the Record makes a new status a compile error here). */
const STATUS_SET: Record<OrderStatus, true> = {
  awaiting_payment: true,
  payment_failed: true,
  paid: true,
  finished: true,
  refunded: true,
  canceled: true,
  retranscribed: true,
};
const ORDER_STATUSES = Object.keys(STATUS_SET) as [OrderStatus, ...OrderStatus[]];

const money = z.number().meta({ description: 'US dollars' });
const utc = z.string().meta({ description: 'UTC time, YYYY-MM-DD HH:MM:SS' });

/** The error object of every failure (src/api/errors.ts `errorObject`). */
export const errorResponse = z.object({
  mode: z.string().meta({ description: "the request's mode, or '' when it has none" }),
  status: z.literal('error'),
  error: z.string().meta({ description: 'what was wrong, naming the field' }),
});

const creationFieldSchemas: Record<CreationField, z.ZodType> = {
  seconds: z.int().min(0).meta({ description: 'media duration priced, whole seconds' }),
  words: z.int().min(0).meta({ description: 'words priced' }),
  ai_transcripts_minutes_left: z.int().min(0).meta({ description: 'AI transcription subscription minutes left' }),
};

/** The success answer of a creation (src/api/routes/create.ts `creationAnswer`), per product. */
export function creationResponse(product: ProductDefinition) {
  const fields = Object.fromEntries(product.creationFields.map((name) => [name, creationFieldSchemas[name]]));
  return z.object({
    mode: z.enum(ENUMS.mode),
    status: z.literal('success'),
    order_id: z.int().optional().meta({ description: 'live orders only' }),
    ...fields,
    order_total: money,
    in_wallet: money,
    delivery_estimate: utc,
  });
}

export const schemaName = (product: ProductDefinition) =>
  product.key
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** An order record (src/products/records.ts `orderRecord`): common fields, then the product's own. */
export const orderRecord = z
  .looseObject({
    id: z.int(),
    type: z.enum([...new Set(PRODUCT_LIST.map((p) => p.recordType))] as [string, ...string[]]),
    status: z.enum(ORDER_STATUSES),
    price: money,
    paid_at: utc.nullable(),
    delivery_estimate: utc.nullable(),
    finished_at: utc.nullable(),
    comment: z.string(),
    seconds: z.int(),
    words: z.int(),
    vocabulary: z
      .array(z.string())
      .optional()
      .meta({ description: 'present only when the order named terms (its vocabulary): the terms as kept, each trimmed, repeats left out' }),
    delete_after_seconds: z
      .int()
      .optional()
      .meta({ description: "present only when the order's data is to be deleted after it settles: how many seconds after" }),
    delete_at: utc.nullable().optional().meta({ description: 'with delete_after_seconds: when its data is deleted (null until the order settles)' }),
    deleted_at: utc.optional().meta({ description: "present once the order's data was deleted: its result URLs are null, its comment empty" }),
    media_note: z.string().optional().meta({
      description:
        'present only when the media fetched for the work was longer than the seconds paid for (it changed after the order was placed, or its header understated it): only the paid part is worked, and this says so',
    }),
  })
  .meta({ description: "Fields beyond these are the product's (its parameters and result URLs, null until finished)." });

export const orderListResponse = z.object({
  orders: z.array(orderRecord),
  next_page_url: z
    .string()
    .nullable()
    .meta({ description: 'the next page, fetchable as given (it carries api_token and mode, as result URLs do); null on the last page' }),
});

export const orderResponse = z.object({ data: orderRecord });

export const orderDeletedResponse = z.object({
  data: orderRecord,
  note: z.string().optional().meta({ description: 'present when the order was still open and was closed: no further callback is sent' }),
});

export const languagesResponse = z
  .record(z.string(), z.array(z.object({ slug: z.string(), name: z.string() })))
  .meta({ description: 'languages by product key' });

/** The one-shot upload's answer (src/api/routes/uploads.ts): what to order with. */
export const uploadResponse = z.object({
  url: z.string().meta({
    description: "the upload's URL: an order's url (or a document field such as transcription_url) takes it, for this account only",
  }),
  size: z.int().min(0).meta({ description: 'bytes received' }),
  expires_at: z.string().meta({ description: 'when the upload is deleted unless an order uses it: ISO 8601, UTC (e.g. 2026-11-30T18:41:25.812Z)' }),
});

export const openApiDocumentResponse = z.record(z.string(), z.unknown()).meta({ description: 'this document' });

/** The `kind` path parameter of result files: the kinds the route accepts (checkResultKind, src/api/routes/files.ts). */
export const resultKindParam = z.enum(RESULT_KINDS);

const CALLBACK_EVENTS: readonly CallbackEvent[] = ['finished', 'refunded', 'canceled', 'quality_fix'];

/**
 * The multipart fields of a product's callbacks, per event, read from its `callbackFields` with a
 * sample order: the field names are the product's, the values here only tell constants apart.
 */
export function callbackBodies(product: ProductDefinition): z.ZodType {
  const variants = CALLBACK_EVENTS.map((event) => {
    const sample = (id: number) =>
      product.callbackFields({
        event,
        order: { id, status: event, retranscribedOrderId: null },
        params: { language: 'en', translate_from: 'en', translate_to: 'fr', captions: false, auto_retranscribe: false },
        url: (kind) => `https://example.com/${id}/${kind}`,
      });
    const [a, b] = [sample(1), sample(2)];
    const shape = Object.fromEntries(Object.keys(a).map((name) => [name, a[name] === b[name] && name !== 'language' ? z.literal(a[name]!) : z.string()]));
    // callbackFields (src/products/records.ts) adds it to an engine order handed to people.
    const handedOver =
      product.fulfilment === 'engine'
        ? { delivery_estimate: utc.optional().meta({ description: 'only on an AI order handed to a person: its new delivery estimate' }) }
        : {};
    return { event, schema: z.object({ ...shape, ...handedOver }) };
  });
  // Events with the same fields share one variant.
  const distinct = new Map<string, { events: CallbackEvent[]; schema: z.ZodObject }>();
  for (const v of variants) {
    const key = JSON.stringify(z.toJSONSchema(v.schema));
    const seen = distinct.get(key);
    if (seen) seen.events.push(v.event);
    else distinct.set(key, { events: [v.event], schema: v.schema });
  }
  const described = [...distinct.values()].map((d) => d.schema.meta({ description: `sent on: ${d.events.join(', ')}` }));
  return described.length === 1 ? described[0]! : z.union(described as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
}
