// The OpenAPI 3.1 document of the v4 API, generated from the zod schemas the API validates with
// (z.toJSONSchema): the products' request schemas from the registry, the query schemas of the
// read routes, and the response and callback schemas of ./responses.ts. Never written by hand.
// GET /api/v4/openapi.json serves it; scripts/openapi.mjs writes it for the typed client.
import { z } from 'zod';
import { booleanParam, httpUrl, modeParam, wholeSeconds } from '../../products/params.js';
import { PRODUCT_LIST, V4_PARAMETERS, type ProductDefinition } from '../../products/registry.js';
import { parameterNames } from '../../products/requestFields.js';
import { RESULT_KIND_DEFINITIONS, RESULT_KINDS } from '../../domain/resultKinds.js';
import { FILE_TYPES } from '../../domain/formats.js';
import { LANGUAGE_SETS } from '../../domain/languages.js';
import { MAX_KEY_LENGTH } from '../idempotency.js';
import { getQuery, listQuery, orderIdParam } from '../routes/records.js';
import { languagesQuery } from '../routes/languages.js';
import {
  callbackBodies,
  creationResponse,
  errorResponse,
  languagesResponse,
  openApiDocumentResponse,
  orderListResponse,
  orderResponse,
  resultKindParam,
  schemaName,
} from './responses.js';

type Json = Record<string, unknown>;

/** Where the examples' files live (each product's `example` names them); tests swap this origin for a loopback media server. */
export { EXAMPLE_MEDIA_ORIGIN } from '../../products/examples.js';
/** The token placeholder of the examples. */
export const EXAMPLE_API_TOKEN = 'YOUR_API_TOKEN';

/** Our zod schema → JSON Schema (2020-12, as OpenAPI 3.1 uses): what callers may send. */
function jsonSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override(ctx) {
      const js = ctx.jsonSchema as Json;
      const def = (ctx.zodSchema as unknown as { _zod: { def: { type: string; innerType?: unknown; defaultValue?: unknown } } })._zod.def;
      if (def.type === 'default' && def.innerType === booleanParam) {
        // A default over a transform is dropped by zod in input mode; the caller may omit it.
        delete js.anyOf;
        Object.assign(js, { type: 'boolean', default: def.defaultValue });
        return;
      }
      if (ctx.zodSchema === booleanParam) {
        // true/false; forms send "true"/"false" (also 1/0).
        delete js.anyOf;
        js.type = 'boolean';
      } else if (ctx.zodSchema === wholeSeconds) {
        delete js.anyOf;
        Object.assign(js, { type: 'integer', minimum: 0, maximum: 24 * 3600 * 30, description: 'whole seconds' });
      } else if (ctx.zodSchema === httpUrl) {
        Object.assign(js, { format: 'uri', pattern: '^\\s*[hH][tT][tT][pP][sS]?://[^/?#\\s]', description: 'an http or https URL' });
      }
    },
  }) as Json;
  delete out.$schema;
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

const ERROR_RESPONSES: Record<string, { status: number; description: string; retryAfter?: boolean }> = {
  BadRequest: {
    status: 400,
    description:
      "The caller's mistake: a missing or invalid parameter (named), an unknown parameter, an invalid token, a URL that cannot be read, an insufficient wallet.",
  },
  Conflict: { status: 409, description: 'A request with the same Idempotency-Key is still in progress; retry in a few seconds.' },
  PayloadTooLarge: { status: 413, description: 'The request body is too large or has too many parameters.' },
  UnsupportedMediaType: { status: 415, description: 'An unsupported charset or Content-Encoding of the body.' },
  TooManyRequests: {
    status: 429,
    description:
      "This API token's (or, for failed authentications, this address's) rate limit, or this account's media and document fetches at once (PROBES_PER_ACCOUNT): the caller's own excess; wait Retry-After seconds.",
    retryAfter: true,
  },
  InternalError: { status: 500, description: 'A fault of the service; try again later.' },
  Unavailable: {
    status: 503,
    description:
      "The service cannot take the request now: its own capacity is full (its document readers are all busy, or its workers could not take a live order within its payment window; Retry-After says when to try again), or an order's payment could not be confirmed in time (the order is named; nothing was charged). Retry; with the same Idempotency-Key a live order is placed once.",
    retryAfter: true,
  },
};

function errorsFor(names: string[]) {
  return Object.fromEntries(names.map((n) => [String(ERROR_RESPONSES[n]!.status), errorRef(n)]));
}

const apiToken = z.string().min(1).meta({ description: 'the account API token' });
const idempotencyKey = z
  .string()
  .min(1)
  .max(MAX_KEY_LENGTH)
  .meta({ description: 'retries with the same key get the first answer; a live order is placed once (also the Idempotency-Key header)' });

const ignoredParameter = z.unknown().optional().meta({ description: 'a parameter of another v4 operation: accepted and ignored here' });

/**
 * The body of a product's creation: the product's own parameters, plus mode, api_token and
 * idempotency_key; the other products' parameters, ignored (src/products/requestFields.ts).
 */
function creationRequest(product: ProductDefinition) {
  const own = parameterNames(product);
  const others = [...V4_PARAMETERS].filter((name) => !own.includes(name)).sort();
  return z.strictObject({
    mode: modeParam,
    api_token: apiToken,
    idempotency_key: idempotencyKey.optional(),
    ...(product.request as z.ZodObject).shape,
    ...Object.fromEntries(others.map((name) => [name, ignoredParameter])),
  });
}

/** Query parameters from a zod object schema. */
function queryParameters(schema: z.ZodObject, extra: Json[] = []): Json[] {
  const js = jsonSchema(schema) as { properties: Record<string, Json>; required?: string[] };
  return [
    ...extra,
    ...Object.entries(js.properties).map(([name, s]) => ({
      name,
      in: 'query',
      required: js.required?.includes(name) ?? false,
      schema: s,
    })),
  ];
}

const tokenParameter = { name: 'api_token', in: 'query', required: true, schema: jsonSchema(apiToken) };
/** The path parameters from the definitions the routes check them with (parseOrderId, checkResultKind). */
const orderIdParameter = { name: 'id', in: 'path', required: true, schema: jsonSchema(orderIdParam) };

const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    description: 'msg_<order id>_<event>_<12 hex>: the same for every attempt of one callback; drop duplicates by it',
    schema: z.string().regex(/^msg_\d+_[a-z_]+_[0-9a-f]{12}$/),
  },
  { name: 'webhook-timestamp', description: 'when this attempt was signed, seconds since the Unix epoch', schema: z.string().regex(/^\d+$/) },
  {
    name: 'webhook-signature',
    description: 'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> (two, space-separated, during a secret rotation)',
    schema: z.string(),
  },
].map((h) => ({ name: h.name, in: 'header', required: true, description: h.description, schema: jsonSchema(h.schema) }));

function creationOperation(product: ProductDefinition): Json {
  const name = schemaName(product);
  // The product's example request (mode=test), all valid values.
  const example = { mode: 'test', api_token: EXAMPLE_API_TOKEN, ...product.example };
  // Each encoding its own schema: a form's values are strings, and generators (openapi-python-client)
  // tell the encodings apart by the body's type.
  const media = (schema: string, value: Record<string, unknown>) => ({
    schema: ref(schema),
    examples: { quote: { summary: `A price quote (mode=test) for ${product.label}`, value } },
  });
  const formExample = Object.fromEntries(Object.entries(example).map(([k, v]) => [k, String(v)]));
  return {
    operationId: `create${name}`,
    summary: `Place or quote an order: ${product.label}`,
    description:
      'An optional parameter sent empty (an empty string in a form or multipart body, an empty string or null in JSON) is the ' +
      "same as leaving it out: its default applies, and an empty callback_url means the account's callback URL. A required parameter " +
      'sent empty is refused, naming it. Parameters of the other v4 creation operations are accepted and ignored; a name that no v4 ' +
      'operation knows is refused, naming it.',
    tags: ['Orders'],
    parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: jsonSchema(idempotencyKey) }],
    requestBody: {
      required: true,
      content: {
        'application/json': media(`${name}Request`, example),
        'application/x-www-form-urlencoded': media(`${name}Form`, formExample),
        'multipart/form-data': media(`${name}Multipart`, formExample),
      },
    },
    responses: {
      200: { description: 'mode=test: the price; mode=live: the order placed and paid', content: { 'application/json': { schema: ref(`${name}Created`) } } },
      ...errorsFor(['BadRequest', 'Conflict', 'PayloadTooLarge', 'UnsupportedMediaType', 'TooManyRequests', 'InternalError', 'Unavailable']),
    },
    callbacks: {
      orderSettled: {
        '{$request.body#/callback_url}': {
          post: {
            summary: `An order (${product.label}) settled (finished, refunded, canceled, or a quality fix)`,
            description:
              "Sent to the order's callback_url, else the account's callback URL; up to 10 attempts. Signed as Standard Webhooks (docs/callbacks.md).",
            parameters: WEBHOOK_HEADERS,
            requestBody: { required: true, content: { 'multipart/form-data': { schema: ref(`${name}Callback`) } } },
            responses: {
              200: { description: 'Received: answer the plain text ok', content: { 'text/plain': { schema: { type: 'string', const: 'ok' } } } },
              410: { description: 'Gone: no further attempts' },
            },
          },
        },
      },
    },
  };
}

const GET_ERRORS = ['BadRequest', 'TooManyRequests', 'InternalError'];
/** A result file is rendered by the service's document readers: busy, it is a 503. */
const FILE_ERRORS = [...GET_ERRORS, 'Unavailable'];

/** The media types of the result formats (src/domain/formats.ts). */
function fileContent(): Json {
  const types = [...new Set(Object.values(FILE_TYPES).map((t) => t.contentType.split(';')[0]!.trim()))];
  return Object.fromEntries(
    types.map((type) => [
      type,
      {
        schema: type === 'application/json' ? {} : { type: 'string', contentMediaType: type },
      },
    ]),
  );
}

/**
 * A creation request as form fields (urlencoded or multipart): every value a string, booleans as
 * "true"/"false" (1 and 0 are taken too) and whole numbers as digits.
 */
function formFields(request: Json): Json {
  const properties = request.properties as Record<string, Json>;
  const asText = (property: Json): Json => {
    const { type, default: fallback, minimum: _min, maximum: _max, ...rest } = property;
    if (type === 'boolean')
      return { ...rest, type: 'string', enum: ['true', 'false', '1', '0'], ...(fallback !== undefined ? { default: String(fallback) } : {}) };
    if (type === 'integer') return { ...rest, type: 'string', pattern: '^\\s*\\d+\\s*$', ...(fallback !== undefined ? { default: String(fallback) } : {}) };
    return property;
  };
  return { ...request, properties: Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, asText(property)])) };
}

/**
 * The creation schemas' enumerations, each written once as a component and referred to: a
 * language set's 147 names were written in every product's JSON, form and multipart schema, and a
 * generated client (clients/python) made a type of each copy. Named by the language set
 * (`LanguageSetHT`), as form booleans (`FormBoolean`), else by the parameter (`Timestamping`).
 */
function shareEnums(schemas: Record<string, Json>): void {
  const byValues = new Map<string, string>();
  const nameOf = (parameter: string, values: string[]) => {
    const set = Object.entries(LANGUAGE_SETS).find(([, names]) => names.length === values.length && names.every((n, i) => n === values[i]));
    if (set) return `LanguageSet${set[0]}`;
    if (values.join() === 'true,false,1,0') return 'FormBoolean';
    return parameter.replace(/(^|_)([a-z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase());
  };
  for (const schema of Object.values(schemas)) {
    const properties = schema.properties as Record<string, Json> | undefined;
    for (const [parameter, property] of Object.entries(properties ?? {})) {
      const values = property.enum as string[] | undefined;
      if (property.type !== 'string' || !values) continue;
      const key = JSON.stringify(values);
      let name = byValues.get(key);
      if (!name) {
        name = nameOf(parameter, values);
        // Another enumeration already took the name: this one stays where it is.
        if (schemas[name]) continue;
        schemas[name] = { type: 'string', enum: values };
        byValues.set(key, name);
      }
      const { type: _type, enum: _values, ...rest } = property;
      // A default beside a bare $ref is lost on generators (openapi-python-client): under allOf it is kept.
      properties![parameter] = 'default' in rest ? { allOf: [ref(name)], ...rest } : { ...ref(name), ...rest };
    }
  }
}

function build(): Json {
  const schemas: Record<string, Json> = { Error: jsonSchema(errorResponse) };
  const paths: Record<string, Json> = {};
  for (const product of PRODUCT_LIST) {
    const name = schemaName(product);
    const request = jsonSchema(creationRequest(product));
    schemas[`${name}Request`] = request;
    schemas[`${name}Form`] = formFields(request);
    schemas[`${name}Multipart`] = formFields(request);
    schemas[`${name}Created`] = jsonSchema(creationResponse(product));
    schemas[`${name}Callback`] = jsonSchema(callbackBodies(product));
    paths[`/api/v4/${product.path}`] = { post: creationOperation(product) };
  }
  shareEnums(schemas);
  schemas.OrderList = jsonSchema(orderListResponse);
  schemas.Order = jsonSchema(orderResponse);
  schemas.Languages = jsonSchema(languagesResponse);

  const allFormats = [...new Set(RESULT_KINDS.flatMap((k) => RESULT_KIND_DEFINITIONS[k].formats))];
  paths['/api/v4/orders'] = {
    get: {
      operationId: 'listOrders',
      summary: 'List orders, newest first (mode=test: sample orders)',
      tags: ['Orders'],
      parameters: queryParameters(listQuery, [tokenParameter]),
      responses: { 200: { description: 'A page of orders', content: { 'application/json': { schema: ref('OrderList') } } }, ...errorsFor(GET_ERRORS) },
    },
  };
  paths['/api/v4/orders/{id}'] = {
    get: {
      operationId: 'getOrder',
      summary: 'One order (mode=test: a sample order with this id)',
      tags: ['Orders'],
      parameters: [orderIdParameter, ...queryParameters(getQuery, [tokenParameter])],
      responses: { 200: { description: 'The order', content: { 'application/json': { schema: ref('Order') } } }, ...errorsFor(GET_ERRORS) },
    },
  };
  paths['/api/v4/orders/{id}/files/{kind}'] = {
    get: {
      operationId: 'getResultFile',
      summary: "A finished order's result file, rendered in a format",
      tags: ['Orders'],
      parameters: [
        orderIdParameter,
        { name: 'kind', in: 'path', required: true, schema: jsonSchema(resultKindParam) },
        { ...tokenParameter, required: false, description: 'the account API token; required but with mode=test' },
        {
          name: 'mode',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['test'] },
          description: "test: a sample order's file (ids of GET /api/v4/orders?mode=test), the sample transcript in the format asked for; no token needed",
        },
        {
          name: 'format',
          in: 'query',
          required: false,
          description: `Default: the kind's first format. Per kind: ${RESULT_KINDS.map((k) => `${k}: ${RESULT_KIND_DEFINITIONS[k].formats.join(', ')}`).join('; ')}. A translation's srt and vtt are for a translated subtitle file, whose default is its own format; a document's translation is docx, pdf or text.`,
          schema: jsonSchema(z.enum(allFormats as [string, ...string[]])),
        },
      ],
      responses: {
        200: { description: 'The file in the format asked for (Content-Disposition names it; ETag for If-None-Match)', content: fileContent() },
        304: { description: 'Not modified (If-None-Match matched the ETag)' },
        ...errorsFor(FILE_ERRORS),
      },
    },
  };
  paths['/api/v4/languages'] = {
    get: {
      operationId: 'listLanguages',
      summary: 'Supported languages per product',
      tags: ['Languages'],
      parameters: queryParameters(languagesQuery),
      responses: { 200: { description: 'Languages by product', content: { 'application/json': { schema: ref('Languages') } } }, ...errorsFor(GET_ERRORS) },
    },
  };
  paths['/api/v4/openapi.json'] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tags: ['Meta'],
      responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: jsonSchema(openApiDocumentResponse) } } } },
    },
  };

  const responses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([n, e]) => [
      n,
      {
        description: e.description,
        ...(e.retryAfter ? { headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer', minimum: 1 } } } } : {}),
        content: { 'application/json': { schema: ref('Error') } },
      },
    ]),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Order service API',
      version: '4',
      description:
        'Orders for transcription, translation and related products. Parameters go in the body of a POST ' +
        '(form, multipart or JSON) or the query of a GET; every answer is JSON, every failure the error object. ' +
        'Generated from the zod schemas the service validates with.',
    },
    tags: [{ name: 'Orders' }, { name: 'Languages' }, { name: 'Meta' }],
    paths,
    components: { schemas, responses },
  };
}

let built: Json | undefined;

/** The document (built once per process). */
export function openApiDocument(): Json {
  built ??= build();
  return built;
}
