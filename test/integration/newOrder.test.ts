// Ordering from the account area over HTTP (issue 52, item 6; the browser test is
// test/browser/newOrder.test.ts): the form of every product read off its request schema, uploads by
// tus at /account/uploads under the session and its CSRF token, quotes and refusals naming the
// field, and "Place order" charging once per idempotency key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'node-html-parser';
import { and, eq } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { wavFile } from '../helpers/mediaServer.js';
import { PRODUCT_LIST } from '../../src/products/registry.js';
import { productForm } from '../../src/web/pages/newOrder.js';
import { ledgerEntries, orders } from '../../src/db/schema.js';
import { getAccount } from '../../src/db/accounts.js';

interface Session {
  /** The service this session is signed in to. */
  on: TestService;
  accountId: number;
  token: string;
  cookie: string;
  csrf: string;
}

describe('ordering from the account area', () => {
  let service: TestService;
  let a: Session;
  let b: Session;

  const pairOf = (res: Response, name: string) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${name}=`))!
      .split(';')[0]!;

  async function signedIn(balanceUsd: number, on = service): Promise<Session> {
    const account = await on.createAccount(balanceUsd);
    const form = await fetch(`${on.baseUrl}/account/sign-in`);
    const csrf = parse(await form.text())
      .querySelector('input[name="csrf"]')!
      .getAttribute('value')!;
    const signIn = await fetch(`${on.baseUrl}/account/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: pairOf(form, 'order_sign_in') },
      body: new URLSearchParams({ csrf, api_token: account.token }),
    });
    const cookie = pairOf(signIn, 'order_session');
    const page = parse(await (await fetch(`${on.baseUrl}/account/orders/new`, { headers: { cookie } })).text());
    return { on, ...account, cookie, csrf: page.querySelector('form#new-order')!.getAttribute('data-csrf')! };
  }

  async function call(who: Session, method: string, path: string, opts: { headers?: Record<string, string>; body?: BodyInit; csrf?: boolean } = {}) {
    const res = await fetch(who.on.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: { cookie: who.cookie, ...(opts.csrf === false ? {} : { 'x-csrf-token': who.csrf }), ...opts.headers },
      body: opts.body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, any> };
  }

  /** Uploads `bytes` by tus at /account/uploads in one PATCH (or only `sendBytes` of them); its Location. */
  async function upload(who: Session, bytes: Buffer, sendBytes = bytes.length): Promise<string> {
    const created = await call(who, 'POST', '/account/uploads', { headers: { 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length) } });
    expect(created.status, created.text).toBe(201);
    const location = created.headers.get('location')!;
    const patched = await call(who, 'PATCH', location, {
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(bytes.subarray(0, sendBytes)),
    });
    expect(patched.status, patched.text).toBe(204);
    return location;
  }

  const postJson = (who: Session, path: string, body: object) =>
    call(who, 'POST', path, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const quote = (who: Session, body: object) => postJson(who, '/account/orders/new/quote', body);
  const place = (who: Session, body: object) => postJson(who, '/account/orders/new/place', body);
  const chargesOf = async (accountId: number) =>
    service.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.kind, 'charge')));

  beforeAll(async () => {
    service = await startService();
    [a, b] = await Promise.all([signedIn(100), signedIn(100)]);
  });
  afterAll(async () => {
    await service?.close();
  });

  it('offers every product that takes a file, each option in words and none the page fills itself', async () => {
    const page = await call(a, 'GET', '/account/orders/new');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const doc = parse(page.text);
    expect(doc.querySelector('script[src="/account/assets/new-order.js"]')).not.toBeNull();
    const offered = doc.querySelectorAll('select#product option').map((o) => o.getAttribute('value'));
    expect(offered).toEqual(PRODUCT_LIST.map((p) => p.key));
    for (const product of PRODUCT_LIST) {
      const fieldset = parse(doc.querySelector(`template#options-${product.key}`)!.innerHTML).querySelector('fieldset#options')!;
      const names = fieldset.querySelectorAll('[name]').map((c) => c.getAttribute('name')!);
      const { files } = productForm(product);
      const parameters = Object.keys((product.request as unknown as { shape: object }).shape);
      // Every parameter is a control, a file, or the callback URL from the account's settings.
      expect(names.sort(), product.key).toEqual(parameters.filter((p) => !files.includes(p) && p !== 'callback_url').sort());
      expect(files.length, product.key).toBeGreaterThan(0);
      for (const name of names) {
        const id = fieldset.querySelector(`[name="${name}"]`)!.getAttribute('id');
        expect(fieldset.querySelector(`label[for="${id}"]`)?.text.trim(), `${product.key} ${name}`).toBeTruthy();
      }
    }
    const transcription = doc.querySelector('fieldset#options')!;
    expect(transcription.querySelector('label[for="option-language"]')!.text).toBe('Language');
    expect(transcription.querySelector('#option-language option[selected]')!.text).toBe('English');
    expect(transcription.querySelectorAll('#option-turnaround_time option').map((o) => o.text)).toEqual(['12 hours', '1 day', '3 days', '5 days']);
    expect(transcription.querySelectorAll('#option-text_format option').map((o) => o.text)).toEqual(['Clean verbatim', 'Full verbatim']);
    expect(transcription.querySelector('#option-strict')!.getAttribute('type')).toBe('checkbox');
    expect(transcription.querySelector('#option-vocabulary')!.getAttribute('type')).toBe('text');
    const dropZone = doc.querySelector('label#drop-zone')!;
    expect(dropZone.querySelector('input[type="file"][multiple]')).not.toBeNull();
    // The orders page leads here.
    expect(
      parse((await call(a, 'GET', '/account/orders')).text)
        .querySelector('a#new-order-link')!
        .getAttribute('href'),
    ).toBe('/account/orders/new');
  });

  it("takes tus uploads only with the session's CSRF token, and only the owner's", async () => {
    const location = await upload(a, wavFile(30));
    expect(location).toMatch(/^\/account\/uploads\/[0-9a-f]{32}$/);
    const head = await call(a, 'HEAD', location, { headers: { 'tus-resumable': '1.0.0' } });
    expect(head.headers.get('upload-offset')).toBe(String(wavFile(30).length));
    expect((await call(a, 'HEAD', location, { headers: { 'tus-resumable': '1.0.0' }, csrf: false })).status).toBe(403);
    const create = { 'tus-resumable': '1.0.0', 'upload-length': '10' };
    expect((await call(a, 'POST', '/account/uploads', { headers: create, csrf: false })).status).toBe(403);
    expect((await call(b, 'HEAD', location, { headers: { 'tus-resumable': '1.0.0' } })).status).toBe(404);
    // No session: the sign-in page, never an upload.
    const anonymous = await fetch(`${service.baseUrl}/account/uploads`, { method: 'POST', redirect: 'manual', headers: create });
    expect(anonymous.status).toBe(303);
  });

  it("quotes an upload with the price and the wallet's balance, and names the field it refuses", async () => {
    const location = await upload(a, wavFile(120));
    const body = { product: 'transcription', options: { language: 'english', turnaround_time: '5_days' }, files: { url: location } };
    const priced = await quote(a, body);
    expect(priced.status, priced.text).toBe(200);
    expect(priced.json()).toMatchObject({ seconds: 120, balance_cents: 10_000 });
    expect(priced.json().price_cents).toBeGreaterThan(0);
    // A faster turnaround costs more: the options are the order's.
    const faster = await quote(a, { ...body, options: { ...body.options, turnaround_time: '12_hours' } });
    expect(faster.json().price_cents).toBeGreaterThan(priced.json().price_cents);

    const refused = await quote(a, { ...body, options: { ...body.options, from: '60', till: '30' } });
    expect(refused.status).toBe(400);
    expect(refused.json()).toEqual({ error: expect.stringMatching(/^till: must be greater than from/), field: 'till' });
    const badTerm = await quote(a, { ...body, options: { ...body.options, vocabulary: 'Acme\u200bCorp' } });
    expect(badTerm.json()).toMatchObject({ error: expect.stringMatching(/^vocabulary: term 1/), field: 'vocabulary' });
    // Another account's upload is as unknown as none; a half-sent one is not complete.
    expect((await quote(b, body)).json()).toMatchObject({ error: expect.stringMatching(/^url: no such upload/), field: 'url' });
    const half = await upload(a, wavFile(30), 1000);
    expect((await quote(a, { ...body, files: { url: half } })).json()).toMatchObject({
      error: expect.stringMatching(/^url: the upload is not complete \(1000 of \d+ bytes received\)/),
      field: 'url',
    });
    expect((await quote(a, { ...body, files: {} })).json()).toMatchObject({ error: 'url: is required', field: 'url' });
    expect((await quote(a, { ...body, product: 'nothing' })).json()).toMatchObject({ field: 'product' });
    // A POST without the CSRF token is refused before anything is measured.
    const forged = await call(a, 'POST', '/account/orders/new/quote', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      csrf: false,
    });
    expect(forged.status).toBe(403);
  });

  it('places an order once per idempotency key: a retry gets the same order and one charge', async () => {
    const who = await signedIn(50);
    const location = await upload(who, wavFile(90));
    const body = { product: 'ai_transcription', options: { language: 'english' }, files: { url: location } };
    expect((await place(who, body)).json()).toMatchObject({ error: 'idempotency_key: is required', field: 'idempotency_key' });

    const key = 'page-key-1';
    const [first, second] = await Promise.all([place(who, { ...body, idempotency_key: key }), place(who, { ...body, idempotency_key: key })]);
    // Both at once: one places it, the other is told it is in progress (409) or gets its answer.
    const answers = [first, second].filter((r) => r.status === 200);
    expect(answers.length).toBeGreaterThan(0);
    for (const other of [first, second].filter((r) => r.status !== 200)) expect(other.status, other.text).toBe(409);
    const orderId = answers[0]!.json().order_id as number;
    const retried = await place(who, { ...body, idempotency_key: key });
    expect(retried.status).toBe(200);
    expect(retried.text).toBe(answers[0]!.text);
    expect((await chargesOf(who.accountId)).map((c) => c.orderId)).toEqual([orderId]);
    const [order] = await service.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ accountId: who.accountId, product: 'ai_transcription', seconds: 90 });
    expect(order!.params.url).toBe(`${service.baseUrl}/api/v4/uploads/${location.split('/').pop()}`);
    const balance = (await getAccount(service.database.db, who.accountId))!.balanceCents;
    expect(balance).toBe(5000 - order!.priceCents);

    // The same key with other options is another order: refused, naming the key.
    const other = await place(who, { ...body, options: { language: 'french' }, idempotency_key: key });
    expect(other.json()).toMatchObject({ error: expect.stringMatching(/^idempotency_key: this key was already used with other parameters/) });
    // A refusal is the key's answer too: the same request with the same key gets it again, and charges nothing.
    const poor = await signedIn(0);
    const poorUpload = await upload(poor, wavFile(90));
    const short = { ...body, files: { url: poorUpload }, idempotency_key: 'page-key-2' };
    const refused = await place(poor, short);
    expect(refused.status).toBe(400);
    expect(refused.json().error).toMatch(/^insufficient funds/);
    expect((await place(poor, short)).text).toBe(refused.text);
    expect(await chargesOf(poor.accountId)).toEqual([]);
  });

  it('answers 503 "nothing was charged" when the workers came back after the payment window', async () => {
    const late = await startService({ payment: { windowMs: 1000, graceMs: 6000 } });
    try {
      const who = await signedIn(50, late);
      const location = await upload(who, wavFile(30));
      await late.stopWorker();
      const placing = place(who, { product: 'ai_transcription', options: { language: 'english' }, files: { url: location }, idempotency_key: 'late-1' });
      await new Promise((r) => setTimeout(r, 2000)); // past the 1-second window, inside the page's wait
      await late.startWorker();
      const answer = await placing;
      expect(answer.status, answer.text).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.json()).toEqual({ error: 'The service could not take the order in time; nothing was charged. Place it again.' });
      const charges = await late.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.accountId, who.accountId), eq(ledgerEntries.kind, 'charge')));
      expect(charges).toEqual([]);
    } finally {
      await late.close();
    }
  });
});
