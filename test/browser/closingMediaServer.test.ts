// A share link's media whose customer server answers HTTP/1.0 and closes the connection after the
// body, as python's http.server does (issue 51: the first play of such a link took the whole service
// down). In Chromium under the pages' own CSP: a visitor with no session plays it from a paragraph,
// and the service goes on answering.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { failOnPageProblems, launchBrowser, newContext } from '../helpers/browser.js';
import { startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehavingServer.js';
import { wavFile } from '../helpers/mediaServer.js';
import { placeOrder } from '../helpers/orders.js';
import { WorkerSession } from '../helpers/workerSession.js';

const TRANSCRIPT = [
  { speaker: 'Alice Moreau', start: 1, end: 4.5, text: 'The keeper climbed the stairs.' },
  { speaker: 'Bob Lin', start: 12, end: 14, text: 'Ships passed the lighthouse.' },
];

describeNeeding('chromium', 'a share link whose media server closes after the body', () => {
  failOnPageProblems();
  let service: TestService;
  let server: MisbehavingServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser, service] = await Promise.all([startMisbehavingServer(wavFile(20)), launchBrowser(), startService()]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([service?.close(), server?.close()]);
  });

  it('plays in a fresh browser, kept on its first play, and the service answers on', async () => {
    const { token } = await service.createAccount(20);
    const { orderId } = await placeOrder(service, { token, path: 'transcriptions', fields: { url: server.url('http10-close'), language: 'english' } });
    expect((await service.complete(orderId, 'done.json', JSON.stringify(TRANSCRIPT))).status).toBe(200);
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    await customer.request('GET', `/account/orders/${orderId}`);
    expect((await customer.request('POST', `/account/orders/${orderId}/share`, { expires_in_days: '' })).status).toBe(303);
    const link = /\/shared\/[\w-]{32}/.exec((await customer.request('GET', `/account/orders/${orderId}`)).text)![0];
    const fetchesBefore = server.requests.get('http10-close') ?? 0;

    const context = await newContext(browser, service.baseUrl);
    const guest = await context.newPage();
    expect((await guest.goto(link))!.status()).toBe(200);
    const player = guest.locator('#transcript-player');
    await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.duration), { timeout: 20_000 }).toBeCloseTo(20, 0);
    await guest.getByRole('region', { name: 'Transcript' }).getByText('Ships passed the lighthouse.').click();
    await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThanOrEqual(12);
    await player.evaluate((a: HTMLAudioElement) => a.pause());
    // Fetched from the customer's server once (the play's ranges read the kept copy), and the service is up.
    expect(server.requests.get('http10-close')! - fetchesBefore).toBe(1);
    expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
    await context.close();
  });
});
