// The OpenAPI 3.1 document of the v4 API, generated from the zod schemas the API validates with
// (z.toJSONSchema): the products' request schemas from the registry, the query schemas of the
// read routes, and the response and callback schemas of ./responses.ts. Never written by hand.
// GET /api/v4/openapi.json serves it; scripts/openapi.mjs writes it for the typed client.
import { z } from 'zod';
import { booleanParam, deleteAfterSecondsParam, httpUrl, modeParam, wholeSeconds } from '../../products/params.js';
import { MAX_DELETE_AFTER_SECONDS } from '../../contracts/deletion.js';
import { PRODUCT_LIST, V4_PARAMETERS, type ProductDefinition } from '../../products/registry.js';
import { parameterNames } from '../../products/requestFields.js';
import { RESULT_KIND_DEFINITIONS, RESULT_KINDS } from '../../domain/resultKinds.js';
import { FILE_TYPES } from '../../domain/formats.js';
import { LANGUAGE_SETS } from '../../domain/languages.js';
import { MAX_KEY_LENGTH } from '../idempotency.js';
import { getQuery, listQuery, orderIdParam } from '../routes/records.js';
import { languagesQuery } from '../routes/languages.js';
import { UPLOADS_PATH } from '../../net/uploadedFiles.js';
import { UPLOAD_ID } from '../../storage/uploads.js';
import {
  callbackBodies,
  creationResponse,
  errorResponse,
  languagesResponse,
  openApiDocumentResponse,
  orderListResponse,
  orderResponse,
  orderDeletedResponse,
  resultKindParam,
  schemaName,
  uploadResponse,
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
      } else if (ctx.zodSchema === deleteAfterSecondsParam) {
        delete js.anyOf;
        Object.assign(js, {
          type: 'integer',
          minimum: 0,
          maximum: MAX_DELETE_AFTER_SECONDS,
          description:
            "the order's data (its media, results, texts, URLs, comment and vocabulary) is deleted this many seconds after the order is finished, refunded or canceled; the record stays for the bill with deleted_at. Default: the account's rule (Settings: Delete orders' data after), else never",
        });
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
  OrderInWork: {
    status: 409,
    description: 'The order is still in work (the error names its status): its data can be deleted once it is finished, refunded or canceled.',
  },
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
    delete_after_seconds: deleteAfterSecondsParam.optional(),
    ...(product.request as z.ZodObject).shape,
    ...Object.fromEntries(others.map((name) => [name, ignoredParameter])),
  });
}

/** The parameters that name a file to work on (media or a document): every URL of the request but the callback's. */
const fileFields = (product: ProductDefinition) =>
  Object.entries((product.request as z.ZodObject).shape)
    .filter(([, schema]) => schema === httpUrl)
    .map(([name]) => name);

const FILE_FIELD_DESCRIPTION =
  `an http or https URL of the file, which the service fetches; or the \`url\` that \`POST ${UPLOADS_PATH}\` answered for a file ` +
  "of this account (an upload's URL), read from the service's own store. Either is measured by its bytes, never by its name or type; an " +
  "upload that is unknown, another account's, unfinished, expired or deleted is refused naming this field, before any charge";

/** A product's creation request as JSON Schema, its file fields saying that an upload's URL is taken. */
function creationRequestSchema(product: ProductDefinition): Json {
  const request = jsonSchema(creationRequest(product));
  const properties = request.properties as Record<string, Json>;
  for (const name of fileFields(product)) properties[name] = { ...properties[name], description: FILE_FIELD_DESCRIPTION };
  return request;
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

const TUS_PROTOCOL = 'https://tus.io/protocols/resumable-upload';

/** Both ways a v4 call carries the API token, as security schemes (the uploads take the header; the other calls take api_token). */
const SECURITY_SCHEMES = {
  bearerToken: { type: 'http', scheme: 'bearer', description: 'the account API token: `Authorization: Bearer <api_token>`' },
  apiTokenQuery: { type: 'apiKey', in: 'query', name: 'api_token', description: 'the account API token in the query: `?api_token=<api_token>`' },
};
const UPLOAD_SECURITY = [{ bearerToken: [] }, { apiTokenQuery: [] }];

const UPLOADS_TAG = {
  name: 'Uploads',
  description:
    `Files to order from. An upload's URL is what an order's \`url\` (and a document field such as \`transcription_url\`) takes, for the ` +
    'account that uploaded it only; the service reads it from its own store and measures it by its bytes. An upload no order uses is ' +
    "deleted UPLOAD_TTL_HOURS (48 by default) after its creation; one an order uses stays as that order's media. Authenticated by the API " +
    `token, as \`Authorization: Bearer <api_token>\` or \`?api_token=\`; another account's upload is unknown (404) for every method.\n\n` +
    `Two ways in: one request with the raw file as its body (\`POST ${UPLOADS_PATH}\` without \`Tus-Resumable\`), for small files and ` +
    `scripts; or [tus 1.0](${TUS_PROTOCOL}), resumable, with the creation, creation-with-upload, creation-defer-length, termination and ` +
    `expiration extensions: \`POST ${UPLOADS_PATH}\` with \`Tus-Resumable: 1.0.0\` and \`Upload-Length\` creates the upload, ` +
    `\`HEAD ${UPLOADS_PATH}/{id}\` says its \`Upload-Offset\`, \`PATCH ${UPLOADS_PATH}/{id}\` sends the bytes from there (8 MB at a time ` +
    `suits), \`DELETE ${UPLOADS_PATH}/{id}\` ends it, \`OPTIONS\` names the version, extensions and \`Tus-Max-Size\`. Any tus client ` +
    "(tus-js-client, Uppy, …) speaks it, and so do the upload() helpers of the TypeScript and Python clients. tus answers with tus's " +
    'statuses and headers and an empty or plain-text body; refusals of the token and of an unknown upload are the error object.',
  externalDocs: { description: 'The tus 1.0 protocol', url: TUS_PROTOCOL },
};

const tusHeader = (name: string, description: string, schema: Json, required = true): Json => ({ name, in: 'header', required, description, schema });
const TUS_RESUMABLE = tusHeader('Tus-Resumable', 'the tus version the client speaks', ref('TusResumable'));
const TUS_RESUMABLE_ANSWER = { description: 'the tus version the service speaks: 1.0.0', schema: { type: 'string' } };
const errorContent = { 'application/json': { schema: ref('Error') } };
/** A tus answer: its status and headers say it all; its body, where it has one, is tus's plain text. */
const tusAnswer = (description: string, headers: Record<string, string> = {}): Json => ({
  description,
  headers: {
    'Tus-Resumable': TUS_RESUMABLE_ANSWER,
    ...Object.fromEntries(Object.entries(headers).map(([name, text]) => [name, { description: text, schema: { type: 'string' } }])),
  },
});
const UNKNOWN_UPLOAD = {
  description: "No such upload: never made, another account's, or gone (deleted with its bytes: expired or terminated)",
  content: errorContent,
};
const TOKEN_REFUSED = { description: 'The API token is missing or invalid (the error object names api_token)', content: errorContent };
const uploadId = {
  name: 'id',
  in: 'path',
  required: true,
  description: "the upload's id, the last part of its URL",
  schema: jsonSchema(z.string().regex(UPLOAD_ID)),
};

/** OPTIONS: tus's discovery; no token needed. */
const tusOptions = (operationId: string, parameters: Json[] = []): Json => ({
  operationId,
  ...(parameters.length ? { parameters } : {}),
  summary: 'tus: the protocol versions, extensions and largest upload the service takes',
  description: `tus 1.0 discovery (${TUS_PROTOCOL}#options). No token needed; also the CORS preflight of browsers' tus clients.`,
  tags: ['Uploads'],
  responses: {
    204: tusAnswer('The capabilities', {
      'Tus-Version': 'the versions taken: 1.0.0',
      'Tus-Extension': 'creation,creation-with-upload,creation-defer-length,termination,expiration',
      'Tus-Max-Size': 'the largest upload taken, bytes (MEDIA_MAX_BYTES)',
    }),
  },
});

function uploadPaths(): Record<string, Json> {
  const binary = { schema: { type: 'string', format: 'binary' } };
  return {
    [UPLOADS_PATH]: {
      post: {
        operationId: 'uploadFile',
        summary: 'Upload a file to order with (one request, or the creation of a resumable tus upload)',
        description:
          "One request: the file's own bytes are the body, of any Content-Type (the service goes by the bytes, never by the type or a " +
          'name), without a `Tus-Resumable` header and without a Content-Encoding; the answer is 201 with the upload (`url`, `size`, ' +
          "`expires_at`) and `Location`. E.g. `curl --data-binary @talk.mp3 -H 'Authorization: Bearer <api_token>' " +
          `https://orders.example.com${UPLOADS_PATH}\`.\n\n` +
          `Resumable, for large files ([tus 1.0 creation](${TUS_PROTOCOL}#creation)): the same POST with \`Tus-Resumable: 1.0.0\` and ` +
          '`Upload-Length: <bytes>` (or `Upload-Defer-Length: 1`), optionally `Upload-Metadata` (`filename <base64>`), and no body (or its ' +
          'first bytes as `application/offset+octet-stream`) creates an upload: 201 with no body, its URL in `Location` (also its `url` to ' +
          `order with once complete) and \`Upload-Expires\`; then \`PATCH ${UPLOADS_PATH}/{id}\` sends the bytes. An \`Upload-Length\` over ` +
          '`Tus-Max-Size` is a 413 before a byte is stored.',
        tags: ['Uploads'],
        security: UPLOAD_SECURITY,
        requestBody: {
          // A tus creation has none; and openapi-python-client's code for two required bodies lacks an import (Unset).
          required: false,
          description: "The file's bytes, whatever its Content-Type (a tus creation: none, or the first bytes)",
          // */* last would make openapi-python-client's function send `Content-Type: */*`; first, its octet-stream wins.
          content: { '*/*': binary, 'application/octet-stream': binary },
        },
        responses: {
          201: {
            description: 'The upload, complete (one request); a tus creation answers 201 with no body and the headers only',
            headers: {
              Location: { description: "the upload's URL (the same as `url`)", schema: { type: 'string', format: 'uri' } },
              'Upload-Expires': { description: 'tus creation only: when an unused upload is deleted (an HTTP date)', schema: { type: 'string' } },
            },
            content: { 'application/json': { schema: ref('Upload') } },
          },
          400: {
            description: 'The API token is missing or invalid, or the body was cut off before its end (send it again)',
            content: errorContent,
          },
          413: { description: 'The file is larger than the largest upload taken (MEDIA_MAX_BYTES: `Tus-Max-Size`)', content: errorContent },
          415: { description: "A Content-Encoding (gzip, …): send the file's own bytes", content: errorContent },
          ...errorsFor(['TooManyRequests', 'InternalError']),
        },
      },
      options: tusOptions('getUploadCapabilities'),
    },
    [`${UPLOADS_PATH}/{id}`]: {
      head: {
        operationId: 'getUploadOffset',
        summary: 'tus: how much of an upload the service holds, to resume from there',
        description: `tus 1.0 HEAD (${TUS_PROTOCOL}#head): \`Upload-Offset\` is where the next PATCH starts.`,
        tags: ['Uploads'],
        security: UPLOAD_SECURITY,
        parameters: [uploadId, TUS_RESUMABLE],
        responses: {
          200: tusAnswer('The upload', {
            'Upload-Offset': 'bytes received',
            'Upload-Length': 'bytes in all (absent while deferred)',
            'Upload-Defer-Length': '1 while the length is not known yet',
            'Upload-Metadata': 'as the creation gave it',
            'Cache-Control': 'no-store',
          }),
          400: TOKEN_REFUSED,
          404: UNKNOWN_UPLOAD,
          410: tusAnswer('Expired: upload the file again'),
        },
      },
      patch: {
        operationId: 'continueUpload',
        summary: 'tus: send bytes of an upload from its offset',
        description:
          `tus 1.0 PATCH (${TUS_PROTOCOL}#patch): the bytes from \`Upload-Offset\` on, as \`application/offset+octet-stream\`. A dropped ` +
          'connection loses at most this request: HEAD says where to go on. The last byte completes the upload; its URL can then be ordered.',
        tags: ['Uploads'],
        security: UPLOAD_SECURITY,
        parameters: [
          uploadId,
          TUS_RESUMABLE,
          tusHeader('Upload-Offset', 'where these bytes start: the Upload-Offset HEAD gave', { type: 'integer', minimum: 0 }),
          tusHeader('Upload-Length', 'the length, once, for an upload created with Upload-Defer-Length', { type: 'integer', minimum: 0 }, false),
        ],
        requestBody: { required: true, content: { 'application/offset+octet-stream': binary } },
        responses: {
          204: tusAnswer('Taken', { 'Upload-Offset': 'bytes received now', 'Upload-Expires': 'when an unused upload is deleted' }),
          400: TOKEN_REFUSED,
          404: UNKNOWN_UPLOAD,
          409: tusAnswer("Upload-Offset is not the upload's offset: HEAD, then resume from there"),
          410: tusAnswer('Expired: upload the file again'),
          413: tusAnswer('More bytes than the Upload-Length, or than the largest upload taken'),
          415: tusAnswer('The Content-Type is not application/offset+octet-stream'),
        },
      },
      delete: {
        operationId: 'deleteUpload',
        summary: 'tus: end an upload (termination)',
        description: `tus 1.0 termination (${TUS_PROTOCOL}#termination): the upload and its bytes are deleted; orders already placed on it keep their media.`,
        tags: ['Uploads'],
        security: UPLOAD_SECURITY,
        parameters: [uploadId, TUS_RESUMABLE],
        responses: { 204: tusAnswer('Deleted'), 400: TOKEN_REFUSED, 404: UNKNOWN_UPLOAD },
      },
      options: tusOptions('getUploadCapabilitiesAt', [uploadId]),
    },
  };
}

function build(): Json {
  const schemas: Record<string, Json> = { Error: jsonSchema(errorResponse) };
  const paths: Record<string, Json> = {};
  for (const product of PRODUCT_LIST) {
    const name = schemaName(product);
    const request = creationRequestSchema(product);
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
  schemas.OrderDeleted = jsonSchema(orderDeletedResponse);
  schemas.Languages = jsonSchema(languagesResponse);
  schemas.Upload = jsonSchema(uploadResponse);
  // One component for the header every tus request carries: generators make one type of it, not one per operation.
  schemas.TusResumable = { type: 'string', enum: ['1.0.0'], description: 'the tus protocol version' };
  Object.assign(paths, uploadPaths());

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
    delete: {
      operationId: 'deleteOrderData',
      summary: "Delete a settled order's data; its record stays for the bill",
      description:
        "Deletes the order's media, drafts, work texts, result files and renderings, share link, URLs, file names, comment and vocabulary, and its workflow's history; the record stays (product, seconds or words, price, dates, status) with deleted_at, and its result URLs answer 410. An order still open (a quality check's window, a callback being retried) is closed first: no further callback is sent, and `note` says so. Deleting again answers the same. Only live orders (mode=live), once finished, refunded or canceled.",
      tags: ['Orders'],
      parameters: [orderIdParameter, ...queryParameters(getQuery, [tokenParameter])],
      responses: {
        200: { description: 'The record as it stays', content: { 'application/json': { schema: ref('OrderDeleted') } } },
        ...errorsFor([...GET_ERRORS, 'OrderInWork']),
      },
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
        `Generated from the zod schemas the service validates with. A local file is ordered by uploading it first (\`POST ${UPLOADS_PATH}\`) ` +
        "and giving the upload's URL as the order's `url`.",
    },
    tags: [{ name: 'Orders' }, UPLOADS_TAG, { name: 'Languages' }, { name: 'Meta' }],
    paths,
    components: { schemas, responses, securitySchemes: SECURITY_SCHEMES },
  };
}

let built: Json | undefined;

/** The document (built once per process). */
export function openApiDocument(): Json {
  built ??= build();
  return built;
}
