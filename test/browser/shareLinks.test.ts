// A finished order shared by a link (issue 44, items 4–6), in Chromium under the pages' own CSP: the
// customer presses "Share" and reads the link in the "Share link" box; a fresh browser with no
// cookies opens it and gets the transcript beside its media (speakers by name, paragraphs without
// word times timed as a whole), the search and every download, and nothing else of the account;
// "Stop sharing" ends it at once, a rotated API token ends a new one; another customer reads nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { axeCheck, failOnPageProblems, launchBrowser, newContext } from '../helpers/browser.js';
import { placeOrder } from '../helpers/orders.js';

const TRANSCRIPT = [
  { speaker: 'Alice Moreau', start: 1, end: 4.5, text: 'The keeper climbed the stairs.' },
  { speaker: 'Bob Lin', start: 12, end: 14, text: 'Ships passed the lighthouse.' },
];

describeNeeding('chromium', 'an order shared by a link', () => {
  failOnPageProblems();
  let service: TestService;
  let media: MediaServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [media, browser] = await Promise.all([startMediaServer(), launchBrowser()]);
    service = await startService({ rateLimits: { signInPerMinute: 10_000 } });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await Promise.all([service?.close(), media?.close()]);
  });

  /** A page of a new browser context: no cookies, no session. */
  async function freshPage(): Promise<Page> {
    const context = await newContext(browser, service.baseUrl);
    contexts.push(context);
    return context.newPage();
  }

  async function signIn(token: string): Promise<Page> {
    const page = await freshPage();
    await page.goto('/account/sign-in');
    await page.locator('form#sign-in').getByLabel('API token').fill(token);
    await Promise.all([page.waitForURL('**/account/orders'), page.locator('form#sign-in').getByRole('button', { name: 'Sign in' }).click()]);
    return page;
  }

  /** Presses "Share" on the order's page (with an expiry, where given) and reads the link from the "Share link" box. */
  async function share(page: Page, orderId: number, expiry?: string): Promise<string> {
    await page.goto(`/account/orders/${orderId}`);
    const sharing = page.getByRole('region', { name: 'Sharing' });
    if (expiry) await sharing.getByLabel('Link expires').selectOption({ label: expiry });
    await Promise.all([page.waitForURL(`**/account/orders/${orderId}`), sharing.getByRole('button', { name: 'Share', exact: true }).click()]);
    return page.getByRole('textbox', { name: 'Share link' }).inputValue();
  }

  it('opens in a fresh browser without signing in, until it is stopped or the API token is rotated; another customer reads nothing', async () => {
    const owner = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token: owner.token, path: 'transcriptions', fields: { url: media.audio(30), language: 'english' } });
    expect((await service.complete(orderId, 'done.json', JSON.stringify(TRANSCRIPT))).status).toBe(200);
    const customer = await signIn(owner.token);

    const link = await share(customer, orderId);
    expect(link).toMatch(/\/shared\/[\w-]{32}$/);
    expect(link).not.toContain(owner.token);
    await axeCheck(customer);

    // A fresh browser: the transcript beside its media, by speaker, each paragraph timed as a whole.
    const guest = await freshPage();
    const opened = await guest.goto(link);
    expect(opened!.status()).toBe(200);
    expect(opened!.headers()['x-robots-tag']).toBe('noindex, nofollow');
    expect(await guest.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    const view = guest.getByRole('region', { name: 'Transcript' });
    expect(await view.locator('.speaker').allTextContents()).toEqual(['Alice Moreau:', 'Bob Lin:']);
    expect(
      await view
        .locator('[data-start]')
        .evaluateAll((els) => els.map((w) => [w.textContent, Number((w as HTMLElement).dataset.start), Number((w as HTMLElement).dataset.end)])),
    ).toEqual(TRANSCRIPT.map((s) => [s.text, s.start, s.end]));
    const player = guest.locator('#transcript-player');
    await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(30, 0);
    await view.getByText('Ships passed the lighthouse.').click();
    await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThanOrEqual(12);
    await expect.poll(() => view.locator('[aria-current="true"]').allTextContents()).toEqual(['Ships passed the lighthouse.']);
    await player.evaluate((a: HTMLAudioElement) => a.pause());
    await guest.getByLabel('Search the transcript').fill('the');
    await expect.poll(() => guest.locator('#transcript-found').textContent()).toBe('3 matches');
    expect(await view.locator('mark').allTextContents()).toEqual(['The', 'the', 'the']);
    await axeCheck(guest);

    // Every format downloads from the page; the text one holds the transcript.
    const downloads = guest.getByRole('region', { name: 'Downloads' }).getByRole('link');
    expect(await downloads.allTextContents()).toEqual(['docx', 'doc', 'pdf', 'text', 'html', 'json', 'json2']);
    const [download] = await Promise.all([guest.waitForEvent('download'), downloads.getByText('text', { exact: true }).click()]);
    expect(await readFile((await download.path())!, 'utf8')).toContain('Bob Lin');

    // Nothing else of the account: no navigation, no token, no price, and /account still asks to sign in.
    const content = await guest.content();
    expect(content).not.toContain(owner.token);
    expect(await guest.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(content).not.toMatch(/\$\d/);
    await guest.goto(`/account/orders/${orderId}`);
    expect(new URL(guest.url()).pathname).toBe('/account/sign-in');

    // Another customer reads nothing of it.
    const other = await signIn((await service.createAccount(1)).token);
    expect((await other.goto(`/account/orders/${orderId}`))!.status()).toBe(404);
    expect((await other.request.get(`/account/orders/${orderId}/files/transcription?format=text`)).status()).toBe(404);
    await other.goto('/account/settings');
    expect(await other.getByRole('region', { name: 'Shared links' }).textContent()).toContain('No order is shared.');

    // Stop sharing: the link answers 404 at once, its media and files too.
    await customer.goto(`/account/orders/${orderId}`);
    await Promise.all([customer.waitForURL(`**/account/orders/${orderId}`), customer.getByRole('button', { name: 'Stop sharing' }).click()]);
    await expect.poll(() => customer.getByRole('status').first().textContent()).toContain('Sharing stopped');
    expect((await guest.goto(link))!.status()).toBe(404);
    expect((await guest.request.get(`${link}/media`)).status()).toBe(404);

    // A new link with an expiry, listed on the account's settings page; rotating the API token there ends it.
    const second = await share(customer, orderId, 'After 7 days');
    expect(second).not.toBe(link);
    expect(await customer.getByRole('region', { name: 'Sharing' }).textContent()).toMatch(/expires \d{4}-\d\d-\d\d/);
    expect((await guest.goto(second))!.status()).toBe(200);
    await customer.goto('/account/settings');
    expect(await customer.getByRole('textbox', { name: `Share link of order ${orderId}` }).inputValue()).toBe(second);
    await axeCheck(customer);
    await customer.locator('form#rotate-token').getByRole('button', { name: 'Rotate API token' }).click();
    await expect.poll(() => customer.getByRole('status').first().textContent()).toContain('1 share link was ended.');
    expect((await guest.goto(second))!.status()).toBe(404);
    expect(await customer.getByRole('region', { name: 'Shared links' }).textContent()).toContain('No order is shared.');
  });
});
