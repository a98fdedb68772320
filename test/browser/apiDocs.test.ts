// The API reference page /docs in Chromium: Swagger UI renders the OpenAPI document with every
// operation, under the page's own CSP (no bypass), and no request leaves the service's origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import type { Browser } from 'playwright-core';
import { startService, type TestService } from '../helpers/service.js';
import { failOnPageProblems, launchBrowser, newContext } from '../helpers/browser.js';
import { PRODUCT_LIST } from '../../src/products/registry.js';

describeNeeding('chromium', '/docs in Chromium', () => {
  failOnPageProblems();
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    [service, browser] = await Promise.all([startService({ inProcessWorker: false }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('renders every operation from local assets only', async () => {
    const context = await newContext(browser, service.baseUrl);
    const page = await context.newPage();
    const origin = new URL(service.baseUrl).origin;
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.origin !== origin) foreign.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto('/docs');
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 15_000 });
    await page.locator('.opblock').first().waitFor();
    const operations = await page.locator('.opblock').count();
    expect(operations).toBeGreaterThanOrEqual(PRODUCT_LIST.length + 5);
    expect(await page.locator('.swagger-ui .info .title').textContent()).toContain('Order service API');
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
