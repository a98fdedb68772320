// Deleting an order's data from the account area (issue 53, items 4 and 5) in Chromium, under the
// pages' real CSP: Settings' "Delete orders' data after"; a finished order's "Delete", which asks
// first ("cannot be undone", Delete or Cancel) with no script of its own, then shows the order
// deleted with no download, player or share left, in its page and in the list. The run writes the
// screenshots docs/screenshots/delete-order-*.png and order-deleted-*.png.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { axeCheck, failOnPageProblems, launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import { englishAudio, placeOrder } from '../helpers/orders.js';

const TRANSCRIPT = [{ speaker: 'Alice Moreau', start: 1, end: 4.5, text: 'The keeper climbed the stairs.' }];

const path = (page: Page) => new URL(page.url()).pathname;
const textOf = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

describeNeeding('chromium', "an order's data deleted in Chromium", () => {
  failOnPageProblems();
  let service: TestService;
  let media: MediaServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const screenshots: string[] = [];

  beforeAll(async () => {
    [service, media, browser] = await Promise.all([startService({ rateLimits: { signInPerMinute: 10_000 } }), startMediaServer(), launchBrowser()]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await Promise.all([service?.close(), media?.close()]);
    if (screenshots.length) console.log(`screenshots written:\n  ${screenshots.join('\n  ')}`);
  });

  async function signIn(token: string): Promise<Page> {
    const context = await newContext(browser, service.baseUrl);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/account/sign-in');
    await page.locator('form#sign-in').getByLabel('API token').fill(token);
    await Promise.all([page.waitForURL('**/account/orders'), page.locator('form#sign-in').getByRole('button', { name: 'Sign in' }).click()]);
    return page;
  }

  it('Settings sets the rule; Delete asks to confirm ("cannot be undone"), Cancel keeps, Delete deletes; the order then shows deleted', async () => {
    const { token } = await service.createAccount(20);
    const page = await signIn(token);

    await page.goto('/account/settings');
    const rule = page.getByLabel("Delete orders' data after");
    expect(await rule.inputValue()).toBe('');
    await rule.fill('14');
    await Promise.all([page.waitForURL('**/account/settings'), page.locator('form#deletion-settings').getByRole('button', { name: 'Save' }).click()]);
    expect(await textOf(page, '[role="status"]')).toContain('orders placed from now on have their data deleted 14 days after');
    expect(await page.getByLabel("Delete orders' data after").inputValue()).toBe('14');
    await axeCheck(page);

    const { orderId } = await placeOrder(service, { token, fields: englishAudio(media, 30) });
    expect((await service.complete(orderId, 'done.json', JSON.stringify(TRANSCRIPT))).status).toBe(200);
    await page.goto(`/account/orders/${orderId}`);
    const downloads = page.locator('#result-files a[data-kind]');
    expect(await downloads.count()).toBeGreaterThan(0);
    expect(await page.locator('#transcript-player').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Share', exact: true }).count()).toBe(1);
    expect(await textOf(page, '[data-field="deletion"]')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/); // 14 days after it finished
    await axeCheck(page);

    // Delete asks first; Cancel goes back with nothing deleted.
    await Promise.all([page.waitForURL(`**/account/orders/${orderId}/delete`), page.getByRole('button', { name: 'Delete', exact: true }).click()]);
    expect(await textOf(page, 'main h1')).toBe(`Delete order ${orderId}'s data?`);
    expect(await textOf(page, '#delete-confirmation')).toContain('This cannot be undone.');
    await axeCheck(page);
    screenshots.push(...(await screenshot(page, 'delete-order')));
    await Promise.all([page.waitForURL(`**/account/orders/${orderId}`), page.getByRole('link', { name: 'Cancel' }).click()]);
    expect(await downloads.count()).toBeGreaterThan(0);

    await Promise.all([page.waitForURL(`**/account/orders/${orderId}/delete`), page.getByRole('button', { name: 'Delete', exact: true }).click()]);
    await Promise.all([page.waitForURL(`**/account/orders/${orderId}`), page.getByRole('button', { name: 'Delete', exact: true }).click()]);
    expect(await textOf(page, '[role="status"]')).toContain("This order's data was deleted");
    expect(await textOf(page, '#parameters [data-field="status"]')).toMatch(/^finished · Deleted \d{4}-/);
    expect(await page.locator('a[data-kind]').count()).toBe(0);
    expect(await page.locator('audio').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Sharing' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    expect(await textOf(page, '#parameters')).toContain('Price');
    await axeCheck(page);
    screenshots.push(...(await screenshot(page, 'order-deleted')));

    await page.goto('/account/orders');
    expect(path(page)).toBe('/account/orders');
    const row = page.locator(`tr[data-order-id="${orderId}"]`);
    expect(((await row.locator('[data-field="status"]').textContent()) ?? '').replace(/\s+/g, ' ').trim()).toMatch(/^finished · Deleted /);
    expect(await row.locator('a[data-kind]').count()).toBe(0);
    await axeCheck(page);
  });
});
