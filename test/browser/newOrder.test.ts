// Ordering from the account area in Chromium (issue 52, item 6), under the pages' real CSP: a WAV
// uploaded by tus over a network throttled through the DevTools protocol, its progress bar rising,
// a reload half-way and the same file picked again resuming where the service had it, the price and
// the balance after it, and "Place order" charging once for a double click and for a retry after a
// lost answer. Then several dropped files making several orders. The endpoints themselves are
// tested over HTTP in test/integration/newOrder.test.ts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { wavFile } from '../helpers/mediaServer.js';
import { axeCheck, failOnPageProblems, launchBrowser, newContext, screenshot, takePageProblems } from '../helpers/browser.js';
import { ledgerEntries, orders } from '../../src/db/schema.js';
import { getAccount } from '../../src/db/accounts.js';

/** Bytes a second the throttled browser sends: a 3.2 MB file takes about 12 s. */
const UPLOAD_BYTES_PER_SECOND = 256 * 1024;

describeNeeding('chromium', 'new order in Chromium', () => {
  failOnPageProblems();
  let service: TestService;
  let browser: Browser;
  let dir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [service, browser, dir] = await Promise.all([
      startService({ rateLimits: { signInPerMinute: 10_000 } }),
      launchBrowser(),
      mkdtemp(join(tmpdir(), 'new-order-')),
    ]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await service?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function signedInPage(token: string): Promise<Page> {
    const context = await newContext(browser, service.baseUrl);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/account/sign-in');
    await page.getByLabel('API token').fill(token);
    await Promise.all([page.waitForURL('**/account/orders'), page.getByRole('button', { name: 'Sign in' }).click()]);
    await Promise.all([page.waitForURL('**/account/orders/new'), page.getByRole('link', { name: 'New order' }).click()]);
    return page;
  }

  const progressOf = async (page: Page) => Number(await page.getByRole('progressbar').first().getAttribute('aria-valuenow'));
  const chargesOf = (accountId: number) =>
    service.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.kind, 'charge')));
  const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

  it('uploads with a progress bar, resumes after a reload, shows the price and balance, and charges once', { timeout: 90_000 }, async () => {
    const account = await service.createAccount(50);
    const wav = wavFile(400); // 3.2 MB
    const path = join(dir, 'interview.wav');
    await writeFile(path, wav);
    const page = await signedInPage(account.token);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: UPLOAD_BYTES_PER_SECOND });

    // What the tus requests say: the offsets the service reports (HEAD) and those each PATCH starts at.
    const headOffsets: number[] = [];
    const patchOffsets: number[] = [];
    const patchBytes: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'HEAD' && response.url().includes('/account/uploads/')) headOffsets.push(Number(response.headers()['upload-offset']));
    });
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patchOffsets.push(Number(request.headers()['upload-offset']));
    });
    page.on('requestfinished', (request) => {
      if (request.method() === 'PATCH') void request.allHeaders().then((headers) => patchBytes.push(Number(headers['content-length'])));
    });

    await expect(page.getByLabel('Product').inputValue()).resolves.toBe('transcription');
    await expect(page.getByLabel('Language', { exact: true }).inputValue()).resolves.toBe('english');
    await page.locator('#files').setInputFiles(path);
    const bar = page.getByRole('progressbar', { name: 'Upload of interview.wav' });
    await expect(bar.getAttribute('aria-valuemin')).resolves.toBe('0');
    await expect(bar.getAttribute('aria-valuemax')).resolves.toBe('100');
    // The bar rises as the bytes go, step by step within the one 8 MB PATCH.
    await page.waitForFunction(() => Number(document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')) >= 10);
    const early = await progressOf(page);
    // Options chosen while it uploads.
    await page.getByLabel('Turnaround', { exact: true }).selectOption({ label: '3 days' });
    await page.waitForFunction(() => Number(document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')) >= 40, undefined, {
      timeout: 20_000,
    });
    const beforeReload = await progressOf(page);
    expect(beforeReload).toBeGreaterThan(early);
    expect(beforeReload).toBeLessThan(80);
    expect(await page.locator('.progress-text').first().textContent()).toMatch(/^\d+% of 3\.2 MB$/);

    await page.reload();
    await expect(page.getByRole('progressbar').count()).resolves.toBe(0);
    await page.locator('#files').setInputFiles(path);
    // It goes on from where the service had it: a HEAD, then a PATCH from that offset, not from 0.
    await page.waitForFunction(() => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') === '100', undefined, { timeout: 30_000 });
    expect(headOffsets.length).toBe(1);
    const resumedAt = headOffsets[0]!;
    expect(resumedAt).toBeGreaterThan(wav.length * 0.3);
    expect(patchOffsets).toEqual([0, resumedAt]);
    // So the service received the file once over (the bytes before the reload and the PATCH after
    // it), far fewer than twice its size, and whole.
    await expect.poll(() => patchBytes).toEqual([wav.length - resumedAt]);
    const id = (await page.evaluate(() => Object.keys(localStorage).map((k) => JSON.parse(localStorage.getItem(k)!).uploadUrl as string)))[0]!
      .split('/')
      .pop()!;
    expect((await readFile(join(service.dataDir, 'files', 'uploads', id))).equals(wav)).toBe(true);

    // The price of the options chosen before the reload (the page's own after it: chosen again), and the balance after it.
    await page.getByLabel('Turnaround', { exact: true }).selectOption({ label: '3 days' });
    const price = page.locator('#uploads [data-field="price"]');
    await page.waitForFunction(() => /^Price \$\d+\.\d\d$/.test(document.querySelector('#uploads [data-field="price"]')?.textContent ?? ''));
    const priceCents = Math.round(Number((await price.textContent())!.replace('Price $', '')) * 100);
    expect(priceCents).toBeGreaterThan(0);
    await expect(page.locator('#totals [data-field="balance"]').textContent()).resolves.toBe('$50.00');
    await expect(page.locator('#totals [data-field="balance-after"]').textContent()).resolves.toBe(usd(5000 - priceCents));
    // A change of options asks again: 12 hours costs more.
    await page.getByLabel('Turnaround', { exact: true }).selectOption({ label: '12 hours' });
    await page.waitForFunction(
      (old) => {
        const text = document.querySelector('#uploads [data-field="price"]')?.textContent ?? '';
        return /^Price/.test(text) && text !== old;
      },
      `Price ${usd(priceCents)}`,
    );
    const fasterCents = Math.round(Number((await price.textContent())!.replace('Price $', '')) * 100);
    expect(fasterCents).toBeGreaterThan(priceCents);
    await axeCheck(page);
    await screenshot(page, 'new-order');

    // The first answer is lost on its way back (the order is placed): the page says so and keeps the key.
    let placements = 0;
    await page.route('**/account/orders/new/place', async (route) => {
      placements++;
      if (placements > 1) return route.continue();
      await route.fetch();
      await route.abort('connectionfailed');
    });
    await page.getByRole('button', { name: 'Place order' }).dblclick();
    await page.locator('#uploads .upload-status', { hasText: 'The service could not be reached' }).waitFor();
    expect(takePageProblems().filter((problem) => !/\/account\/orders\/new\/place failed/.test(problem))).toEqual([]);
    // The retry gets the same order, and the order's page.
    await Promise.all([page.waitForURL(/\/account\/orders\/\d+$/), page.getByRole('button', { name: 'Place order' }).click()]);
    expect(placements).toBe(2);
    const orderId = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.locator('main h1').textContent()).resolves.toBe(`Order ${orderId}`);
    const placed = await service.database.db.select().from(orders).where(eq(orders.accountId, account.accountId));
    expect(placed.map((o) => [o.id, o.product, o.params.turnaround_time, o.seconds])).toEqual([[orderId, 'transcription', '12_hours', 400]]);
    expect((await chargesOf(account.accountId)).map((c) => [c.orderId, -c.amountCents])).toEqual([[orderId, fasterCents]]);
    expect((await getAccount(service.database.db, account.accountId))!.balanceCents).toBe(5000 - fasterCents);
  });

  it('takes dropped files, one order each, and lists the orders placed', async () => {
    const account = await service.createAccount(50);
    const page = await signedInPage(account.token);
    await page.getByLabel('Product').selectOption({ label: 'AI transcription' });
    await expect(page.getByLabel('Turnaround', { exact: true }).count()).resolves.toBe(0); // AI transcription has none
    // Dropped as a person drops files from their desktop: a drop event carrying them.
    const bytes = wavFile(30).toString('base64');
    await page.evaluate((base64) => {
      const wav = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const files = new DataTransfer();
      for (const name of ['first.wav', 'second.wav']) files.items.add(new File([wav], name, { type: 'audio/wav' }));
      document.getElementById('drop-zone')!.dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true }));
    }, bytes);
    await expect(page.locator('#uploads li').count()).resolves.toBe(2);
    await page.waitForFunction(() => [...document.querySelectorAll('#uploads [data-field="price"]')].every((p) => /^Price/.test(p.textContent ?? '')));
    await page.waitForFunction(() => !(document.getElementById('place-order') as HTMLButtonElement).disabled);
    await page.getByRole('button', { name: 'Place order' }).click();
    const links = page.locator('#placed a');
    await links.first().waitFor();
    const ids = (await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).map((href) => Number(href!.split('/').pop()));
    expect(ids).toHaveLength(2);
    const charged = await chargesOf(account.accountId);
    expect(charged.map((c) => c.orderId).sort()).toEqual([...ids].sort());
    await axeCheck(page);
  });

  it("asks each file's transcript where the product takes two files (proofreading)", async () => {
    const account = await service.createAccount(50);
    const page = await signedInPage(account.token);
    await page.getByLabel('Product').selectOption({ label: 'Transcription proofreading' });
    const audio = join(dir, 'meeting.wav');
    const transcript = join(dir, 'meeting.txt');
    await writeFile(audio, wavFile(60));
    await writeFile(transcript, 'Speaker 1: Good morning, and welcome to the meeting.\n');
    await page.locator('#files').setInputFiles(audio);
    await page.getByRole('progressbar', { name: 'Upload of meeting.wav' }).waitFor();
    // No price before the transcript: the order needs both.
    await page.waitForFunction(() => document.querySelector('#uploads [role="progressbar"]')?.getAttribute('aria-valuenow') === '100');
    await expect(page.locator('#uploads [data-field="price"]').textContent()).resolves.toBe('');
    await expect(page.getByRole('button', { name: 'Place order' }).isDisabled()).resolves.toBe(true);
    await page.getByLabel('Transcript for meeting.wav').setInputFiles(transcript);
    await page.waitForFunction(() => /^Price \$\d+\.\d\d$/.test(document.querySelector('#uploads [data-field="price"]')?.textContent ?? ''));
    await expect(page.getByRole('progressbar', { name: 'Upload of the transcript for meeting.wav' }).getAttribute('aria-valuenow')).resolves.toBe('100');
    await expect(page.getByRole('button', { name: 'Place order' }).isEnabled()).resolves.toBe(true);
    await axeCheck(page);
  });
});
