// The account area (/account) in a real browser: Debian's Chromium driven by playwright-core
// against the service as tests run it (API and worker in-process, PGlite, the run's Temporal dev
// server), with a media server and a callback receiver on loopback. The selectors are the pages'
// contract (docs of the account area): ids, names, data-field attributes and button texts.
// One browser for the file, a fresh context (own cookies) per test. The run writes the
// screenshots of docs/screenshots/ (shown in docs/account-area.md).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver, type ReceivedCallback } from '../helpers/callbackReceiver.js';
import { waitFor } from '../helpers/net.js';
import { placeOrder as placeOrderOf, withResults } from '../helpers/orders.js';
import { axeCheck, failOnPageProblems, launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { getAccount } from '../../src/db/accounts.js';
import { finishOrder, getOrder } from '../../src/db/orders.js';
import { chargeWalletForOrder, nextOrderId } from '../../src/db/wallet.js';

interface Account {
  accountId: number;
  token: string;
}

const path = (page: Page) => new URL(page.url()).pathname;
const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
const statusCell = (id: number) => `table#orders tr[data-order-id="${id}"] td[data-field="status"]`;

describeNeeding('chromium', 'account area in Chromium', () => {
  failOnPageProblems();
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let browser: Browser;
  /** The account of the screenshots: 2–3 orders, one finished with callbacks. */
  let main: Account;
  const contexts: BrowserContext[] = [];
  const screenshots: string[] = [];

  beforeAll(async () => {
    // Every test signs in from 127.0.0.1: lift the per-address sign-in limit (10 a minute by default).
    [service, media, receiver, browser] = await Promise.all([
      startService({ rateLimits: { signInPerMinute: 10_000 } }),
      startMediaServer(),
      startCallbackReceiver(),
      launchBrowser(),
    ]);
    main = await service.createAccount(50);
    // An order that stays paid (another product, so the table shows more than one kind of result).
    await placeOrder(main, { product: 'captions', seconds: 120 });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await Promise.all([service?.close(), media?.close(), receiver?.close()]);
    if (screenshots.length) console.log(`screenshots written:\n  ${screenshots.join('\n  ')}`);
  });

  async function placeOrder(account: Account, opts: { product?: string; seconds?: number; callbackUrl?: string } = {}): Promise<number> {
    const { orderId } = await placeOrderOf(service, {
      token: account.token,
      path: opts.product ?? 'transcriptions',
      fields: { url: media.audio(opts.seconds ?? 60), language: 'english' },
      callbackUrl: opts.callbackUrl,
    });
    return orderId;
  }

  /** Completes an order the way `order-ops complete` does: the same /ops upload and complete endpoints. */
  async function completeOrder(orderId: number, content = 'Speaker 1: Hello world.') {
    const completed = await service.complete(orderId, 'file.txt', content);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  }

  /** A fresh context; `requests` records every URL its pages ask for (nothing may come from elsewhere). */
  async function freshPage(): Promise<{ context: BrowserContext; page: Page; requests: string[] }> {
    const context = await newContext(browser, service.baseUrl);
    contexts.push(context);
    const requests: string[] = [];
    context.on('request', (request) => void requests.push(request.url()));
    return { context, page: await context.newPage(), requests };
  }

  /**
   * The shell every page shares (the contract): doctype, lang, viewport, one <main>, the account
   * navigation and the sign-out form when signed in, a csrf input in every POST form, and nothing
   * loaded from anywhere but the service.
   */
  async function checkShell(page: Page, requests: string[], signedIn: boolean) {
    const response = await page.goto(page.url());
    expect((await response!.text()).slice(0, 15).toLowerCase()).toBe('<!doctype html>');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toBe('width=device-width, initial-scale=1');
    expect(await page.locator('main').count()).toBe(1);
    const nav = page.locator('header nav[aria-label="Account"]');
    if (signedIn) {
      expect(await nav.locator('a').evaluateAll((links) => links.map((a) => [a.textContent?.trim(), a.getAttribute('href')]))).toEqual([
        ['Orders', '/account/orders'],
        ['Wallet', '/account/wallet'],
        ['Settings', '/account/settings'],
        ['Sample callback', '/account/sample-callback'],
      ]);
      const signOut = page.locator('header form#sign-out');
      expect(await signOut.getAttribute('method')).toMatch(/^post$/i);
      expect(await signOut.getAttribute('action')).toBe('/account/sign-out');
    } else {
      expect(await nav.count()).toBe(0);
    }
    const withoutCsrf = await page
      .locator('form')
      .evaluateAll((forms) =>
        forms
          .filter((f) => (f.getAttribute('method') ?? 'get').toLowerCase() === 'post' && !f.querySelector('input[type="hidden"][name="csrf"]'))
          .map((f) => f.id || f.outerHTML.slice(0, 80)),
      );
    expect(withoutCsrf, 'POST forms without a csrf input').toEqual([]);
    const foreign = requests.filter((url) => !url.startsWith(service.baseUrl + '/') && !url.startsWith('data:'));
    expect(foreign, 'requests to anywhere but the service').toEqual([]);
  }

  async function signIn(page: Page, token: string) {
    await page.goto('/account/sign-in');
    await page.locator('form#sign-in').getByLabel('API token').fill(token);
    await Promise.all([page.waitForURL('**/account/orders'), page.locator('form#sign-in').getByRole('button', { name: 'Sign in' }).click()]);
  }

  async function signedIn(account: Account) {
    const fresh = await freshPage();
    await signIn(fresh.page, account.token);
    return fresh;
  }

  const receivedFor = (orderId: number) => receiver.received.filter((c: ReceivedCallback) => c.fields.order_id === String(orderId));

  it('signs in with the API token (a wrong token is refused; the token never shows in a URL, page or log)', async () => {
    const { page } = await freshPage();
    // Not signed in: /account and its pages lead to the sign-in page.
    await page.goto('/account');
    expect(path(page)).toBe('/account/sign-in');
    await page.goto('/account/wallet');
    expect(path(page)).toBe('/account/sign-in');

    await page.locator('#api_token').fill('not-a-token');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/account/sign-in'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(refused.status()).toBe(401);
    expect(await text(page, '[role="alert"]')).toContain('That API token is not valid');
    await expect(page.locator('form#sign-in').count()).resolves.toBe(1);
    expect(await page.locator('#api_token').getAttribute('type')).toBe('password');

    await signIn(page, main.token);
    expect(await text(page, 'main h1')).toBe('Orders');
    expect(page.url()).not.toContain(main.token);
    expect(await page.content()).not.toContain(main.token);
    for (const link of ['Orders', 'Wallet', 'Settings', 'Sample callback']) {
      await expect(page.locator('nav[aria-label="Account"]').getByRole('link', { name: link }).count()).resolves.toBe(1);
    }
    await page.goto('/account');
    expect(path(page)).toBe('/account/orders');
    expect(JSON.stringify(service.logged)).not.toContain(main.token);
  });

  let liveOrder: number;

  it('shows a live order move from paid to finished after `order-ops complete`, without a reload', async () => {
    liveOrder = await placeOrder(main);
    const { page } = await signedIn(main);
    await page.waitForSelector(statusCell(liveOrder));
    expect(await text(page, statusCell(liveOrder))).toBe('paid');
    // Proof of no reload: a marker on the window survives, and the main frame never navigates.
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: string }).__sameDocument = 'yes';
    });

    // The /ops upload and complete update, exactly what `order-ops complete` sends.
    await completeOrder(liveOrder, 'Speaker 1: Hello world.');
    await page.waitForFunction((selector) => document.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim() === 'finished', statusCell(liveOrder), {
      timeout: 20_000,
    });
    expect(navigations).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: string }).__sameDocument)).toBe('yes');
    // The result links arrive with the status.
    await page.locator(`tr[data-order-id="${liveOrder}"] a[data-kind="transcription"][data-format="text"]`).waitFor({ timeout: 5_000 });
    expect(navigations).toBe(0);
  });

  it("shows a customer's right-to-left text right to left: an Arabic comment on the order's page", async () => {
    // An account of its own: the tests after this one count the main account's orders.
    const account = await service.createAccount(5);
    const placed = await placeOrderOf(service, {
      token: account.token,
      fields: { url: media.audio(30), language: 'arabic', comment: 'يرجى كتابة أسماء المتحدثين.' },
    });
    const { page } = await signedIn(account);
    await page.goto(`/account/orders/${placed.body.order_id}`);
    const comment = page.locator('#parameters dd', { hasText: 'يرجى كتابة' });
    expect(await comment.evaluate((dd) => getComputedStyle(dd).direction)).toBe('rtl');
    // A value in English beside it (the language's name) stays left to right.
    const language = page.locator('#parameters dd[data-param="language"]');
    expect(await language.textContent()).toBe('Arabic');
    expect(await language.evaluate((dd) => getComputedStyle(dd).direction)).toBe('ltr');
    await axeCheck(page);
  });

  it('reads as one page: every parameter named in words, and no resend where no callback can go', async () => {
    // An account without a callback URL, and an order without one.
    const account = await service.createAccount(5);
    const placed = await placeOrderOf(service, {
      token: account.token,
      fields: { url: media.audio(30), language: 'french', turnaround_time: '5_days', text_format: 'full_verbatim', from: 5, till: 25 },
    });
    const { page } = await signedIn(account);
    await page.goto(`/account/orders/${placed.body.order_id}`);
    const labels = (await page.locator('#parameters dt').allTextContents()).map((t) => t.trim());
    expect(labels).toEqual(expect.arrayContaining(['Product', 'Status', 'Media file', 'Language', 'From', 'Until', 'Text format', 'Turnaround', 'Speakers']));
    for (const label of labels) expect(label, 'a label in words').toMatch(/^[A-Z][^_]*$/);
    for (const raw of ['url', 'language', 'turnaround_time', 'turnaround time', 'text_format', 'from', 'till']) expect(labels).not.toContain(raw);
    const value = (param: string) => text(page, `#parameters dd[data-param="${param}"]`);
    expect(await value('language')).toBe('French');
    expect(await value('turnaround_time')).toBe('5 days');
    expect(await value('text_format')).toBe('Full verbatim');
    expect([await value('from'), await value('till')]).toEqual(['00:00:05', '00:00:25']);
    // No callback URL on the order or the account: no resend, and the page says why and where to set one.
    expect(await page.getByRole('button', { name: 'Resend last callback' }).count()).toBe(0);
    expect(await text(page, '#no-callback-url')).toContain('Neither this order nor the account has a callback URL');
    expect(await page.locator('#no-callback-url').getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/account/settings');
    await axeCheck(page);
  });

  it('downloads a result in two formats (text and docx) with the session, not the API token', async () => {
    const { page } = await signedIn(main);
    const row = page.locator(`table#orders tr[data-order-id="${liveOrder}"]`);
    const download = async (format: string) => {
      const link = row.locator(`a[data-kind="transcription"][data-format="${format}"]`);
      const href = (await link.getAttribute('href')) ?? '';
      const [event] = await Promise.all([page.waitForEvent('download'), link.click()]);
      return { name: event.suggestedFilename(), bytes: await readFile(await event.path()), href };
    };
    const txt = await download('text');
    const docx = await download('docx');
    expect(txt.href).toBe(`/account/orders/${liveOrder}/files/transcription?format=text`);
    expect(txt.bytes.length).toBeGreaterThan(0);
    expect(txt.bytes.toString('utf8')).toContain('Hello world.');
    expect(txt.name).toMatch(/\.txt$/);
    expect(docx.bytes.length).toBeGreaterThan(0);
    expect(docx.bytes.subarray(0, 4).toString('binary')).toBe('PK\x03\x04'); // a zip: an Office Open XML document
    expect(docx.name).toMatch(/\.docx$/);
    for (const { href } of [txt, docx]) expect(href).not.toContain('api_token');
    // The same rendering as the API's file route.
    const api = await service.get(`/api/v4/orders/${liveOrder}/files/transcription?format=text&api_token=${main.token}`);
    expect(txt.bytes.equals(api.bytes)).toBe(true);
    // Without the session the link serves nothing.
    const anonymous = await fetch(service.baseUrl + txt.href, { redirect: 'manual' });
    expect(anonymous.status).not.toBe(200);
  });

  let callbackOrder: number;

  it('resends the last callback and shows the new attempt (same webhook-id)', async () => {
    callbackOrder = await placeOrder(main, { callbackUrl: `${receiver.url}/orders` });
    const { page } = await signedIn(main);
    // Before its first callback there is nothing to resend: no button, and the page says so.
    await page.goto(`/account/orders/${callbackOrder}`);
    expect(await page.getByRole('button', { name: 'Resend last callback' }).count()).toBe(0);
    expect(await text(page, 'section[aria-labelledby="callbacks-heading"]')).toContain('No callback has been sent for this order yet.');

    await completeOrder(callbackOrder);
    const first = await waitFor(() => receivedFor(callbackOrder)[0], 'the first callback delivery');
    const webhookId = first.headers['webhook-id'] as string;
    expect(webhookId).toBeTruthy();

    // The attempt is recorded once the receiver has answered: reload until it is listed.
    await waitFor(
      async () => {
        await page.goto(`/account/orders/${callbackOrder}`);
        return (await page.locator('table#callback-attempts tr[data-attempt]').count()) >= 1;
      },
      'the first attempt on the order page',
      15_000,
    );
    expect(await text(page, 'main h1')).toBe(`Order ${callbackOrder}`);
    const before = await page.locator('table#callback-attempts tr[data-attempt]').count();
    expect(before).toBe(1);

    await Promise.all([
      page.waitForURL(`**/account/orders/${callbackOrder}`, { waitUntil: 'load' }),
      page.locator('form#resend').getByRole('button', { name: 'Resend last callback' }).click(),
    ]);
    await page.locator('[role="status"]').first().waitFor();
    expect(path(page)).toBe(`/account/orders/${callbackOrder}`);
    const rows = page.locator('table#callback-attempts tr[data-attempt]');
    expect(await rows.count()).toBe(before + 1);
    const ids = await rows.locator('td[data-field="webhook-id"]').allTextContents();
    expect(ids.map((s) => s.trim())).toEqual([webhookId, webhookId]);
    const calls = receivedFor(callbackOrder);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers['webhook-id']).toBe(webhookId);
    expect(calls[1]?.fields).toEqual(first.fields);
  });

  it('filters the orders by product, status and order id', async () => {
    const { page } = await signedIn(main);
    const ids = async () => page.locator('table#orders tr[data-order-id]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-order-id'))));
    const all = await ids();
    expect(all).toHaveLength(3);
    expect([...all].sort((a, b) => b - a)).toEqual(all); // newest first
    const products = await page.locator('form#order-filter select[name="product"] option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    expect(products).toEqual(
      expect.arrayContaining([
        '',
        'transcription',
        'ai_transcription',
        'transcription_proofreading',
        'forced_alignment',
        'translation',
        'captions',
        'subtitles',
        'human_ocr',
      ]),
    );
    const statuses = await page.locator('form#order-filter select[name="status"] option').evaluateAll((els) => els.map((e) => e.textContent?.trim()));
    expect(statuses).toEqual(['All', 'paid', 'in progress', 'finished', 'refunded', 'canceled', 'in quality check', 'retranscribed']);
    const filter = async (fields: { product?: string; status?: string; q?: string }) => {
      await page.goto('/account/orders');
      if (fields.product) await page.locator('select[name="product"]').selectOption(fields.product);
      if (fields.status) await page.locator('select[name="status"]').selectOption({ label: fields.status });
      if (fields.q) await page.locator('input[name="q"]').fill(fields.q);
      await Promise.all([page.waitForNavigation(), page.locator('form#order-filter').getByRole('button', { name: 'Filter' }).click()]);
      return ids();
    };
    expect(await filter({ product: 'captions' })).toEqual([all[2]]);
    expect(await filter({ status: 'finished' })).toEqual([liveOrder, callbackOrder].sort((a, b) => b - a));
    expect(await filter({ status: 'paid' })).toEqual([all[2]]);
    expect(await filter({ q: String(liveOrder) })).toEqual([liveOrder]);
    expect(await filter({ product: 'translation' })).toEqual([]);
  });

  it('shows a refund and a cancellation without a reload, and filters by every status label', async () => {
    const account = await service.createAccount(20);
    const [toRefund, toCancel, kept, done] = [await placeOrder(account), await placeOrder(account), await placeOrder(account), await placeOrder(account)];
    await completeOrder(done);
    // An engine at work and an order in its quality check (off in this service): written as the worker would.
    const db = service.database.db;
    const direct = async (fulfilment: 'engine' | 'operator') => {
      const id = await nextOrderId(db);
      await chargeWalletForOrder(
        db,
        withResults({
          id,
          accountId: account.accountId,
          product: fulfilment === 'engine' ? 'ai_transcription' : 'transcription',
          priceCents: 50,
          seconds: 60,
          words: 0,
          params: { url: media.audio(60), language: 'english' },
          callbackUrl: null,
          turnaroundHours: 120,
          fulfilment,
          resultKinds: fulfilment === 'engine' ? ['transcription', 'captions'] : ['transcription'],
        }),
      );
      return id;
    };
    const atWork = await direct('engine');
    const checked = await direct('operator');
    const key = (await service.ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: Checked.'))).body.key as string;
    await finishOrder(db, checked, [{ kind: 'transcription', blobKey: key, fileName: 'a.txt' }], 'pending');

    const { page } = await signedIn(account);
    for (const id of [toRefund, toCancel, kept]) expect(await text(page, statusCell(id))).toBe('paid');
    expect(await text(page, statusCell(atWork))).toBe('in progress');
    expect(await text(page, statusCell(checked))).toBe('in quality check');
    expect(await text(page, statusCell(done))).toBe('finished');
    // The delivery estimate is a <time> with its machine-readable instant.
    const estimate = (await getOrder(db, kept))!.deliveryEstimate!;
    expect(await page.locator(`tr[data-order-id="${kept}"] td[data-label="Delivery estimate"] time`).getAttribute('datetime')).toBe(estimate.toISOString());

    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    expect((await service.ops('POST', `/ops/orders/${toRefund}/refund`, { reason: 'silence' })).status).toBe(200);
    expect((await service.ops('POST', `/ops/orders/${toCancel}/cancel`, {})).status).toBe(200);
    const becomes = (id: number, label: string) =>
      page.waitForFunction(
        ([selector, want]) => document.querySelector(selector!)?.textContent?.replace(/\s+/g, ' ').trim() === want,
        [statusCell(id), label] as const,
        { timeout: 20_000 },
      );
    await Promise.all([becomes(toRefund, 'refunded'), becomes(toCancel, 'canceled')]);
    expect(navigations).toBe(0);
    expect(await text(page, statusCell(kept))).toBe('paid');

    // The filter form, as a person uses it (the labels with spaces travel as the form encodes them).
    const ids = async () => page.locator('table#orders tr[data-order-id]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-order-id'))));
    const byStatus = async (label: string) => {
      await page.goto('/account/orders');
      await page.locator('select[name="status"]').selectOption({ label });
      await Promise.all([page.waitForNavigation(), page.locator('form#order-filter').getByRole('button', { name: 'Filter' }).click()]);
      expect(await page.locator('select[name="status"]').inputValue(), label).toBe(label);
      return ids();
    };
    expect(await byStatus('refunded')).toEqual([toRefund]);
    expect(await byStatus('canceled')).toEqual([toCancel]);
    expect(await byStatus('paid')).toEqual([kept]);
    expect(await byStatus('in progress')).toEqual([atWork]);
    expect(await byStatus('in quality check')).toEqual([checked]);
    expect(new URL(page.url()).searchParams.get('status')).toBe('in quality check');
    expect(await byStatus('finished')).toEqual([done]);
    expect(await byStatus('retranscribed')).toEqual([]);
  });

  it("sets the canceled-callbacks switch by the account's creation date: off before 30 March 2026, on from then", async () => {
    for (const [createdAt, on] of [
      ['2026-03-29T23:59:59Z', false],
      ['2026-03-30T00:00:00Z', true],
    ] as const) {
      const account = await service.createAccount(1, { createdAt: new Date(createdAt) });
      const { page } = await signedIn(account);
      await page.goto('/account/settings');
      expect(await page.getByLabel('Send callbacks for canceled orders').isChecked(), createdAt).toBe(on);
      expect(await text(page, '#canceled-hint'), createdAt).toContain(`so its default is ${on ? 'on' : 'off'}`);
    }
  });

  it('changes the callback URL (an address the service refuses is refused here, naming the field)', async () => {
    const account = await service.createAccount(5);
    const { page } = await signedIn(account);
    await page.goto('/account/settings');
    const form = page.locator('form#callback-settings');
    const save = async () => Promise.all([page.waitForNavigation(), form.getByRole('button', { name: 'Save' }).click()]);

    await form.getByLabel('Callback URL').fill(`${receiver.url}/mine`);
    await form.getByLabel('Send callbacks for canceled orders').check();
    await save();
    await page.locator('[role="status"]').first().waitFor();
    let row = await getAccount(service.database.db, account.accountId);
    expect(row?.callbackUrl).toBe(`${receiver.url}/mine`);
    expect(row?.canceledCallbacks).toBe(true);
    await page.goto('/account/settings');
    expect(await page.locator('#callback_url').inputValue()).toBe(`${receiver.url}/mine`);
    expect(await page.locator('#canceled_callbacks').isChecked()).toBe(true);

    // The SSRF guard: private, link-local (cloud metadata) addresses and non-http URLs are refused.
    for (const refused of ['http://10.1.2.3/hook', 'http://169.254.169.254/latest/meta-data', 'ftp://example.com/hook']) {
      await page.locator('#callback_url').fill(refused);
      await save();
      expect(await text(page, '[role="alert"]'), refused).toMatch(/callback[_ ]url/i);
      // Not how the service resolved it: that detail is for operators.
      expect(await text(page, '[role="alert"]'), refused).not.toMatch(/OUTBOUND_ALLOW_CIDRS|10\.0\.0\.0\/8|169\.254\.0\.0\/16/);
      row = await getAccount(service.database.db, account.accountId);
      expect(row?.callbackUrl, refused).toBe(`${receiver.url}/mine`);
    }

    // Empty clears it.
    await page.goto('/account/settings');
    await page.locator('#callback_url').fill('');
    await page.locator('#canceled_callbacks').uncheck();
    await save();
    row = await getAccount(service.database.db, account.accountId);
    expect(row?.callbackUrl ?? null).toBeNull();
    expect(row?.canceledCallbacks).toBe(false);
  });

  it('sends a sample callback to a loopback receiver and shows its answer', async () => {
    const account = await service.createAccount(5);
    const { page } = await signedIn(account);
    await page.goto('/account/sample-callback');
    const form = page.locator('form#sample-callback');
    const options = await page.locator('select#product option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    expect(options).toEqual(
      expect.arrayContaining([
        'transcription',
        'ai_transcription',
        'transcription_proofreading',
        'forced_alignment',
        'translation',
        'captions',
        'subtitles',
        'human_ocr',
      ]),
    );
    expect(await page.locator('select#event option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))).toEqual(
      expect.arrayContaining(['finished', 'refunded', 'canceled']),
    );

    // No URL given and none saved: refused.
    await Promise.all([page.waitForNavigation(), form.getByRole('button', { name: 'Send sample callback' }).click()]);
    await page.locator('[role="alert"]').first().waitFor();

    const send = async (url: string) => {
      await page.locator('select#product').selectOption('captions');
      await page.locator('select#event').selectOption('finished');
      await form.getByLabel('Receiver URL').fill(url);
      await Promise.all([page.waitForNavigation(), form.getByRole('button', { name: 'Send sample callback' }).click()]);
      await page.locator('section#sample-result').waitFor();
    };
    const result = (field: string) => text(page, `section#sample-result [data-field="${field}"]`);

    receiver.script.push({ status: 200, body: 'ok' });
    const count = receiver.received.length;
    await send(`${receiver.url}/sample`);
    expect(await result('status-code')).toBe('200');
    expect(await result('answer')).toBe('ok');
    expect(await result('delivered')).toBe('yes');
    const webhookId = await result('webhook-id');
    expect(webhookId).toMatch(/^msg_sample_/);
    const call = receiver.received.slice(count).find((c) => c.headers['webhook-id'] === webhookId);
    expect(call?.path).toBe('/sample');
    expect(Object.keys(call?.fields ?? {})).toEqual(expect.arrayContaining(['order_id', 'captions_url', 'transcription_url']));

    receiver.script.push({ status: 500, body: 'receiver is down' });
    await send(`${receiver.url}/sample`);
    expect(await result('status-code')).toBe('500');
    expect(await result('answer')).toContain('receiver is down');
    expect(await result('delivered')).toBe('no');

    // The SSRF guard applies to the receiver URL too.
    await page.locator('#url').fill('http://10.1.2.3/hook');
    await Promise.all([page.waitForNavigation(), form.getByRole('button', { name: 'Send sample callback' }).click()]);
    await page.locator('[role="alert"]').first().waitFor();
  });

  it('shows and rotates the signing secret; a sample callback verifies with it', async () => {
    const account = await service.createAccount(5);
    const { page } = await signedIn(account);
    await page.goto('/account/settings');
    const secretAfter = async (form: string, button: string) => {
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/account/settings/secret/')),
        page.locator(form).getByRole('button', { name: button }).click(),
      ]);
      expect(answer.headers()['cache-control'] ?? '').toContain('no-store');
      await page.locator('[data-field="webhook-secret"]').waitFor();
      return text(page, '[data-field="webhook-secret"]');
    };
    const shown = await secretAfter('form#show-secret', 'Show signing secret');
    expect(shown).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const rotated = await secretAfter('form#rotate-secret', 'Rotate signing secret');
    expect(rotated).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated).not.toBe(shown);

    await page.goto('/account/sample-callback');
    await page.locator('#url').fill(`${receiver.url}/signed`);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Send sample callback' }).click()]);
    const webhookId = await text(page, 'section#sample-result [data-field="webhook-id"]');
    const call = receiver.received.find((c) => c.headers['webhook-id'] === webhookId);
    expect(call).toBeDefined();
    const headers = {
      'webhook-id': webhookId,
      'webhook-timestamp': call!.headers['webhook-timestamp'] as string,
      'webhook-signature': call!.headers['webhook-signature'] as string,
    };
    expect(() => new Webhook(rotated).verify(call!.rawBody, headers, { jsonParse: false })).not.toThrow();
  });

  it('rotates the API token: the old one is refused by the API at once, the new one works, the session stays, every other session ends', async () => {
    const account = await service.createAccount(5);
    // Someone else signed in with the same (leaked) token, before the owner rotates it.
    const thief = await signedIn(account);
    const { page } = await signedIn(account);
    await page.goto('/account/settings');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/account/settings/token/rotate'),
      page.locator('form#rotate-token').getByRole('button', { name: 'Rotate API token' }).click(),
    ]);
    expect(answer.headers()['cache-control'] ?? '').toContain('no-store');
    await page.locator('[data-field="api-token"]').waitFor();
    const fresh = await text(page, '[data-field="api-token"]');
    expect(fresh).toMatch(/\S{16,}/);
    expect(fresh).not.toBe(account.token);

    const orders = (token: string) => fetch(`${service.baseUrl}/api/v4/orders?api_token=${encodeURIComponent(token)}&mode=live`);
    const old = await orders(account.token);
    expect(old.status).toBe(400);
    expect(JSON.stringify(await old.json())).toMatch(/invalid token/);
    expect((await orders(fresh)).status).toBe(200);

    // Still signed in; the new token is what "Show API token" shows now.
    await page.goto('/account/orders');
    expect(path(page)).toBe('/account/orders');
    await page.goto('/account/settings');
    await page.locator('form#show-token').getByRole('button', { name: 'Show API token' }).click();
    await page.locator('[data-field="api-token"]').waitFor();
    expect(await text(page, '[data-field="api-token"]')).toBe(fresh);
    // The other session is sent to sign in: it can neither read the orders nor show the new token.
    await thief.page.goto('/account/settings');
    expect(path(thief.page)).toBe('/account/sign-in');
    const show = await thief.context.request.post('/account/settings/token/show', { form: {}, maxRedirects: 0 });
    expect(show.status()).toBe(303);
    expect(await show.text()).not.toContain(fresh);
    expect(service.logged.some((l) => l.message === 'api token rotated' && (l.meta as { sessionsEnded?: number }).sessionsEnded === 1)).toBe(true);
    // The old token no longer signs in; the new one does.
    const other = await freshPage();
    await other.page.goto('/account/sign-in');
    await other.page.locator('#api_token').fill(account.token);
    await Promise.all([other.page.waitForNavigation(), other.page.getByRole('button', { name: 'Sign in' }).click()]);
    expect(path(other.page)).toBe('/account/sign-in');
    await signIn(other.page, fresh);
  });

  it('signs out', async () => {
    const account = await service.createAccount(5);
    const { page } = await signedIn(account);
    await page.goto('/account/wallet');
    await Promise.all([page.waitForNavigation(), page.locator('form#sign-out').getByRole('button', { name: 'Sign out' }).click()]);
    expect(path(page)).toBe('/account/sign-in');
    await page.goto('/account/orders');
    expect(path(page)).toBe('/account/sign-in');
  });

  it("never shows another account's orders, whatever id is typed into a URL", async () => {
    const other = await service.createAccount(10);
    const theirs = [await placeOrder(other), await placeOrder(other)];
    await completeOrder(theirs[0]!);
    const { page } = await signedIn(main);

    const notFound = async (url: string) => {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      return text(page, 'main');
    };
    const nonsense = await notFound('/account/orders/999999999');
    for (const id of theirs) {
      expect(await notFound(`/account/orders/${id}`)).toBe(nonsense);
      expect(await page.content()).not.toContain(`Order ${id}`);
    }
    expect(await notFound('/account/orders/not-an-id')).toBe(nonsense);
    // Their result file, by the session's file route: nothing.
    const file = await page.request.get(`/account/orders/${theirs[0]}/files/transcription?format=text`);
    expect(file.status()).toBe(404);
    // Resend on their order, with this session's valid csrf: refused as not found.
    await page.goto('/account/orders');
    const csrf = await page.locator('form#sign-out input[name="csrf"]').inputValue();
    const resend = await page.request.post(`/account/orders/${theirs[0]}/resend`, { form: { csrf }, maxRedirects: 0 });
    expect(resend.status()).toBe(404);
    // The list, its search and the live status never carry their ids.
    await page.goto('/account/orders');
    const mine = await page.locator('table#orders tr[data-order-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id')));
    expect(mine.length).toBeGreaterThan(0);
    for (const id of theirs) expect(mine).not.toContain(String(id));
    for (const id of theirs) {
      await page.goto(`/account/orders?q=${id}`);
      expect(await page.locator(`tr[data-order-id="${id}"]`).count()).toBe(0);
      // Asked for theirs beside one of its own, the feed answers for its own only.
      const status = await page.request.get(`/account/orders/status.json?ids=${id},${mine[0]}`, { maxRedirects: 0 });
      expect(status.status()).toBe(200);
      expect(status.headers()['content-type'] ?? '').toContain('application/json');
      expect(Object.keys(await status.json())).toEqual([mine[0]]);
    }
  });

  it('refuses a form posted without the CSRF token (403)', async () => {
    const account = await service.createAccount(5, { callbackUrl: `${receiver.url}/kept` });
    const { context, page } = await signedIn(account);
    await page.goto('/account/settings');
    // The browser posts the real form with its csrf input removed.
    await page.evaluate(() => document.querySelectorAll('form#callback-settings input[name="csrf"]').forEach((input) => input.remove()));
    await page.locator('#callback_url').fill(`${receiver.url}/stolen`);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/account/settings/callback'),
      page.locator('form#callback-settings').getByRole('button', { name: 'Save' }).click(),
    ]);
    expect(answer.status()).toBe(403);
    // With the session cookie and no csrf, or a wrong one: 403 too.
    for (const form of [{ callback_url: `${receiver.url}/stolen` }, { callback_url: `${receiver.url}/stolen`, csrf: 'forged' }] as Array<
      Record<string, string>
    >) {
      const posted = await context.request.post('/account/settings/callback', { form, maxRedirects: 0 });
      expect(posted.status()).toBe(403);
    }
    const rotate = await context.request.post('/account/settings/token/rotate', { form: {}, maxRedirects: 0 });
    expect(rotate.status()).toBe(403);
    // The sign-in form too (its token is checked before there is a session).
    const anonymous = await freshPage();
    const signInPost = await anonymous.context.request.post('/account/sign-in', { form: { api_token: account.token }, maxRedirects: 0 });
    expect(signInPost.status()).toBe(403);
    expect((await anonymous.context.cookies()).some((c) => c.name === 'order_session')).toBe(false);
    expect((await getAccount(service.database.db, account.accountId))?.callbackUrl).toBe(`${receiver.url}/kept`);
    expect((await service.get(`/api/v4/orders?api_token=${account.token}&mode=live`)).status).toBe(200);
  });

  it('refuses the session cookie after sign-out', async () => {
    const account = await service.createAccount(5);
    const { context, page } = await signedIn(account);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'order_session');
    expect(session).toBeDefined();
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/account' });
    expect(session!.value).not.toContain(account.token);

    await Promise.all([page.waitForNavigation(), page.locator('form#sign-out').getByRole('button', { name: 'Sign out' }).click()]);
    const replay = await freshPage();
    await replay.context.addCookies(cookies);
    await replay.page.goto('/account/orders');
    expect(path(replay.page)).toBe('/account/sign-in');
    const direct = await fetch(`${service.baseUrl}/account/orders`, { headers: { cookie: `order_session=${session!.value}` }, redirect: 'manual' });
    expect(direct.status).toBe(303);
    expect(new URL(direct.headers.get('location') ?? '', service.baseUrl).pathname).toBe('/account/sign-in');
  });

  describe('each page: the shared shell, no serious accessibility violation (axe), screenshots at phone and desktop width', () => {
    it('sign-in', async () => {
      const { page, requests } = await freshPage();
      await page.goto('/account/sign-in');
      await checkShell(page, requests, false);
      await axeCheck(page);
      screenshots.push(...(await screenshot(page, 'sign-in')));
    });

    it('orders', async () => {
      const { page, requests } = await signedIn(main);
      await checkShell(page, requests, true);
      expect(await page.locator('table#orders tr[data-order-id]').count()).toBe(3);
      // The status cells are announced when they change.
      expect(await page.locator('[aria-live="polite"]').count()).toBeGreaterThan(0);
      const script = await page.request.get('/account/assets/app.js');
      expect(script.status()).toBe(200);
      expect((await script.body()).length).toBeLessThan(10 * 1024);
      await axeCheck(page);
      screenshots.push(...(await screenshot(page, 'orders')));
    });

    it('order', async () => {
      const { page, requests } = await signedIn(main);
      await page.goto(`/account/orders/${callbackOrder}`);
      await checkShell(page, requests, true);
      expect(await page.locator('section#parameters dl').count()).toBe(1);
      expect(await page.locator('ol#timeline li').count()).toBeGreaterThanOrEqual(3);
      expect(await page.locator('table#callback-attempts tr[data-attempt]').count()).toBe(2);
      expect(await page.getByRole('button', { name: 'Resend last callback' }).count()).toBe(1);
      await axeCheck(page);
      screenshots.push(...(await screenshot(page, 'order')));
    });

    it('wallet', async () => {
      const { page, requests } = await signedIn(main);
      await page.goto('/account/wallet');
      await checkShell(page, requests, true);
      const account = await getAccount(service.database.db, main.accountId);
      expect(await text(page, '[data-field="balance"]')).toBe(`$${(Number(account!.balanceCents) / 100).toFixed(2)}`);
      expect(await page.locator('[data-field="ai-minutes"]').count()).toBe(1);
      expect(await page.locator('table#ledger tbody tr').count()).toBeGreaterThanOrEqual(3);
      expect(await page.locator('a#ledger-csv').getAttribute('href')).toBe('/account/wallet.csv');
      const csv = await page.request.get('/account/wallet.csv');
      expect(csv.status()).toBe(200);
      expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
      expect(csv.headers()['content-disposition']).toMatch(/^attachment/);
      await axeCheck(page);
      screenshots.push(...(await screenshot(page, 'wallet')));
    });

    it('settings', async () => {
      const { page, requests } = await signedIn(main);
      await page.goto('/account/settings');
      await checkShell(page, requests, true);
      await axeCheck(page);
      screenshots.push(...(await screenshot(page, 'settings')));
    });

    it('sample callback (with a result)', async () => {
      const { page, requests } = await signedIn(main);
      await page.goto('/account/sample-callback');
      await checkShell(page, requests, true);
      await page.locator('select#product').selectOption('transcription');
      await page.locator('#url').fill(`${receiver.url}/sample`);
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Send sample callback' }).click()]);
      await page.locator('section#sample-result').waitFor();
      await axeCheck(page);
      screenshots.push(...(await screenshot(page, 'sample-callback')));
    });
  });
});
