// The account area over HTTP (no browser): sign-in and its cookie, CSRF, one account's orders only,
// filters and pages, session-served files, resend, wallet CSV, settings, sample callbacks, sign-out
// and the sign-in rate limit. The browser tests (test/browser/) cover the pages as a person uses them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, type HTMLElement } from 'node-html-parser';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { englishAudio, placeOrder, withResults } from '../helpers/orders.js';
import { docxOf, startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { chargeWalletForOrder, nextOrderId } from '../../src/db/wallet.js';
import { applyQualityFix, callbackAttemptsOf, finishOrder, getOrder, recordCallbackAttempt } from '../../src/db/orders.js';
import { formatUtc } from '../../src/domain/time.js';
import { usd } from '../../src/web/format.js';
import type { OrderParams } from '../../src/products/registry.js';

interface Page {
  status: number;
  text: string;
  headers: Headers;
  doc: HTMLElement;
}

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

  async function request(
    method: string,
    path: string,
    opts: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Page & { raw: Response }> {
    const raw = await fetch(service.baseUrl + path, {
      method,
      redirect: 'manual',
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
      const { orderId } = await placeOrder(service, { token, fields: englishAudio(media, 30) });
      return orderId;
    };
    aFinished = await place(a.token);
    aPaid = await place(a.token);
    bOrder = await place(b.token);
    expect((await service.complete(aFinished, 'a.txt', 'Speaker 1: Hello there.')).status).toBe(200);
    await waitFor(async () => (await callbackAttemptsOf(service.database.db, aFinished)).some((x) => x.outcome === 'ok'), 'the finished callback');
    // 22 more for account A: two pages with the three above.
    for (let i = 0; i < 22; i++) {
      const id = await nextOrderId(service.database.db);
      await chargeWalletForOrder(
        service.database.db,
        withResults({
          id,
          accountId: a.accountId,
          product: 'translation',
          priceCents: 100 + i,
          seconds: 0,
          words: 100,
          params: { translate_from: 'english', translate_to: 'german' },
          callbackUrl: null,
          turnaroundHours: 120,
          fulfilment: 'operator',
          resultKinds: ['translation'],
        }),
      );
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
      const attributes = setCookie!
        .split(';')
        .slice(1)
        .map((s) => s.trim());
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
      for (const path of [
        '/account',
        '/account/orders',
        `/account/orders/${aFinished}`,
        '/account/wallet.csv',
        '/account/orders/status.json?ids=1',
        '/account/settings',
      ]) {
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

    it('shows the placing time and the delivery estimate as machine-readable <time> elements', async () => {
      const order = (await getOrder(service.database.db, aPaid))!;
      const row = (await get(`/account/orders?q=${aPaid}`)).doc.querySelector(`tr[data-order-id="${aPaid}"]`)!;
      const estimate = row.querySelector('td[data-label="Delivery estimate"] time')!;
      expect(estimate.getAttribute('datetime')).toBe(order.deliveryEstimate!.toISOString());
      expect(estimate.text).toBe(`${formatUtc(order.deliveryEstimate!)} UTC`);
      const placed = row.querySelector('td[data-label="Placed"] time')!;
      expect(placed.getAttribute('datetime')).toBe(order.paidAt!.toISOString());
      expect(order.deliveryEstimate!.getTime()).toBeGreaterThan(order.paidAt!.getTime());
      // The order page shows the same estimate.
      const params = (await get(`/account/orders/${aPaid}`)).doc.querySelector('section#parameters dl')!;
      const terms = params.querySelectorAll('dt').map((dt) => dt.text);
      const dd = params.querySelectorAll('dd')[terms.indexOf('Delivery estimate')]!;
      expect(dd.querySelector('time')!.getAttribute('datetime')).toBe(order.deliveryEstimate!.toISOString());
    });

    it('filters by product and status, and finds an order by id', async () => {
      const ids = async (query: string) =>
        (await get(`/account/orders?${query}`)).doc.querySelectorAll('tr[data-order-id]').map((tr) => Number(tr.getAttribute('data-order-id')));
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
      const cached = await request('GET', `/account/orders/${aFinished}/files/transcription?format=text`, {
        cookie,
        headers: { 'if-none-match': web.headers.get('etag')! },
      });
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
      expect(params).toContain('English');
      const timeline = page.doc.querySelectorAll('ol#timeline li').map((li) => li.text);
      expect(timeline.findIndex((t) => t.includes('Paid'))).toBeLessThan(timeline.findIndex((t) => t.includes('Finished')));
      expect(timeline.some((t) => /Callback \(finished\), attempt 1: delivered/.test(t))).toBe(true);
      const rows = page.doc.querySelectorAll('table#callback-attempts tr[data-attempt]');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows[0]!.querySelector('td[data-field="webhook-id"]')!.text).toMatch(/^msg_/);
      expect(rows[0]!.querySelector('td[data-field="status-code"]')!.text).toBe('200');
      expect(page.doc.querySelector('form#resend button')!.text).toBe('Resend last callback');
    });

    /** The order page's parameters: each label (dt) with its value (dd), and the API name behind it. */
    const parametersOf = (page: Page) => {
      const terms = page.doc.querySelectorAll('section#parameters dt');
      const values = page.doc.querySelectorAll('section#parameters dd');
      return terms.map((dt, i) => ({ label: dt.text, value: values[i]!.text.replace(/\s+/g, ' ').trim(), param: values[i]!.getAttribute('data-param') }));
    };
    const byParam = (rows: ReturnType<typeof parametersOf>) => Object.fromEntries(rows.filter((r) => r.param).map((r) => [r.param, [r.label, r.value]]));

    it('names every parameter in words, its values too (no raw API names on the page)', async () => {
      const rows = parametersOf(await get(`/account/orders/${aFinished}`));
      expect(byParam(rows)).toEqual({
        url: ['Media file', media.audio(30)],
        language: ['Language', 'English'],
        text_format: ['Text format', 'Clean verbatim'],
        timestamping: ['Timestamps', 'Not required'],
        number_of_speakers: ['Speakers', '1 or 2'],
        turnaround_time: ['Turnaround', '5 days'],
        strict: ['Strict turnaround', 'No'],
      });
      const labels = rows.map((r) => r.label);
      for (const raw of ['url', 'language', 'turnaround_time', 'turnaround time', 'text format', 'callback_url']) expect(labels).not.toContain(raw);
      // Every label starts with a capital and has no underscore.
      for (const label of labels) expect(label, label).toMatch(/^[A-Z][^_]*$/);
    });

    it('reads every kind of parameter: languages by name, times as a clock, lists, documents as files, a new parameter in words', async () => {
      const d = await service.createAccount(10);
      const direct = async (product: string, params: Record<string, unknown>, resultKinds: string[]) => {
        const id = await nextOrderId(service.database.db);
        await chargeWalletForOrder(
          service.database.db,
          withResults({
            id,
            accountId: d.accountId,
            product,
            priceCents: 100,
            seconds: 60,
            words: 100,
            params: params as OrderParams,
            callbackUrl: null,
            turnaroundHours: 120,
            fulfilment: 'operator',
            resultKinds,
          }),
        );
        return id;
      };
      const transcript = await direct(
        'transcription',
        {
          url: media.audio(60),
          language: 'english-uk',
          from: 90,
          till: 3725,
          requested_till: 4000,
          text_format: 'full_verbatim',
          timestamping: 'change_of_speaker',
          turnaround_time: '1_days',
          requested_turnaround_time: '12_hours',
          number_of_speakers: '3_or_more',
          strict: false,
          vocabulary: ['Zorblax', 'Kyiv', "O'Brien"],
          comment: 'Two <b>speakers</b>',
          // A parameter this page does not know yet (another engineer's, say) still reads in words.
          speaker_names_hint: 'Ann & Bo',
        },
        ['transcription'],
      );
      const document = await direct(
        'translation',
        {
          url: 'https://files.example/talk.srt',
          translate_from: 'english',
          translate_to: 'french-canadian',
          additional_review: true,
          source: 'document',
          subtitles: 'srt',
          cues: 12,
        },
        ['translation'],
      );
      const scan = await direct('human_ocr', { url: 'https://files.example/scan.png', language: 'french' }, ['human_ocr']);
      const proofread = await direct(
        'transcription_proofreading',
        { audio_url: media.audio(60), transcription_url: 'https://files.example/draft.docx', language: 'english', captions: true, auto_retranscribe: false },
        ['transcription'],
      );
      const { cookie: dCookie } = await signIn(d.token);
      const page = await get(`/account/orders/${transcript}`, dCookie);
      const rows = parametersOf(page);
      expect(byParam(rows)).toEqual({
        url: ['Media file', media.audio(60)],
        language: ['Language', 'English (UK)'],
        from: ['From', '00:01:30'],
        till: ['Until', '01:02:05'],
        requested_till: ['Until, as asked', '01:06:40'],
        text_format: ['Text format', 'Full verbatim'],
        timestamping: ['Timestamps', 'At each change of speaker'],
        number_of_speakers: ['Speakers', '3 or more'],
        turnaround_time: ['Turnaround', '1 day'],
        requested_turnaround_time: ['Turnaround asked for', '12 hours'],
        strict: ['Strict turnaround', 'No'],
        vocabulary: ['Vocabulary', "Zorblax, Kyiv, O'Brien"],
        comment: ['Comment', 'Two <b>speakers</b>'],
        speaker_names_hint: ['Speaker names hint', 'Ann & Bo'],
      });
      // The customer's text is escaped, never markup.
      expect(page.text).toContain('Two &lt;b&gt;speakers&lt;/b&gt;');
      expect(page.doc.querySelector('section#parameters b')).toBeNull();

      expect(byParam(parametersOf(await get(`/account/orders/${document}`, dCookie)))).toEqual({
        url: ['File', 'https://files.example/talk.srt'],
        source: ['File kind', 'Document'],
        subtitles: ['Subtitle format', 'SRT'],
        cues: ['Subtitle cues', '12'],
        translate_from: ['Translated from', 'English'],
        translate_to: ['Translated into', 'French (Canadian)'],
        additional_review: ['Second review', 'Yes'],
      });
      expect(byParam(parametersOf(await get(`/account/orders/${scan}`, dCookie)))).toEqual({
        url: ['File', 'https://files.example/scan.png'],
        language: ['Language', 'French'],
      });
      expect(byParam(parametersOf(await get(`/account/orders/${proofread}`, dCookie)))).toEqual({
        audio_url: ['Audio file', media.audio(60)],
        transcription_url: ['Transcript supplied', 'https://files.example/draft.docx'],
        language: ['Language', 'English'],
        captions: ['Captions too', 'Yes'],
        auto_retranscribe: ['Retranscribe if too poor', 'No'],
      });
    });

    it('offers "Resend last callback" only where it can be done: a callback was sent, and there is a URL to send it to', async () => {
      // A callback sent, the account's URL: the button (the test above and the next use it).
      expect((await get(`/account/orders/${aFinished}`)).doc.querySelectorAll('form#resend button').map((b) => b.text)).toEqual(['Resend last callback']);
      // A URL, no callback sent yet: no button, and the page says why.
      const paid = await get(`/account/orders/${aPaid}`);
      expect(paid.doc.querySelector('form#resend')).toBeNull();
      expect(paid.doc.querySelector('section[aria-labelledby="callbacks-heading"]')!.text).toContain('No callback has been sent for this order yet.');

      // No callback URL, on the order or the account: no button, even with a callback recorded
      // (one sent before the account's URL was removed), and the resend is refused as before.
      const e = await service.createAccount(10);
      const id = await nextOrderId(service.database.db);
      await chargeWalletForOrder(
        service.database.db,
        withResults({
          id,
          accountId: e.accountId,
          product: 'translation',
          priceCents: 100,
          seconds: 0,
          words: 100,
          params: { url: 'https://files.example/a.docx', translate_from: 'english', translate_to: 'german' },
          callbackUrl: null,
          turnaroundHours: 120,
          fulfilment: 'operator',
          resultKinds: ['translation'],
        }),
      );
      const { cookie: eCookie } = await signIn(e.token);
      const unsent = await get(`/account/orders/${id}`, eCookie);
      expect(unsent.doc.querySelector('form#resend')).toBeNull();
      expect(unsent.doc.querySelector('#no-callback-url')!.text).toContain('Neither this order nor the account has a callback URL');
      await recordCallbackAttempt(service.database.db, {
        orderId: id,
        event: 'finished',
        url: receiver.url,
        statusCode: 200,
        durationMs: 5,
        outcome: 'ok',
        detail: null,
        webhookId: `msg_${id}_finished_test`,
      });
      const sent = await get(`/account/orders/${id}`, eCookie);
      expect(sent.doc.querySelectorAll('table#callback-attempts tr[data-attempt]')).toHaveLength(1);
      expect(sent.doc.querySelector('form#resend')).toBeNull();
      expect(sent.doc.querySelector('#no-callback-url')).not.toBeNull();
      expect(sent.text).not.toContain('Resend last callback');
      const refused = await submit(`/account/orders/${id}`, `/account/orders/${id}/resend`, {}, eCookie);
      expect(refused.status).toBe(409);
      expect(refused.doc.querySelector('[role="alert"]')!.text).toContain('neither the order nor the account has a callback URL');
    });

    it('resends the last callback with the same webhook-id, recorded as the next attempt', async () => {
      const before = await callbackAttemptsOf(service.database.db, aFinished);
      const received = receiver.received.length;
      const res = await submit(`/account/orders/${aFinished}`, `/account/orders/${aFinished}/resend`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/account/orders/${aFinished}`);
      const after = await callbackAttemptsOf(service.database.db, aFinished);
      expect(after).toHaveLength(before.length + 1);
      expect(after.at(-1)).toMatchObject({
        event: before.at(-1)!.event,
        attempt: before.at(-1)!.attempt + 1,
        webhookId: before.at(-1)!.webhookId,
        outcome: 'ok',
      });
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

  describe('orders in every state', () => {
    // Account C: one order in each state the list names. Refund, cancel, the proofreading hand-off
    // and the finishing go through the /ops endpoints order-ops uses; the engine at work and the
    // quality check (off in this service) are written with the service's own database functions.
    let hooks: CallbackReceiver;
    let docs: DocumentServer;
    let c: { accountId: number; token: string };
    let cCookie: string;
    let refunded: number;
    let canceled: number;
    let finished: number; // its first callback answered 500 with a long body
    let proofreading: number; // retranscribed
    let child: number; // the human transcription order that replaced it, paid
    let engine: number; // paid, a speech engine at work: "in progress"
    let qcPending: number;
    let qcFixed: number;
    const LONG_ANSWER = 'Internal Server Error: ' + 'the queue behind this webhook endpoint is full, retry later. '.repeat(6);
    const LONG_DETAIL = `connect ETIMEDOUT ${'0123456789'.repeat(30)}`;
    const ids = async (query: string) =>
      (await get(`/account/orders?${query}`, cCookie)).doc.querySelectorAll('tr[data-order-id]').map((tr) => Number(tr.getAttribute('data-order-id')));
    const desc = (...list: number[]) => [...list].sort((x, y) => y - x);
    const timelineOf = async (id: number) =>
      (await get(`/account/orders/${id}`, cCookie)).doc.querySelectorAll('ol#timeline li').map((li) => li.text.replace(/\s+/g, ' ').trim());
    const attemptsOk = (id: number, event: string) =>
      waitFor(
        async () => (await callbackAttemptsOf(service.database.db, id)).some((x) => x.event === event && x.outcome === 'ok'),
        `the ${event} callback of order ${id}`,
      );

    beforeAll(async () => {
      [hooks, docs] = await Promise.all([startCallbackReceiver(), startDocumentServer()]);
      let failed = false;
      hooks.respond = (res, call) => {
        // The first callback to /failing gets a 500 with a long body; everything else is delivered.
        const fail = call.path === '/failing' && !failed;
        failed ||= fail;
        res.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' }).end(fail ? LONG_ANSWER : 'ok');
      };
      c = await service.createAccount(500, { callbackUrl: hooks.url });
      const db = service.database.db;
      const place = async (product: string, fields: Record<string, unknown>) => {
        const { orderId } = await placeOrder(service, { token: c.token, path: product, fields: { language: 'english', ...fields } });
        return orderId;
      };
      refunded = await place('transcriptions', { url: media.audio(30) });
      canceled = await place('transcriptions', { url: media.audio(30) });
      finished = await place('transcriptions', { url: media.audio(30), callback_url: `${hooks.url}/failing` });
      const transcript = docs.serve('/poor.docx', await docxOf(['Speaker one: this transcript is poor.']));
      proofreading = await place('transcription-proofreadings', { audio_url: media.audio(60), transcription_url: transcript, auto_retranscribe: true });

      const upload = async (text: string) => (await service.ops('PUT', '/ops/files', undefined, Buffer.from(text))).body.key as string;
      const direct = async (product: 'transcription' | 'ai_transcription') => {
        const id = await nextOrderId(db);
        await chargeWalletForOrder(
          db,
          withResults({
            id,
            accountId: c.accountId,
            product,
            priceCents: 60,
            seconds: 60,
            words: 0,
            params: { url: media.audio(60), language: 'english' },
            callbackUrl: null,
            turnaroundHours: product === 'ai_transcription' ? 1 : 120,
            fulfilment: product === 'ai_transcription' ? 'engine' : 'operator',
            resultKinds: product === 'ai_transcription' ? ['transcription', 'captions'] : ['transcription'],
          }),
        );
        return id;
      };
      engine = await direct('ai_transcription');
      qcPending = await direct('transcription');
      await finishOrder(db, qcPending, [{ kind: 'transcription', blobKey: await upload('Speaker 1: Checked.'), fileName: 'a.txt' }], 'pending');
      qcFixed = await direct('transcription');
      await finishOrder(db, qcFixed, [{ kind: 'transcription', blobKey: await upload('Speaker 1: Helo.'), fileName: 'a.txt' }], 'pending');
      await applyQualityFix(db, qcFixed, [{ kind: 'transcription', blobKey: await upload('Speaker 1: Hello.'), fileName: 'a.txt' }]);
      // Its quality-fix callback found no receiver (a long error, as a network failure can leave).
      await recordCallbackAttempt(db, {
        orderId: qcFixed,
        event: 'quality_fix',
        url: hooks.url,
        statusCode: null,
        durationMs: 2000,
        outcome: 'network_error',
        detail: LONG_DETAIL,
        webhookId: `msg_${qcFixed}_quality_fix_test`,
      });

      expect((await service.ops('POST', `/ops/orders/${refunded}/refund`, { reason: 'the audio is silent' })).body).toMatchObject({ status: 'refunded' });
      expect((await service.ops('POST', `/ops/orders/${canceled}/cancel`, {})).body).toMatchObject({ status: 'canceled' });
      const rejected = await service.ops('POST', `/ops/orders/${proofreading}/reject-transcript`, {});
      expect(rejected.body, JSON.stringify(rejected.body)).toMatchObject({ status: 'retranscribed' });
      child = rejected.body.retranscribed_order_id as number;
      expect((await service.complete(finished, 'a.txt', 'Speaker 1: Finished at last.')).status).toBe(200);
      await Promise.all([
        attemptsOk(refunded, 'refunded'),
        attemptsOk(canceled, 'canceled'),
        attemptsOk(proofreading, 'refunded'),
        attemptsOk(finished, 'finished'),
      ]);
      ({ cookie: cCookie } = await signIn(c.token));
    });
    afterAll(async () => {
      await Promise.all([hooks?.close(), docs?.close()]);
    });

    it('shows each state in the status cell; a retranscribed order links to its child', async () => {
      const page = await get('/account/orders', cCookie);
      const cell = (id: number) => page.doc.querySelector(`tr[data-order-id="${id}"] td[data-field="status"]`)!;
      const expected: Array<[number, string, boolean]> = [
        [refunded, 'refunded', true],
        [canceled, 'canceled', true],
        [finished, 'finished', true],
        [child, 'paid', false],
        [engine, 'in progress', false],
        [qcPending, 'in quality check', false],
        [qcFixed, 'finished', true],
        [proofreading, `retranscribed → order ${child}`, true],
      ];
      expect(page.doc.querySelectorAll('tr[data-order-id]')).toHaveLength(expected.length);
      for (const [id, label, settled] of expected) {
        expect(cell(id).text.replace(/\s+/g, ' ').trim(), `order ${id}`).toBe(label);
        // Orders that can still change are polled; settled ones are not.
        expect(page.doc.querySelector(`tr[data-order-id="${id}"]`)!.hasAttribute('data-poll'), `order ${id}`).toBe(!settled);
      }
      const link = cell(proofreading).querySelector('a')!;
      expect(link.getAttribute('href')).toBe(`/account/orders/${child}`);
      expect(link.getAttribute('aria-label')).toBe(`retranscribed as order ${child}`);
      // Only a finished order links its files (in quality check included: it is finished).
      expect(page.doc.querySelectorAll(`tr[data-order-id="${qcPending}"] a[data-kind="transcription"]`).length).toBeGreaterThan(0);
      for (const id of [refunded, canceled, child, engine, proofreading]) {
        expect(page.doc.querySelectorAll(`tr[data-order-id="${id}"] a[data-kind]`), `order ${id}`).toHaveLength(0);
      }
      // The live feed says the same.
      const feed = JSON.parse((await get(`/account/orders/status.json?ids=${expected.map(([id]) => id).join(',')}`, cCookie)).text);
      for (const [id, label, settled] of expected) expect(feed[id], `order ${id}`).toMatchObject({ status: label.split(' → ')[0], settled });
      expect(feed[proofreading].status_html).toContain(`href="/account/orders/${child}"`);
    });

    it('offers "Resend last callback" on exactly the orders that have had a callback (the account has a URL)', async () => {
      const all = [refunded, canceled, finished, proofreading, child, engine, qcPending, qcFixed];
      const offered: number[] = [];
      for (const id of all) {
        const page = await get(`/account/orders/${id}`, cCookie);
        if (page.doc.querySelector('form#resend button')) offered.push(id);
        const sent = (await callbackAttemptsOf(service.database.db, id)).length > 0;
        expect(page.doc.querySelector('form#resend') !== null, `order ${id}`).toBe(sent);
      }
      expect(desc(...offered)).toEqual(desc(refunded, canceled, finished, proofreading, qcFixed));
    });

    it('filters by each status, returning exactly the orders in it', async () => {
      const byStatus: Record<string, number[]> = {
        paid: [child],
        'in progress': [engine],
        finished: desc(finished, qcFixed),
        refunded: [refunded],
        canceled: [canceled],
        'in quality check': [qcPending],
        retranscribed: [proofreading],
      };
      for (const [label, expected] of Object.entries(byStatus)) {
        const page = await get(`/account/orders?status=${encodeURIComponent(label)}`, cCookie);
        const shown = page.doc.querySelectorAll('tr[data-order-id]').map((tr) => Number(tr.getAttribute('data-order-id')));
        expect(shown, label).toEqual(expected);
        expect(page.doc.querySelector('select#status option[selected]')!.getAttribute('value'), label).toBe(label);
      }
      // Every order is in exactly one of them.
      expect(desc(...Object.values(byStatus).flat())).toEqual(await ids(''));
      expect(await ids('product=transcription&status=finished')).toEqual(desc(finished, qcFixed));
      expect(await ids('product=ai_transcription&status=in%20progress')).toEqual([engine]);
      expect(await ids('product=transcription&status=in%20progress')).toEqual([]);
      expect(await ids('product=transcription_proofreading&status=retranscribed')).toEqual([proofreading]);
      const bad = await get('/account/orders?status=lost', cCookie);
      expect(bad.doc.querySelector('[role="alert"]')!.text).toBe('"lost" is not a status.');
      expect(bad.doc.querySelectorAll('tr[data-order-id]')).toHaveLength(0);
    });

    it('shows each callback attempt: time, HTTP status, duration, the answer cut short and the signature id', async () => {
      const attempts = await callbackAttemptsOf(service.database.db, finished);
      expect(attempts.map((x) => [x.attempt, x.statusCode, x.outcome])).toEqual([
        [1, 500, 'http_error'],
        [2, 200, 'ok'],
      ]);
      const page = await get(`/account/orders/${finished}`, cCookie);
      const rows = page.doc.querySelectorAll('table#callback-attempts tr[data-attempt]');
      expect(rows).toHaveLength(2);
      const received = hooks.received.filter((x) => x.fields.order_id === String(finished));
      rows.forEach((row, i) => {
        const attempt = attempts[i]!;
        expect(row.getAttribute('data-attempt')).toBe(String(i + 1));
        const time = row.querySelector('td[data-label="Time"] time')!;
        expect(time.getAttribute('datetime')).toBe(attempt.createdAt.toISOString());
        expect(time.text).toBe(`${formatUtc(attempt.createdAt)} UTC`);
        const duration = row.querySelector('td[data-label="Duration"]')!.text;
        expect(duration).toMatch(/^\d+ ms$/);
        expect(duration).toBe(`${attempt.durationMs} ms`);
        // The signature id is the webhook-id the receiver got, the same for the retry.
        expect(row.querySelector('td[data-field="webhook-id"]')!.text).toBe(received[i]!.headers['webhook-id']);
        expect(row.querySelector('td[data-field="webhook-id"]')!.text).toBe(attempts[0]!.webhookId);
      });
      expect(rows[0]!.querySelector('td[data-field="status-code"]')!.text).toBe('500');
      expect(rows[0]!.querySelector('td[data-field="outcome"]')!.text).toBe('http error');
      const answer = rows[0]!.querySelector('td[data-field="answer"]')!.text;
      // The receiver's answer, cut to its first 80 characters when recorded, the cut marked (src/orders/deliverCallback.ts).
      expect(answer).toBe(`answered 500: ${JSON.stringify(`${LONG_ANSWER.slice(0, 80)}…`)}`);
      expect(answer).not.toContain(LONG_ANSWER.slice(80, 120));
      expect(rows[1]!.querySelector('td[data-field="status-code"]')!.text).toBe('200');
      expect(rows[1]!.querySelector('td[data-field="answer"]')!.text).toBe('ok');
      expect(rows[1]!.querySelector('td[data-field="outcome"]')!.text).toBe('ok');
      const timeline = await timelineOf(finished);
      // A failed attempt says when the next one is due.
      expect(
        timeline.some((t) => /Callback \(finished\), attempt 1: http error \(HTTP 500\); next attempt at \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC$/.test(t)),
      ).toBe(true);
      expect(timeline.some((t) => t.endsWith('Callback (finished), attempt 2: delivered (HTTP 200)'))).toBe(true);
    });

    it('truncates a long answer to 160 characters with an ellipsis', async () => {
      const row = (await get(`/account/orders/${qcFixed}`, cCookie)).doc.querySelector('table#callback-attempts tr[data-attempt]')!;
      expect(row.querySelector('td[data-field="answer"]')!.text).toBe(`${LONG_DETAIL.slice(0, 160)}…`);
      expect(row.querySelector('td[data-field="status-code"]')!.text).toBe('—');
      expect(row.querySelector('td[data-label="Duration"]')!.text).toBe('2000 ms');
      expect(row.querySelector('td[data-label="Event"]')!.text).toBe('quality fix');
      expect(row.querySelector('td[data-field="webhook-id"]')!.text).toBe(`msg_${qcFixed}_quality_fix_test`);
    });

    it('shows the engine at work while paid, and the quality check and its fix after the finishing', async () => {
      const engineOrder = await get(`/account/orders/${engine}`, cCookie);
      expect(engineOrder.doc.querySelector('section#parameters dd[data-field="status"]')!.text).toBe('in progress');
      const atWork = await timelineOf(engine);
      expect(atWork).toEqual([expect.stringMatching(/ UTC — Paid: \$0\.60 from the wallet$/), 'now — A speech engine is working on the order']);

      const fixed = await timelineOf(qcFixed);
      const at = (text: string) => fixed.findIndex((t) => t.includes(text));
      expect(at('Paid: $0.60')).toBe(0);
      expect(at('Finished: transcription ready')).toBeGreaterThan(at('Paid:'));
      expect(at('Quality-check fix: the transcription file was replaced (version 2)')).toBeGreaterThan(at('Finished:'));
      expect(at('Picked for a quality check: errors found and fixed')).toBeGreaterThan(at('Finished:'));
      expect(at('Callback (quality-check fix), attempt 1: network error (no answer)')).toBeGreaterThan(at('Finished:'));
      expect(fixed).toHaveLength(5);

      const pending = await timelineOf(qcPending);
      expect(pending.some((t) => t.endsWith('Picked for a quality check: in progress'))).toBe(true);
      expect(pending.some((t) => t.includes('Quality-check fix'))).toBe(false);
    });

    it('shows refunds, cancellations and the proofreading hand-off in the timeline', async () => {
      const price = async (id: number) => usd((await getOrder(service.database.db, id))!.priceCents);
      const [refundedPrice, canceledPrice] = [await price(refunded), await price(canceled)];
      const refund = await timelineOf(refunded);
      expect(refund.some((t) => t.endsWith(`Refunded: ${refundedPrice} refunded (the audio is silent)`))).toBe(true);
      expect(refund.at(-1)).toMatch(/Callback \(refunded\), attempt 1: delivered \(HTTP 200\)$/);
      const cancel = await timelineOf(canceled);
      expect(cancel.some((t) => t.endsWith(`Canceled; ${canceledPrice} refunded`))).toBe(true);
      expect(cancel.at(-1)).toMatch(/Callback \(canceled\), attempt 1: delivered \(HTTP 200\)$/);

      const parent = await get(`/account/orders/${proofreading}`, cCookie);
      const handOff = parent.doc.querySelectorAll('ol#timeline li').find((li) => li.text.includes('Retranscribed as human transcription order'))!;
      expect(handOff.text).toContain(`order ${child}; ${await price(proofreading)} refunded`);
      expect(handOff.querySelector('a')!.getAttribute('href')).toBe(`/account/orders/${child}`);
      expect(parent.doc.querySelector('section#parameters dd[data-field="status"] a')!.getAttribute('href')).toBe(`/account/orders/${child}`);

      const replacement = await get(`/account/orders/${child}`, cCookie);
      expect(replacement.status).toBe(200);
      const created = replacement.doc.querySelectorAll('ol#timeline li').find((li) => li.text.includes('Created from proofreading order'))!;
      expect(created.querySelector('a')!.getAttribute('href')).toBe(`/account/orders/${proofreading}`);
      const terms = replacement.doc.querySelectorAll('section#parameters dt').map((dt) => dt.text);
      expect(terms).toContain('Replaces proofreading order');
      expect(replacement.doc.querySelector('section#parameters dd[data-field="status"]')!.text).toBe('paid');
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
      const rows = lines
        .slice(1)
        .reverse()
        .map((l) => l.split(','));
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

    it('defaults the canceled-callbacks switch by the creation date: off before 30 March 2026, on from then', async () => {
      const settingsOf = async (createdAt: string) => {
        const account = await service.createAccount(1, { createdAt: new Date(createdAt) });
        const { cookie: session } = await signIn(account.token);
        return (await get('/account/settings', session)).doc;
      };
      const before = await settingsOf('2026-03-29T23:59:59Z');
      expect(before.querySelector('input#canceled_callbacks')!.hasAttribute('checked')).toBe(false);
      expect(before.querySelector('#canceled-hint')!.text).toContain('so its default is off');
      expect(before.querySelector('#canceled-hint time')!.getAttribute('datetime')).toBe('2026-03-29T23:59:59.000Z');
      const from = await settingsOf('2026-03-30T00:00:00Z');
      expect(from.querySelector('input#canceled_callbacks')!.hasAttribute('checked')).toBe(true);
      expect(from.querySelector('#canceled-hint')!.text).toContain('so its default is on');
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
      const wrong = await submit('/account/sample-callback', '/account/sample-callback', {
        product: 'transcription',
        event: 'finished',
        url: `${receiver.url}/typed`,
      });
      expect(wrong.doc.querySelector('[data-field="delivered"]')!.text).toBe('no');
      expect(wrong.doc.querySelector('[data-field="answer"]')!.text).toBe('thanks');
      expect(receiver.received.at(-1)!.path).toBe('/typed');
      const refused = await submit('/account/sample-callback', '/account/sample-callback', {
        product: 'transcription',
        event: 'finished',
        url: 'http://169.254.169.254/',
      });
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
      '/account/orders',
      '/account/orders?page=2',
      `/account/orders/${aFinished}`,
      `/account/orders/${aPaid}`,
      `/account/orders/${aDirect[0]}`,
      `/account/orders/status.json?ids=${aFinished},${aPaid}`,
      '/account/wallet',
      '/account/wallet.csv',
      '/account/settings',
      '/account/sample-callback',
      '/account/assets/app.js',
      '/account/assets/app.css',
      '/account/assets/icon.svg',
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
    expect(page.doc.querySelectorAll('nav[aria-label="Account"] a').map((l) => l.getAttribute('href'))).toEqual([
      '/account/orders',
      '/account/wallet',
      '/account/settings',
      '/account/sample-callback',
    ]);
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
    // The right token now is refused too. At 40 a minute a token comes back every 1.5 s, so on a
    // loaded machine one of five attempts may rightly pass (and take it); the others may not.
    const attempts = [];
    for (let i = 0; i < 5; i++)
      attempts.push(await request('POST', '/account/sign-in', { cookie: preCookie, form: { csrf: csrfOf(form), api_token: a.token } }));
    const refused = attempts.filter((r) => r.status === 429);
    expect(refused.length, attempts.map((r) => r.status).join(' ')).toBeGreaterThanOrEqual(3);
    const limited = refused[0]!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(cookieOf(limited.raw, 'order_session')).toBeUndefined();
  });
});
