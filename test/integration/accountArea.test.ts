// The account area over HTTP (no browser): sign-in and its cookie, CSRF, one account's orders only,
// filters and pages, session-served files, resend, wallet CSV, settings, sample callbacks, sign-out
// and the sign-in rate limit. The browser tests (test/browser/) cover the pages as a person uses them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, type HTMLElement } from 'node-html-parser';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { chargeWalletForOrder, nextOrderId } from '../../src/db/wallet.js';
import { callbackAttemptsOf } from '../../src/db/orders.js';

interface Page { status: number; text: string; headers: Headers; doc: HTMLElement }

describe('account area', () => {
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let a: { accountId: number; token: string };
  let b: { accountId: number; token: string };
  let aFinished: number; // placed by the API, finished, its callback delivered
  let aPaid: number; // placed by the API, still paid
  let bOrder: number;
  const aDirect: number[] = []; // translations charged straight into the database (for pages)
  let cookie: string; // account A's session

  const cookieOf = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  const pairOf = (setCookie: string) => setCookie.split(';')[0]!;

  async function request(method: string, path: string, opts: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Page & { raw: Response }> {
    const raw = await fetch(service.baseUrl + path, {
      method, redirect: 'manual',
      headers: { ...(opts.cookie ? { cookie: opts.cookie } : {}), ...opts.headers },
      body: opts.form ? new URLSearchParams(opts.form) : undefined,
    });
    const text = await raw.text();
    return { raw, status: raw.status, text, headers: raw.headers, doc: parse(text) };
  }
  const get = (path: string, who = cookie) => request('GET', path, { cookie: who });
  const csrfOf = (page: Page) => page.doc.querySelector('input[name="csrf"]')!.getAttribute('value')!;
  /** POSTs a form of a signed-in page with the page's CSRF token. */
  async function submit(fromPath: string, action: string, form: Record<string, string> = {}, who = cookie) {
    const csrf = csrfOf(await get(fromPath, who));
    return request('POST', action, { cookie: who, form: { csrf, ...form } });
  }

  async function signIn(token: string, headers: Record<string, string> = {}) {
    const form = await request('GET', '/account/sign-in', { headers });
    const preCookie = pairOf(cookieOf(form.raw, 'order_sign_in')!);
    const res = await request('POST', '/account/sign-in', { cookie: preCookie, form: { csrf: csrfOf(form), api_token: token }, headers });
    const session = cookieOf(res.raw, 'order_session');
    return { res, setCookie: session, cookie: session ? pairOf(session) : '' };
  }

  beforeAll(async () => {
    [service, media, receiver] = await Promise.all([startService({ rateLimits: { signInPerMinute: 40 } }), startMediaServer(), startCallbackReceiver()]);
    [a, b] = await Promise.all([service.createAccount(500, { callbackUrl: receiver.url }), service.createAccount(100)]);
    const place = async (token: string) => {
      const placed = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: media.audio(30), language: 'english' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      return placed.body.order_id as number;
    };
    aFinished = await place(a.token);
    aPaid = await place(a.token);
    bOrder = await place(b.token);
    expect((await service.complete(aFinished, 'a.txt', 'Speaker 1: Hello there.')).status).toBe(200);
    await waitFor(async () => (await callbackAttemptsOf(service.database.db, aFinished)).some((x) => x.outcome === 'ok'), 'the finished callback');
    // 22 more for account A: two pages with the three above.
    for (let i = 0; i < 22; i++) {
      const id = await nextOrderId(service.database.db);
      await chargeWalletForOrder(service.database.db, {
        id, accountId: a.accountId, product: 'translation', priceCents: 100 + i, seconds: 0, words: 100, params: { translate_from: 'english', translate_to: 'german' },
        callbackUrl: null, turnaroundHours: 120, fulfilment: 'operator', resultKinds: ['translation'],
      });
      aDirect.push(id);
    }
    ({ cookie } = await signIn(a.token));
    expect(cookie).toMatch(/^order_session=/);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), receiver?.close()]);
  });

  describe('sign-in', () => {
    it('shows the form with a password field and a CSRF token', async () => {
      const page = await request('GET', '/account/sign-in');
      expect(page.status).toBe(200);
      expect(page.text.startsWith('<!doctype html>')).toBe(true);
      const input = page.doc.querySelector('form#sign-in input#api_token')!;
      expect(input.getAttribute('type')).toBe('password');
      expect(input.getAttribute('autocomplete')).toBe('off');
      expect(page.doc.querySelector('label[for="api_token"]')!.text).toBe('API token');
      expect(csrfOf(page)).toMatch(/^[\w-]{32}$/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    });

    it('sets an HttpOnly, SameSite=Lax session cookie for /account with a Max-Age, and goes to the orders', async () => {
      const { res, setCookie } = await signIn(a.token);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/account/orders');
      const attributes = setCookie!.split(';').slice(1).map((s) => s.trim());
      expect(attributes).toEqual(expect.arrayContaining(['Path=/account', 'Max-Age=43200', 'HttpOnly', 'SameSite=Lax']));
      expect(attributes).not.toContain('Secure'); // served over http
    });

    it('marks the cookie Secure behind an https proxy (X-Forwarded-Proto)', async () => {
      const { setCookie } = await signIn(a.token, { 'x-forwarded-proto': 'https' });
      expect(setCookie).toContain('; Secure');
    });

    it('refuses a wrong token with 401 and the form again', async () => {
      const { res, setCookie } = await signIn('not-the-token');
      expect(res.status).toBe(401);
      expect(setCookie).toBeUndefined();
      expect(res.doc.querySelector('[role="alert"]')!.text).toBe('That API token is not valid');
      expect(res.doc.querySelector('form#sign-in')).not.toBeNull();
    });

    it('refuses a sign-in without the CSRF token of the form', async () => {
      const res = await request('POST', '/account/sign-in', { form: { api_token: a.token } });
      expect(res.status).toBe(403);
      expect(cookieOf(res.raw, 'order_session')).toBeUndefined();
    });

    it('sends a visitor without a session to the sign-in page', async () => {
      for (const path of ['/account', '/account/orders', `/account/orders/${aFinished}`, '/account/wallet.csv', '/account/orders/status.json?ids=1', '/account/settings']) {
        const res = await request('GET', path);
        expect(res.status, path).toBe(303);
        expect(res.headers.get('location'), path).toBe('/account/sign-in');
      }
      expect((await get('/account')).headers.get('location')).toBe('/account/orders');
    });
  });

  describe('orders', () => {
    it("lists only this account's orders, newest first, 20 a page", async () => {
      const first = await get('/account/orders');
      expect(first.status).toBe(200);
      expect(first.doc.querySelector('h1')!.text).toBe('Orders');
      const ids = (p: Page) => p.doc.querySelectorAll('table#orders tr[data-order-id]').map((tr) => Number(tr.getAttribute('data-order-id')));
      const all = [aFinished, aPaid, ...aDirect].sort((x, y) => y - x);
      expect(ids(first)).toEqual(all.slice(0, 20));
      expect(first.doc.querySelector('a[rel="prev"]')).toBeNull();
      const next = first.doc.querySelector('a[rel="next"]')!.getAttribute('href')!;
      const second = await get(next);
      expect(ids(second)).toEqual(all.slice(20));
      expect(ids(second)).not.toContain(bOrder);
      expect(second.doc.querySelector('a[rel="next"]')).toBeNull();
      expect(second.doc.querySelector('a[rel="prev"]')!.getAttribute('href')).toBe('/account/orders');
    });

    it('shows status, price and a link per result kind and format of a finished order', async () => {
      const page = await get(`/account/orders?q=${aFinished}`);
      const row = page.doc.querySelector(`tr[data-order-id="${aFinished}"]`)!;
      expect(row.querySelector('td[data-field="status"]')!.text).toBe('finished');
      expect(row.querySelector(`a[href="/account/orders/${aFinished}"]`)).not.toBeNull();
      const links = row.querySelectorAll('a[data-kind="transcription"]').map((l) => l.getAttribute('data-format'));
      expect(links).toEqual(['docx', 'doc', 'pdf', 'text', 'html', 'json', 'json2']);
      expect(row.querySelector('a[data-format="text"]')!.getAttribute('href')).toBe(`/account/orders/${aFinished}/files/transcription?format=text`);
      const paid = (await get(`/account/orders?q=${aPaid}`)).doc.querySelector(`tr[data-order-id="${aPaid}"]`)!;
      expect(paid.querySelector('td[data-field="status"]')!.text).toBe('paid');
      expect(paid.getAttribute('data-poll')).toBe(String(aPaid));
    });

    it('filters by product and status, and finds an order by id', async () => {
      const ids = async (query: string) => (await get(`/account/orders?${query}`)).doc.querySelectorAll('tr[data-order-id]').map((tr) => Number(tr.getAttribute('data-order-id')));
      expect(await ids('product=transcription')).toEqual([aPaid, aFinished]);
      expect(await ids('product=transcription&status=finished')).toEqual([aFinished]);
      expect(await ids('status=paid&product=transcription')).toEqual([aPaid]);
      expect(await ids('status=refunded')).toEqual([]);
      expect(await ids(`q=${aDirect[3]}`)).toEqual([aDirect[3]]);
      expect(await ids(`q=${bOrder}`)).toEqual([]);
      const bad = await get('/account/orders?q=abc');
      expect(bad.doc.querySelector('[role="alert"]')!.text).toContain('not an order id');
      // Filters carry over to the next page.
      const first = await get('/account/orders?product=translation');
      expect(first.doc.querySelectorAll('tr[data-order-id]')).toHaveLength(20);
      expect(first.doc.querySelector('a[rel="next"]')!.getAttribute('href')).toBe('/account/orders?product=translation&page=2');
    });

    it('answers the status feed for its own orders only', async () => {
      const res = await get(`/account/orders/status.json?ids=${aFinished},${aPaid},${bOrder},x`);
      expect(res.status).toBe(200);
      const feed = JSON.parse(res.text);
      expect(Object.keys(feed).map(Number).sort()).toEqual([aFinished, aPaid].sort());
      expect(feed[aFinished]).toMatchObject({ status: 'finished', settled: true });
      expect(feed[aFinished].files_html).toContain('data-kind="transcription"');
      expect(feed[aPaid]).toMatchObject({ status: 'paid', settled: false });
    });

    it('serves result files with the session, as the API does', async () => {
      const web = await request('GET', `/account/orders/${aFinished}/files/transcription?format=text`, { cookie });
      const api = await service.get(`/api/v4/orders/${aFinished}/files/transcription?api_token=${a.token}&format=text`);
      expect(web.status).toBe(200);
      expect(web.text).toBe(api.bytes.toString('utf8'));
      for (const header of ['content-type', 'content-disposition', 'etag']) expect(web.headers.get(header)).toBe(api.headers.get(header));
      const cached = await request('GET', `/account/orders/${aFinished}/files/transcription?format=text`, { cookie, headers: { 'if-none-match': web.headers.get('etag')! } });
      expect(cached.status).toBe(304);
      expect((await get(`/account/orders/${aFinished}/files/transcription?format=srt`)).status).toBe(404);
      expect((await get(`/account/orders/${aPaid}/files/transcription`)).status).toBe(404);
    });

    it("answers 404 for another account's order, the same as for none", async () => {
      const other = await get(`/account/orders/${bOrder}`);
      const none = await get('/account/orders/999999999');
      const nonsense = await get('/account/orders/abc');
      expect([other.status, none.status, nonsense.status]).toEqual([404, 404, 404]);
      const message = (p: Page) => p.doc.querySelector('[role="alert"]')!.text;
      expect(message(other)).toBe(message(none));
      expect(message(other)).toBe(message(nonsense));
      expect((await get(`/account/orders/${bOrder}/files/transcription`)).status).toBe(404);
      expect((await submit('/account/orders', `/account/orders/${bOrder}/resend`)).status).toBe(404);
    });
  });

  describe('order page', () => {
    it('shows parameters, a timeline and every callback attempt with its webhook-id', async () => {
      const page = await get(`/account/orders/${aFinished}`);
      expect(page.status).toBe(200);
      expect(page.doc.querySelector('h1')!.text).toBe(`Order ${aFinished}`);
      const params = page.doc.querySelector('section#parameters dl')!.text;
      expect(params).toContain('Human transcription');
      expect(params).toContain('english');
      const timeline = page.doc.querySelectorAll('ol#timeline li').map((li) => li.text);
      expect(timeline.findIndex((t) => t.includes('Paid'))).toBeLessThan(timeline.findIndex((t) => t.includes('Finished')));
      expect(timeline.some((t) => /Callback \(finished\), attempt 1: delivered/.test(t))).toBe(true);
      const rows = page.doc.querySelectorAll('table#callback-attempts tr[data-attempt]');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows[0]!.querySelector('td[data-field="webhook-id"]')!.text).toMatch(/^msg_/);
      expect(rows[0]!.querySelector('td[data-field="status-code"]')!.text).toBe('200');
      expect(page.doc.querySelector('form#resend button')!.text).toBe('Resend last callback');
    });

    it('resends the last callback with the same webhook-id, recorded as the next attempt', async () => {
      const before = await callbackAttemptsOf(service.database.db, aFinished);
      const received = receiver.received.length;
      const res = await submit(`/account/orders/${aFinished}`, `/account/orders/${aFinished}/resend`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/account/orders/${aFinished}`);
      const after = await callbackAttemptsOf(service.database.db, aFinished);
      expect(after).toHaveLength(before.length + 1);
      expect(after.at(-1)).toMatchObject({ event: before.at(-1)!.event, attempt: before.at(-1)!.attempt + 1, webhookId: before.at(-1)!.webhookId, outcome: 'ok' });
      expect(receiver.received).toHaveLength(received + 1);
      expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(before.at(-1)!.webhookId);
      // The message travels in a one-time cookie, so the page keeps its own URL.
      const flash = pairOf(cookieOf(res.raw, 'order_flash')!);
      const page = await get(res.headers.get('location')!, `${cookie}; ${flash}`);
      expect(page.doc.querySelector('[role="status"]')!.text).toContain('delivered');
      expect(cookieOf(page.raw, 'order_flash')).toContain('Max-Age=0');
      expect(page.doc.querySelectorAll('table#callback-attempts tr[data-attempt]')).toHaveLength(after.length);
    });

    it('says so when an order has had no callback', async () => {
      const res = await submit(`/account/orders/${aPaid}`, `/account/orders/${aPaid}/resend`);
      expect(res.status).toBe(409);
      expect(res.doc.querySelector('[role="alert"]')!.text).toContain('no callback yet');
    });

    it('refuses a POST without the CSRF token', async () => {
      for (const path of [`/account/orders/${aFinished}/resend`, '/account/settings/token/show', '/account/sign-out']) {
        const res = await request('POST', path, { cookie, form: {} });
        expect(res.status, path).toBe(403);
        const wrong = await request('POST', path, { cookie, form: { csrf: 'x'.repeat(32) } });
        expect(wrong.status, path).toBe(403);
      }
    });
  });

  describe('wallet', () => {
    it('shows the balance, the AI minutes and the ledger with running balances', async () => {
      const page = await get('/account/wallet');
      expect(page.doc.querySelector('[data-field="ai-minutes"]')!.text).toBe('0');
      const rows = page.doc.querySelectorAll('table#ledger tbody tr');
      expect(rows).toHaveLength(1 + 2 + 22); // opening top-up and 24 charges
      expect(rows[0]!.querySelector('[data-field="balance-after"]')!.text).toBe(page.doc.querySelector('[data-field="balance"]')!.text);
      expect(rows.at(-1)!.querySelector('[data-field="kind"]')!.text).toBe('topup');
      expect(rows.at(-1)!.querySelector('[data-field="balance-after"]')!.text).toBe('$500.00');
      expect(page.doc.querySelector('a#ledger-csv')!.getAttribute('href')).toBe('/account/wallet.csv');
    });

    it('downloads the ledger as CSV', async () => {
      const res = await get('/account/wallet.csv');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="wallet-\d+-ledger\.csv"$/);
      const lines = res.text.trimEnd().split('\r\n');
      expect(lines[0]).toBe('date_utc,kind,order_id,amount_usd,ai_minutes,balance_after_usd,note');
      expect(lines).toHaveLength(1 + 25);
      expect(lines.at(-1)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,topup,,500\.00,0,500\.00,opening balance$/);
      const firstDirect = lines.find((l) => l.includes(`,charge,${aDirect[0]},`))!;
      expect(firstDirect.split(',')[3]).toBe('-1.00');
      // Each line's balance is the one before it plus its amount (oldest last).
      const rows = lines.slice(1).reverse().map((l) => l.split(','));
      rows.slice(1).forEach((row, i) => expect(Number(row[5])).toBeCloseTo(Number(rows[i]![5]) + Number(row[3]), 2));
    });
  });

  describe('settings and sample callbacks', () => {
    it('saves the callback URL and the canceled-callbacks switch, refusing what the guard refuses', async () => {
      const page = await get('/account/settings');
      expect(page.doc.querySelector('input#callback_url')!.getAttribute('value')).toBe(receiver.url);
      expect(page.doc.querySelector('input#canceled_callbacks')!.hasAttribute('checked')).toBe(true); // created now: on by default
      const refused = await submit('/account/settings', '/account/settings/callback', { callback_url: 'http://10.1.2.3/hook' });
      expect(refused.status).toBe(400);
      expect(refused.doc.querySelector('[role="alert"]')!.text).toMatch(/^callback_url: /);
      expect(refused.doc.querySelector('input#callback_url')!.getAttribute('value')).toBe('http://10.1.2.3/hook');
      const notUrl = await submit('/account/settings', '/account/settings/callback', { callback_url: 'ftp://example.com/x' });
      expect(notUrl.doc.querySelector('[role="alert"]')!.text).toContain('http or https URL');
      const saved = await submit('/account/settings', '/account/settings/callback', { callback_url: `${receiver.url}/saved` });
      expect(saved.status).toBe(303);
      expect(saved.headers.get('location')).toBe('/account/settings');
      const after = await get('/account/settings', `${cookie}; ${pairOf(cookieOf(saved.raw, 'order_flash')!)}`);
      expect(after.doc.querySelector('[role="status"]')!.text).toBe('Settings saved.');
      expect(after.doc.querySelector('input#callback_url')!.getAttribute('value')).toBe(`${receiver.url}/saved`);
      expect(after.doc.querySelector('input#canceled_callbacks')!.hasAttribute('checked')).toBe(false);
      await submit('/account/settings', '/account/settings/callback', { callback_url: receiver.url, canceled_callbacks: 'true' });
      expect((await get('/account/settings')).doc.querySelector('input#canceled_callbacks')!.hasAttribute('checked')).toBe(true);
    });

    it('sends a sample callback of the chosen shape and shows the answer', async () => {
      const received = receiver.received.length;
      const res = await submit('/account/sample-callback', '/account/sample-callback', { product: 'ai_transcription', event: 'refunded', url: '' });
      expect(res.status).toBe(200);
      const result = res.doc.querySelector('section#sample-result')!;
      expect(result.querySelector('[data-field="status-code"]')!.text).toBe('200');
      expect(result.querySelector('[data-field="answer"]')!.text).toBe('ok');
      expect(result.querySelector('[data-field="delivered"]')!.text).toBe('yes');
      const id = result.querySelector('[data-field="webhook-id"]')!.text;
      expect(id).toMatch(/^msg_sample_/);
      expect(receiver.received).toHaveLength(received + 1);
      expect(receiver.received.at(-1)!.fields).toMatchObject({ status: 'refunded', transcription_url: '', captions_url: '' });
      expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(id);
      receiver.script.push({ status: 200, body: 'thanks' });
      const wrong = await submit('/account/sample-callback', '/account/sample-callback', { product: 'transcription', event: 'finished', url: `${receiver.url}/typed` });
      expect(wrong.doc.querySelector('[data-field="delivered"]')!.text).toBe('no');
      expect(wrong.doc.querySelector('[data-field="answer"]')!.text).toBe('thanks');
      expect(receiver.received.at(-1)!.path).toBe('/typed');
      const refused = await submit('/account/sample-callback', '/account/sample-callback', { product: 'transcription', event: 'finished', url: 'http://169.254.169.254/' });
      expect(refused.status).toBe(400);
      expect(refused.doc.querySelector('[role="alert"]')!.text).toMatch(/^url: /);
      expect(receiver.received.at(-1)!.path).toBe('/typed');
    });

    it('shows and rotates the signing secret', async () => {
      const shown = await submit('/account/settings', '/account/settings/secret/show');
      expect(shown.headers.get('cache-control')).toBe('no-store');
      const secret = shown.doc.querySelector('[data-field="webhook-secret"]')!.text;
      expect(secret).toMatch(/^whsec_/);
      const rotated = await submit('/account/settings', '/account/settings/secret/rotate');
      const next = rotated.doc.querySelector('[data-field="webhook-secret"]')!.text;
      expect(next).toMatch(/^whsec_/);
      expect(next).not.toBe(secret);
      expect(rotated.doc.querySelector('[data-field="previous-webhook-secret"]')!.text).toBe(secret);
    });
  });

  it('never shows the API token in a page, a URL or a log line after sign-in, unless asked for', async () => {
    const paths = [
      '/account/orders', '/account/orders?page=2', `/account/orders/${aFinished}`, `/account/orders/${aPaid}`, `/account/orders/${aDirect[0]}`,
      `/account/orders/status.json?ids=${aFinished},${aPaid}`, '/account/wallet', '/account/wallet.csv', '/account/settings', '/account/sample-callback',
      '/account/assets/app.js', '/account/assets/app.css', '/account/assets/icon.svg',
    ];
    for (const path of paths) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).not.toContain(a.token);
      for (const [, value] of page.headers) expect(value, path).not.toContain(a.token);
    }
    for (const { meta } of service.logged) expect(JSON.stringify(meta)).not.toContain(a.token);
    const shown = await submit('/account/settings', '/account/settings/token/show');
    expect(shown.doc.querySelector('[data-field="api-token"]')!.text).toBe(a.token);
    expect(shown.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps pages small and self-contained', async () => {
    const script = await get('/account/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text.length).toBeLessThan(10_000);
    const page = await get('/account/orders');
    expect(page.doc.querySelector('html')!.getAttribute('lang')).toBe('en');
    expect(page.doc.querySelector('meta[name="viewport"]')!.getAttribute('content')).toBe('width=device-width, initial-scale=1');
    expect(page.doc.querySelectorAll('nav[aria-label="Account"] a').map((l) => l.getAttribute('href')))
      .toEqual(['/account/orders', '/account/wallet', '/account/settings', '/account/sample-callback']);
    for (const el of page.doc.querySelectorAll('script[src], link[href]')) {
      expect(el.getAttribute('src') ?? el.getAttribute('href')).toMatch(/^\/account\/assets\//);
    }
  });

  it('rotates the API token: the old one is refused by the API at once, the session stays', async () => {
    const rotated = await submit('/account/settings', '/account/settings/token/rotate');
    const token = rotated.doc.querySelector('[data-field="api-token"]')!.text;
    expect(token).not.toBe(a.token);
    expect((await service.get(`/api/v4/orders?api_token=${a.token}&mode=live`)).status).toBe(400);
    expect((await service.get(`/api/v4/orders?api_token=${token}&mode=live`)).status).toBe(200);
    expect((await get('/account/orders')).status).toBe(200);
    expect((await signIn(a.token)).res.status).toBe(401);
    a.token = token;
  });

  it('signs out: the old cookie is refused afterwards', async () => {
    const { cookie: other } = await signIn(b.token);
    const out = await submit('/account/orders', '/account/sign-out', {}, other);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/account/sign-in');
    expect(cookieOf(out.raw, 'order_session')).toContain('Max-Age=0');
    const after = await get('/account/orders', other);
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/account/sign-in');
    expect((await request('POST', `/account/orders/${bOrder}/resend`, { cookie: other, form: { csrf: 'whatever' } })).status).toBe(303);
    expect((await get('/account/orders')).status).toBe(200); // A's session is another
  });

  it('rate limits sign-in attempts per client address (last: it uses up the bucket)', async () => {
    const form = await request('GET', '/account/sign-in');
    const preCookie = pairOf(cookieOf(form.raw, 'order_sign_in')!);
    let status = 0;
    for (let i = 0; i < 60 && status !== 429; i++) {
      status = (await request('POST', '/account/sign-in', { cookie: preCookie, form: { csrf: csrfOf(form), api_token: `wrong-${i}` } })).status;
    }
    expect(status).toBe(429);
    const limited = await request('POST', '/account/sign-in', { cookie: preCookie, form: { csrf: csrfOf(form), api_token: a.token } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(cookieOf(limited.raw, 'order_session')).toBeUndefined();
  });
});
