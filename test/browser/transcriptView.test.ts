// A finished order's transcript beside its media in /account (issue 44, item 4), in Chromium under
// the pages' own CSP: an AI transcription by the user's own speech engine (an OpenAI-compatible
// server on loopback) whose word times are known: every word an element with its times, a press on
// a word plays from it, the word heard carries aria-current while the media plays, and the search box
// marks every match. The media is served as audio, by ranges; another account reads nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startEngineServer, verboseJson, type EngineServer } from '../helpers/engineServer.js';
import { axeCheck, failOnPageProblems, launchBrowser, newContext } from '../helpers/browser.js';
import { waitFor } from '../helpers/net.js';
import { placeOrder } from '../helpers/orders.js';
import { openAiCompatibleEngine } from '../../src/engines/openaiCompatible.js';

const HEARD: Array<[string, number, number, number]> = [
  ['The', 1, 1.3, 0.95],
  ['keeper', 1.3, 1.8, 0.95],
  ['climbed', 1.8, 2.4, 0.95],
  ['the', 2.4, 2.6, 0.95],
  ['stairs.', 2.6, 3.2, 0.95],
  ['Ships', 12, 12.5, 0.95],
  ['passed', 12.5, 13, 0.95],
  ['the', 13, 13.2, 0.95],
  ['lighthouse.', 13.2, 14, 0.95],
];

describeNeeding('chromium', 'the transcript beside its media in /account', () => {
  failOnPageProblems();
  let service: TestService;
  let media: MediaServer;
  let engine: EngineServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [media, engine, browser] = await Promise.all([startMediaServer(), startEngineServer(), launchBrowser()]);
    engine.behaviour = { kind: 'transcript', body: verboseJson(HEARD) };
    service = await startService({
      engines: { speech: openAiCompatibleEngine({ baseUrl: engine.url, model: 'whisper-test' }) },
      rateLimits: { signInPerMinute: 10_000 },
    });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await Promise.all([service?.close(), media?.close(), engine?.close()]);
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

  it('shows the words with their times, plays from a word, marks the word heard, and finds what is searched', async () => {
    const { token } = await service.createAccount(10);
    const { orderId } = await placeOrder(service, { token, path: 'ai-transcriptions', fields: { url: media.audio(30), language: 'english' } });
    await waitFor(
      async () => (await service.get(`/api/v4/orders/${orderId}?api_token=${token}&mode=live`)).body.data.status === 'finished',
      'the finished order',
      60_000,
    );
    const page = await signIn(token);
    await page.goto(`/account/orders/${orderId}`);
    const view = page.getByRole('region', { name: 'Transcript' });
    const words = view.locator('[data-start]');
    expect(
      await words.evaluateAll((els) => els.map((w) => [w.textContent, Number((w as HTMLElement).dataset.start), Number((w as HTMLElement).dataset.end)])),
    ).toEqual(HEARD.map(([w, start, end]) => [w, start, end]));
    await axeCheck(page);

    // The media is audio, served by ranges (the player seeks with them).
    const player = page.locator('#transcript-player');
    await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(30, 0);
    const time = () => player.evaluate((a: HTMLAudioElement) => a.currentTime);

    // A press on a word plays from it; the word heard carries aria-current, one at a time.
    await view.locator('[data-start="12"]').click();
    await expect.poll(time).toBeGreaterThanOrEqual(12);
    await expect.poll(() => view.locator('[aria-current="true"]').allTextContents(), { timeout: 5_000 }).toEqual(['passed']);
    await player.evaluate((a: HTMLAudioElement) => a.pause());
    expect(await view.locator('[aria-current]').count()).toBe(1);

    // The search box marks every match and says how many.
    await page.getByLabel('Search the transcript').fill('the');
    await expect.poll(() => view.locator('mark').allTextContents()).toEqual(['The', 'the', 'the']);
    expect(await page.locator('#transcript-found').textContent()).toBe('3 matches');
    await page.getByLabel('Search the transcript').fill('lighthouse');
    await expect.poll(() => view.locator('mark').allTextContents()).toEqual(['lighthouse']);
    // A phrase is found across words, whatever its case and spacing: each word's part marked.
    await page.getByLabel('Search the transcript').fill('Keeper  CLIMBED th');
    await expect.poll(() => view.locator('mark').allTextContents()).toEqual(['keeper', ' ', 'climbed', ' ', 'th']);
    expect(await page.locator('#transcript-found').textContent()).toBe('1 match');
    await page.getByLabel('Search the transcript').fill('the lighthouse. Ships');
    await expect.poll(() => page.locator('#transcript-found').textContent()).toBe('No match'); // two paragraphs
    await page.getByLabel('Search the transcript').fill('passed the');
    await expect.poll(() => view.locator('mark').allTextContents()).toEqual(['passed', ' ', 'the']);
    await axeCheck(page);

    // The media answers only its own account, and only as audio.
    const direct = await page.request.get(`/account/orders/${orderId}/media`, { headers: { range: 'bytes=0-99' } });
    expect(direct.status()).toBe(206);
    expect(direct.headers()['content-type']).toBe('audio/wav');
    expect(direct.headers()['content-security-policy']).toBe('sandbox');
    const other = await signIn((await service.createAccount(1)).token);
    expect((await other.request.get(`/account/orders/${orderId}/media`)).status()).toBe(404);
    expect((await other.goto(`/account/orders/${orderId}`))!.status()).toBe(404);
  });
});
