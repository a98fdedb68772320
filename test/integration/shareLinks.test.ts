// Share links over HTTP (issue 44, item 5), on each database: a finished order shared from its page
// opens without signing in, by a token of its own, with noindex; it can expire (410); "Stop sharing"
// and a rotated API token end it at once (404); another account can neither share nor stop it; reads
// are limited per link and unknown links per address; the token never reaches a log line.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { parse } from 'node-html-parser';
import { describeOnEachDatabase } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startDocumentServer, type DocumentServer } from '../helpers/documents.js';
import { placeOrder } from '../helpers/orders.js';
import { WorkerSession } from '../helpers/workerSession.js';
import { shareLinks } from '../../src/db/schema.js';

const TRANSCRIPT = [
  { speaker: 'Alice Moreau', start: 1, end: 4.5, text: 'The keeper climbed the stairs.' },
  { speaker: 'Bob Lin', start: 12, end: 14, text: 'Ships passed the lighthouse.' },
];
const READS_PER_MINUTE = 40;
const MISSES_PER_MINUTE = 20;

describeOnEachDatabase('share links', (engine) => {
  let service: TestService;
  let media: MediaServer;
  let docs: DocumentServer;

  beforeAll(async () => {
    [media, docs] = await Promise.all([startMediaServer(), startDocumentServer()]);
    service = await startService({
      engine,
      rateLimits: { signInPerMinute: 10_000, readsPerMinute: READS_PER_MINUTE, failedAuthPerMinute: MISSES_PER_MINUTE },
    });
  });
  afterAll(async () => {
    await Promise.all([service?.close(), media?.close(), docs?.close()]);
  });

  /** A finished human transcription of `token`'s account, completed as order-ops does with a JSON transcript. */
  async function finishedOrder(token: string): Promise<number> {
    const { orderId } = await placeOrder(service, { token, path: 'transcriptions', fields: { url: media.audio(30), language: 'english' } });
    const completed = await service.complete(orderId, 'done.json', JSON.stringify(TRANSCRIPT));
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    return orderId;
  }

  /** Shares the order from its page; the link the page then shows in the "Share link" box. */
  async function share(customer: WorkerSession, orderId: number, expiresInDays = ''): Promise<string> {
    await customer.request('GET', `/account/orders/${orderId}`);
    const shared = await customer.request('POST', `/account/orders/${orderId}/share`, { expires_in_days: expiresInDays });
    expect(shared.status).toBe(303);
    const page = parse((await customer.request('GET', `/account/orders/${orderId}`)).text);
    const box = page.querySelector('input#share-link');
    expect(page.querySelector('label[for="share-link"]')?.text).toBe('Share link');
    return box!.getAttribute('value')!;
  }

  const open = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });
  const pathOf = (url: string) => new URL(url).pathname;

  it('opens without signing in, as the order and nothing else of the account, asking not to be indexed', async () => {
    const { token } = await service.createAccount(20);
    const orderId = await finishedOrder(token);
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    const link = await share(customer, orderId);
    expect(link).toMatch(new RegExp(`^${service.baseUrl}/shared/[\\w-]{32}$`));
    expect(link).not.toContain(token);

    const answer = await open(link);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(answer.headers.get('set-cookie')).toBeNull();
    const text = await answer.text();
    const page = parse(text);
    expect(page.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow');
    // The transcript by speaker, each paragraph timed as a whole (it has no word times).
    expect(page.querySelectorAll('#transcript .speaker').map((s) => s.text)).toEqual(['Alice Moreau:', 'Bob Lin:']);
    expect(page.querySelectorAll('#transcript [data-start]').map((w) => [w.getAttribute('data-start'), w.getAttribute('data-end'), w.text])).toEqual(
      TRANSCRIPT.map((s) => [String(s.start), String(s.end), s.text]),
    );
    // Nothing of the account: no navigation, no token, no price, no callback, no link into /account but its assets.
    expect(text).not.toContain(token);
    expect(text).not.toMatch(/\$\d|Sign out|callback|Wallet/i);
    expect(
      page
        .querySelectorAll('a[href]')
        .map((a) => a.getAttribute('href')!)
        .filter((href) => href.startsWith('/account')),
    ).toEqual([]);

    // Every format of the order, downloadable by the link: the same bytes as the account's own link.
    const downloads = page.querySelectorAll('#result-files a[href]').map((a) => a.getAttribute('href')!);
    expect(downloads.length).toBeGreaterThanOrEqual(5);
    for (const href of downloads) {
      expect(href.startsWith(`${pathOf(link)}/files/`)).toBe(true);
      const file = await open(service.baseUrl + href);
      expect(file.status, href).toBe(200);
      expect(file.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      const own = await customer.request('GET', href.replace(pathOf(link), `/account/orders/${orderId}`));
      expect(own.status).toBe(200);
      if (href.endsWith('format=txt')) expect(await file.text()).toContain('The keeper climbed the stairs.');
    }
    // The media, by ranges, as what its bytes are.
    const media = await open(`${link}/media`, { range: 'bytes=0-99' });
    expect(media.status).toBe(206);
    expect(media.headers.get('content-type')).toBe('audio/wav');
    expect(media.headers.get('content-security-policy')).toBe('sandbox');
    expect(media.headers.get('cache-control')).toBe('no-cache');
    await media.arrayBuffer();

    // The share token never reaches a log line.
    const secret = pathOf(link).split('/')[2]!;
    expect(JSON.stringify(service.logged)).not.toContain(secret);
    expect(service.logged.some((l) => l.message === 'http' && (l.meta as { path: string }).path === '/shared/…')).toBe(true);

    // Listed on the account's settings page, with its link.
    const settings = parse((await customer.request('GET', '/account/settings')).text);
    expect(settings.querySelector(`li[data-order="${orderId}"] input.share-link`)?.getAttribute('value')).toBe(link);
  });

  it("shows a proofreading's transcript beside its media, each paragraph timed as a whole, by the account's page and by its link", async () => {
    const { token } = await service.createAccount(20);
    const transcriptionUrl = docs.serve('/supplied.txt', 'Alice Moreau: The keeper climed the stairs.', 'text/plain');
    const { orderId } = await placeOrder(service, {
      token,
      path: 'transcription-proofreadings',
      fields: { audio_url: media.audio(30), transcription_url: transcriptionUrl, language: 'english' },
    });
    const completed = await service.complete(orderId, 'proofread.json', JSON.stringify(TRANSCRIPT), ['proofread_transcription']);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    const link = await share(customer, orderId);
    for (const [path, who] of [
      [`/account/orders/${orderId}`, customer],
      [pathOf(link), undefined],
    ] as const) {
      const text = who ? (await who.request('GET', path)).text : await (await open(service.baseUrl + path)).text();
      const page = parse(text);
      expect(page.querySelector('#transcript-player')?.getAttribute('src'), path).toBe(`${path}/media`);
      expect(page.querySelectorAll('#transcript .speaker').map((s) => s.text)).toEqual(['Alice Moreau:', 'Bob Lin:']);
      expect(page.querySelectorAll('#transcript [data-start]').map((w) => [w.getAttribute('data-start'), w.getAttribute('data-end')])).toEqual(
        TRANSCRIPT.map((s) => [String(s.start), String(s.end)]),
      );
    }
    expect((await open(`${link}/media`, { range: 'bytes=0-3' })).status).toBe(206);
  });

  it('ends at once when sharing stops, and can expire', async () => {
    const { token } = await service.createAccount(20);
    const orderId = await finishedOrder(token);
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    const first = await share(customer, orderId);
    // Sharing again keeps the one link.
    expect(await share(customer, orderId)).toBe(first);
    expect((await open(first)).status).toBe(200);

    const stopped = await customer.request('POST', `/account/orders/${orderId}/share/stop`, {});
    expect(stopped.status).toBe(303);
    for (const path of ['', '/media', '/files/transcription?format=txt']) expect((await open(first + path)).status, path).toBe(404);
    expect(parse((await customer.request('GET', '/account/settings')).text).querySelector('#nothing-shared')).not.toBeNull();

    // A new link with an expiry: a new token, the old one stays dead; past its time it answers 410.
    const second = await share(customer, orderId, '7');
    expect(second).not.toBe(first);
    expect((await open(first)).status).toBe(404);
    expect((await open(second)).status).toBe(200);
    const [row] = await service.database.db.select().from(shareLinks).where(eq(shareLinks.orderId, orderId));
    expect(row!.expiresAt!.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    await service.database.db
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shareLinks.orderId, orderId));
    const expired = await open(second);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This share link has expired.');

    // An expiry that is not a number of days is refused, naming the field.
    const refused = await customer.request('POST', `/account/orders/${orderId}/share`, { expires_in_days: 'soon' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('expires_in_days');
  });

  it('ends with the API token, and is the account’s own: another account can neither share nor stop it', async () => {
    const owner = await service.createAccount(20);
    const [one, two] = [await finishedOrder(owner.token), await finishedOrder(owner.token)];
    const customer = await WorkerSession.signInToAccount(service.baseUrl, owner.token);
    const links = [await share(customer, one), await share(customer, two)];

    const other = await WorkerSession.signInToAccount(service.baseUrl, (await service.createAccount(1)).token);
    await other.request('GET', '/account/settings');
    expect((await other.request('POST', `/account/orders/${one}/share`, { expires_in_days: '' })).status).toBe(404);
    expect((await other.request('POST', `/account/orders/${one}/share/stop`, {})).status).toBe(404);
    expect((await other.request('GET', '/account/settings')).text).not.toContain(pathOf(links[0]!));
    expect((await open(links[0]!)).status).toBe(200);

    await customer.request('GET', '/account/settings');
    const rotated = await customer.request('POST', '/account/settings/token/rotate', {});
    expect(rotated.status).toBe(200);
    expect(rotated.text).toContain('2 share links were ended.');
    for (const link of links) expect((await open(link)).status).toBe(404);
    expect(parse((await customer.request('GET', '/account/settings')).text).querySelector('#nothing-shared')).not.toBeNull();
  });

  it('limits reads per link, and links that open nothing per address', async () => {
    const { token } = await service.createAccount(20);
    const customer = await WorkerSession.signInToAccount(service.baseUrl, token);
    const link = await share(customer, await finishedOrder(token));
    const statuses: number[] = [];
    for (let n = 0; n <= READS_PER_MINUTE; n++) statuses.push((await open(link)).status);
    expect(statuses.slice(0, READS_PER_MINUTE).every((s) => s === 200)).toBe(true);
    const limited = await open(link);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // Guesses from one address (the earlier tests' stopped links counted too): 404s, then 429.
    const guesses: number[] = [];
    for (let n = 0; n <= MISSES_PER_MINUTE && guesses.at(-1) !== 429; n++) guesses.push((await open(`${service.baseUrl}/shared/${'A'.repeat(30)}${n}`)).status);
    expect(guesses.at(-1)).toBe(429);
    expect(new Set(guesses.slice(0, -1))).toEqual(new Set([404]));
    // A live link still opens from that address only once its own reads allow: the guesses do not touch it.
    expect((await open(`${service.baseUrl}/shared/${'A'.repeat(32)}`)).status).toBe(429);
  });
});
