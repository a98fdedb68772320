// Ordering from the account area (issue 52): the new-order page, its uploads and its two JSON
// endpoints. The page's options are read off each product's request schema (z.toJSONSchema), so a
// product added to the registry gets its form; its script (src/web/client/newOrder.ts) uploads each
// file by tus to /account/uploads (the signed-in account's, with the session's CSRF token on every
// request), asks /account/orders/new/quote for its price (the use case in mode test on the upload's
// URL) and places it by /account/orders/new/place (mode live), once per idempotency key.
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import type { WebDeps } from '../context.js';
import type { AccountRow } from '../../db/schema.js';
import { RequestError, PaymentExpiredError, PaymentUnconfirmedError } from '../../contracts/failures.js';
import { LANGUAGE_SETS, languageName } from '../../domain/languages.js';
import { PRODUCT_LIST, V4_PARAMETERS, isProductKey, type ProductDefinition } from '../../products/registry.js';
import { callbackUrlParam, httpUrl } from '../../products/params.js';
import { requestFields } from '../../products/requestFields.js';
import { chargedAnswer, createPlacement } from '../../orders/place.js';
import { UPLOAD_ID } from '../../storage/uploads.js';
import { answerOnce, requestFingerprint, type KeyedAnswer } from '../../http/idempotency.js';
import { clientError } from '../../http/refusals.js';
import { uploadReceiver } from '../../http/uploads.js';
import { caseSensitiveRouter } from '../../http/router.js';
import { sendPage } from '../errors.js';
import { html, type Html } from '../html.js';
import { alert, layout } from '../layout.js';
import { productName } from '../orderView.js';
import { inWords, valueInWords, wordsOf } from '../parameterWords.js';
import { sameToken, signedIn } from '../session.js';

/** Where the account area receives uploads (tus 1.0): an upload's Location is `<this>/<id>`. */
export const ACCOUNT_UPLOADS_PATH = '/account/uploads';

/** Answers are kept this long for retries with the same key, as the API's. */
const KEY_TTL_MS = 24 * 3_600_000;

/** A form's label where it differs from the order page's description of the placed order (parameterWords.ts). */
const FORM_LABELS: Readonly<Record<string, { label: string; hint?: string }>> = {
  url: { label: 'File' },
  audio_url: { label: 'Audio or video' },
  transcription_url: { label: 'Transcript', hint: 'the transcript to check or to time: txt, docx, doc, rtf, pdf or HTML' },
  translate_from: { label: 'Language', hint: 'the language of the file' },
  translate_to: { label: 'Translate into' },
  from: { label: 'Start at (seconds)', hint: 'empty: from the beginning' },
  till: { label: 'End at (seconds)', hint: 'empty: to the end' },
  strict: { label: 'Refuse the order if this turnaround is not offered for the language', hint: 'otherwise the nearest turnaround offered is given' },
  additional_review: { label: 'Second review by an expert' },
  auto_retranscribe: { label: 'Transcribe anew if the supplied transcript is too poor' },
  vocabulary: { label: 'Vocabulary', hint: 'names, places and product words of the file, separated by commas' },
  comment: { label: 'Comment', hint: 'anything the people working on the order should know' },
};

const labelOf = (name: string) => FORM_LABELS[name]?.label ?? wordsOf(name)?.label ?? inWords(name);

type OptionKind = 'select' | 'checkbox' | 'number' | 'text' | 'textarea';

interface OptionField {
  name: string;
  kind: OptionKind;
  /** [value, words] of a select, in the schema's order. */
  choices?: Array<[string, string]>;
  chosen?: string;
}

/** A property of z.toJSONSchema's output, as far as the form reads it. */
interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  anyOf?: PropertySchema[];
  maxLength?: number;
}

const LANGUAGE_SLUGS: ReadonlySet<string> = new Set(Object.values(LANGUAGE_SETS).flat());

function optionOf(name: string, schema: PropertySchema): OptionField {
  const types = [schema.type, ...(schema.anyOf ?? []).map((s) => s.type)].flat();
  if (schema.enum?.every((v) => typeof v === 'string')) {
    const values = schema.enum as string[];
    const isLanguage = values.every((v) => LANGUAGE_SLUGS.has(v));
    const choices = values.map((v): [string, string] => [v, isLanguage ? languageName(v) : valueInWords(v)]);
    const chosen = typeof schema.default === 'string' ? schema.default : isLanguage && values.includes('english') ? 'english' : values[0];
    return { name, kind: 'select', choices, chosen };
  }
  if (types.includes('boolean')) return { name, kind: 'checkbox', chosen: schema.default === true ? 'true' : undefined };
  if (types.includes('number')) return { name, kind: 'number' };
  if (types.includes('array') || (schema.maxLength ?? 0) < 1000) return { name, kind: 'text' };
  return { name, kind: 'textarea' };
}

/** The order of the form: languages, the other choices, the boxes, numbers, then text. */
const KIND_ORDER: readonly OptionKind[] = ['select', 'checkbox', 'number', 'text', 'textarea'];

/** What the page asks of a product: its files (the first is the one picked and dropped) and its options. */
export interface ProductForm {
  product: ProductDefinition;
  /** Parameters holding a file's URL: each is an upload. */
  files: string[];
  options: OptionField[];
}

export function productForm(product: ProductDefinition): ProductForm {
  const shape = (product.request as z.ZodObject).shape;
  // A file is a required URL (httpUrl itself); the callback URL is the account's, from its settings.
  const files = Object.keys(shape).filter((name) => shape[name] === httpUrl);
  const asked = (name: string) => !files.includes(name) && shape[name] !== callbackUrlParam;
  const properties = (z.toJSONSchema(product.request, { io: 'input', unrepresentable: 'any' }).properties ?? {}) as Record<string, PropertySchema>;
  const options = Object.entries(properties)
    .filter(([name]) => asked(name))
    .map(([name, schema]) => optionOf(name, schema))
    .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  return { product, files, options };
}

/** Every product that takes a file, which is every one today. */
const FORMS: readonly ProductForm[] = PRODUCT_LIST.map(productForm).filter((form) => form.files.length > 0);

function optionHtml(option: OptionField): Html {
  const { name, kind } = option;
  const id = `option-${name}`;
  const hint = FORM_LABELS[name]?.hint;
  const described = hint ? html` aria-describedby="${id}-hint"` : '';
  const hintHtml = hint ? html`<span id="${id}-hint" class="hint">${hint}</span>` : '';
  const label = html`<label for="${id}">${labelOf(name)}</label>`;
  if (kind === 'checkbox') {
    return html`<p class="check"><input id="${id}" name="${name}" type="checkbox"${option.chosen ? html` checked` : ''}${described}> ${label}${hintHtml}</p>`;
  }
  if (kind === 'select') {
    return html`<p>${label}<select id="${id}" name="${name}"${described}>${option.choices!.map(
      ([value, words]) => html`<option value="${value}"${value === option.chosen ? html` selected` : ''}>${words}</option>`,
    )}</select>${hintHtml}</p>`;
  }
  if (kind === 'number')
    return html`<p>${label}<input id="${id}" name="${name}" type="number" min="0" step="1" inputmode="numeric"${described}>${hintHtml}</p>`;
  if (kind === 'textarea') return html`<p>${label}<textarea id="${id}" name="${name}" rows="3"${described}></textarea>${hintHtml}</p>`;
  return html`<p>${label}<input id="${id}" name="${name}" type="text" autocomplete="off"${described}>${hintHtml}</p>`;
}

/** A product's options; `data-files` names its file parameters with their labels (the first is the picked file). */
function optionsHtml(form: ProductForm): Html {
  const files = form.files.map((name) => ({ name, label: labelOf(name), hint: FORM_LABELS[name]?.hint ?? '' }));
  return html`<fieldset id="options" data-product="${form.product.key}" data-files="${JSON.stringify(files)}">
<legend>Options of ${form.product.label}</legend>
${form.options.map(optionHtml)}
</fieldset>`;
}

function newOrderPage(csrf: string, chosen: ProductForm, uploadsOffered: boolean): string {
  const body = html`<h1>New order</h1>
<p>Choose the product, add your files and choose the options while they upload: each file makes one order. Its price shows once it is uploaded; nothing is charged before “Place order”.</p>
${uploadsOffered ? '' : alert('This service takes no uploads: place orders by the API with the URL of your file.')}
<noscript>${alert('This page needs JavaScript to upload your files.')}</noscript>
<form id="new-order" data-csrf="${csrf}" data-uploads="${ACCOUNT_UPLOADS_PATH}" novalidate>
<p><label for="product">Product</label>
<select id="product" name="product">${FORMS.map(
    (form) => html`<option value="${form.product.key}"${form === chosen ? html` selected` : ''}>${productName(form.product.key)}</option>`,
  )}</select></p>
<label id="drop-zone" class="drop-zone"><span class="drop-title">Files</span>
<span class="hint">Choose files or drop them here. An upload that stopped goes on where it was when you pick the same file again.</span>
<input id="files" type="file" multiple${uploadsOffered ? '' : html` disabled`}></label>
<ul id="uploads" class="uploads" aria-label="Files to order"></ul>
${optionsHtml(chosen)}
${FORMS.map((form) => html`<template id="options-${form.product.key}">${optionsHtml(form)}</template>`)}
<dl id="totals" class="summary" hidden>
<div><dt>Total</dt><dd data-field="total"></dd></div>
<div><dt>Wallet balance</dt><dd data-field="balance"></dd></div>
<div><dt>Balance after</dt><dd data-field="balance-after"></dd></div>
</dl>
<p id="order-problem" class="alert" role="alert" hidden></p>
<p><button id="place-order" type="submit" disabled>Place order</button></p>
</form>
<div id="placed" role="status"></div>`;
  return layout({ title: 'New order', csrf, current: 'orders', body, scripts: ['new-order.js'] });
}

/** The body of a quote or a placement, as the page's script sends it (JSON). */
const orderBody = z.object({
  product: z.string({ error: 'is required' }),
  options: z.record(z.string(), z.unknown()).default({}),
  /** Each file parameter's upload, by the URL its tus creation answered (Location) or its id. */
  files: z.record(z.string(), z.string()).default({}),
  idempotency_key: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
});

/** The upload a page names, by its tus URL (`/account/uploads/<id>`) or id. */
function uploadIdOf(sent: string, field: string): string {
  const id = sent.replace(/^.*\//, '');
  if (!UPLOAD_ID.test(id)) throw new RequestError(`${field}: upload the file first`);
  return id;
}

/** A refusal's field, when its message starts with a parameter of the product (zod and the use case name it so). */
function fieldOf(message: string, form: ProductForm | undefined): string | undefined {
  const name = /^([a-z_]+)[:.]/.exec(message)?.[1];
  if (!name) return undefined;
  const known = name === 'idempotency_key' || name === 'product' || form?.files.includes(name) || form?.options.some((o) => o.name === name);
  return known ? name : undefined;
}

export function newOrderRouter(deps: WebDeps): Router {
  const router = caseSensitiveRouter();
  const place = createPlacement(deps);
  const keys = { db: deps.db, log: deps.log, ttlMs: KEY_TTL_MS, leaseMs: deps.payment.windowMs + deps.payment.graceMs + 5_000 };
  const { uploadStore, uploads } = deps;

  router.get('/orders/new', (req, res) => {
    const asked = typeof req.query.product === 'string' ? req.query.product : '';
    const chosen = FORMS.find((form) => form.product.key === asked) ?? FORMS[0]!;
    sendPage(res, 200, newOrderPage(signedIn(res).csrf, chosen, Boolean(uploadStore && uploads)));
  });

  /** The page's JSON answer to a failure: the caller's mistakes name the field; faults are logged. */
  function failure(err: unknown, form: ProductForm | undefined): KeyedAnswer {
    const answer = (status: number, error: string, retryAfterSeconds?: number): KeyedAnswer => ({
      status,
      body: JSON.stringify({ error, field: fieldOf(error, form) }),
      retryAfterSeconds,
    });
    const refused = clientError(err);
    if (refused) return answer(refused[0], refused[1], (err as { retryAfterSeconds?: number }).retryAfterSeconds);
    if (err instanceof PaymentExpiredError) return answer(503, 'The service could not take the order in time; nothing was charged. Place it again.', 5);
    if (err instanceof PaymentUnconfirmedError) {
      deps.log('order payment unconfirmed', { orderId: err.orderId });
      return answer(503, `Order ${err.orderId} was not confirmed in time: look for it in your orders before placing it again.`);
    }
    deps.log('request failed', { path: '/account/orders/new', error: String((err as Error)?.stack ?? err) });
    return answer(500, 'The order cannot be placed now; try again later.');
  }

  function send(res: Response, answer: KeyedAnswer): void {
    if (answer.retryAfterSeconds !== undefined) res.set('Retry-After', String(Math.max(1, Math.ceil(answer.retryAfterSeconds))));
    res.status(answer.status).set('Cache-Control', 'no-store').type('application/json').send(answer.body);
  }

  /** The product and the creation body a page's request means: its options, and each file as its upload's order URL. */
  function orderOf(req: Request) {
    const sent = orderBody.parse(req.body ?? {});
    const form = isProductKey(sent.product) ? FORMS.find((f) => f.product.key === sent.product) : undefined;
    if (!form) throw new RequestError(`product: "${sent.product.slice(0, 60)}" is not a product ordered from this page`);
    if (!uploads) throw new RequestError('This service takes no uploads: place orders by the API with the URL of your file.');
    const files = Object.fromEntries(
      form.files.filter((name) => sent.files[name] !== undefined).map((name) => [name, uploads.urlOf(uploadIdOf(sent.files[name]!, name))]),
    );
    // Empty means absent and other products' options are ignored, as in the API; the files are the uploads named.
    const { fields } = requestFields(form.product, V4_PARAMETERS, { ...sent.options, ...files });
    return { form, fields, key: sent.idempotency_key };
  }

  /** A JSON route of the page: `work`'s answer to the order the request means, or its failure as `{error, field}`. */
  async function answer(req: Request, res: Response, work: (order: ReturnType<typeof orderOf>, account: AccountRow) => Promise<KeyedAnswer>) {
    let form: ProductForm | undefined;
    try {
      const order = orderOf(req);
      form = order.form;
      send(res, await work(order, signedIn(res).account));
    } catch (err) {
      send(res, failure(err, form));
    }
  }

  router.post('/orders/new/quote', (req, res) =>
    answer(req, res, async ({ form, fields }, account) => {
      const { order_total: total, in_wallet: balance, ...measured } = await place(form.product, account, { ...fields, mode: 'test' }, async () => undefined);
      // The use case answers in dollars, as the API does; the page adds up cents.
      const body = { ...measured, price_cents: Math.round(total * 100), balance_cents: Math.round(balance * 100) };
      return { status: 200, body: JSON.stringify(body) };
    }),
  );

  router.post('/orders/new/place', (req, res) =>
    answer(req, res, ({ form, fields, key }, account) => {
      const { product } = form;
      if (key === undefined) throw new RequestError('idempotency_key: is required');
      return answerOnce(keys, { accountId: account.id, key }, requestFingerprint(`account/${product.path}`, fields), {
        work: (onOrderId) => place(product, account, { ...fields, mode: 'live' }, onOrderId),
        fromCharged: (charged, balanceAfterCents) => chargedAnswer(product, charged, balanceAfterCents, account),
        failure: (err) => failure(err, form),
      });
    }),
  );

  if (uploadStore && uploads) {
    const receiver = uploadReceiver({ ...deps, uploadStore, uploads }, ACCOUNT_UPLOADS_PATH, (id) => `${ACCOUNT_UPLOADS_PATH}/${id}`);
    // A script's every tus request carries the session's CSRF token (POST's is checked with every form's, by requireSession).
    router.all(['/uploads', '/uploads/:id'], async (req, res) => {
      if (req.method === 'OPTIONS') return receiver.tus(req, res);
      const { account, csrf } = signedIn(res);
      if (!sameToken(req.headers['x-csrf-token'], csrf)) throw new RequestError('This upload did not come from this site: reload the page and try again.', 403);
      await receiver.tus(req, res, account);
    });
  }
  return router;
}
