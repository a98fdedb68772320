// Share links over HTTP (issue 44, item 5), on each database: a finished order shared from its page
// opens without signing in, by a token of its own, with noindex; it can expire (410); "Stop sharing"
// and a rotated API token end it at once (404); another account can neither share nor stop it; reads
// are limited per link and viewer, unknown links per address, and guesses never lock a live link; the
// paths match in their own case only, and the token never reaches a log line (issue 51).
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
import { DEFAULT_RATE_LIMITS, DEFAULT_SIGN_IN_PER_MINUTE } from '../../src/http/tokenBuckets.js';

const TRANSCRIPT = [
  { speaker: 'Alice Moreau', start: 1, end: 4.5, text: 'The keeper climbed the stairs.' },
  { speaker: 'Bob Lin', start: 12, end: 14, text: 'Ships passed the lighthouse.' },
];
const READS_PER_MINUTE = 40;
const MISSES_PER_MINUTE = 20;
/** The proxied service's limits: its reads per viewer, and the defaults of `npm start` for the rest. */
const PROXIED_READS_PER_MINUTE = 20;
const { failedAuthPerMinute: DEFAULT_MISSES } = DEFAULT_RATE_LIMITS;

describeOnEachDatabase('share links', (engine) => {
  let service: TestService;
  /** The service behind a proxy on loopback (TRUST_PROXY=loopback): X-Forwarded-For names the viewer. */
  let proxied: TestService;
  let media: MediaServer;
  let docs: DocumentServer;

  beforeAll(async () => {
    [media, docs] = await Promise.all([startMediaServer(), startDocumentServer()]);
    [service, proxied] = await Promise.all([
      startService({
        engine,
        rateLimits: { signInPerMinute: 10_000, readsPerMinute: READS_PER_MINUTE, failedAuthPerMinute: MISSES_PER_MINUTE },
      }),
      startService({
        engine,
        trustProxy: 'loopback',
        rateLimits: { signInPerMinute: DEFAULT_SIGN_IN_PER_MINUTE, readsPerMinute: PROXIED_READS_PER_MINUTE, failedAuthPerMinute: DEFAULT_MISSES },
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([service?.close(), proxied?.close(), media?.close(), docs?.close()]);
  });

  /** A finished human transcription of `token`'s account, completed as order-ops does with a JSON transcript. */
  async function finishedOrder(token: string, on = service): Promise<number> {
    const { orderId } = await placeOrder(on, { token, path: 'transcriptions', fields: { url: media.audio(30), language: 'english' } });
    const completed = await on.complete(orderId, 'done.json', JSON.stringify(TRANSCRIPT));
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
  /** A request relayed by the proxy in front for the client at `address`. */
  const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });
  /** A finished order of a new account on `on`, shared: its link. */
  async function sharedLink(on: TestService): Promise<string> {
    const { token } = await on.createAccount(20);
    const orderId = await finishedOrder(token, on);
    return share(await WorkerSession.signInToAccount(on.baseUrl, token), orderId);
  }
  /** The statuses of `count` requests made one after another. */
  async function statuses(count: number, request: (n: number) => Promise<Response>): Promise<number[]> {
    const answered: number[] = [];
    for (let n = 0; n < count; n++) {
      const answer = await request(n);
      await answer.arrayBuffer();
      answered.push(answer.status);
    }
    return answered;
  }
  const all = (status: number, count: number) => Array<number>(count).fill(status);
  /**
   * Guesses (`guess(n)` from `first` on) until one is refused, or more than the allowance spent
   * since `since` could have refilled (one guess every 60/DEFAULT_MISSES s): on a slow machine the
   * guesses themselves take seconds. The last answer.
   */
  async function guessPastAllowance(since: number, first: number, guess: (n: number) => Promise<Response>): Promise<Response> {
    const refilled = Math.ceil((Date.now() - since) / (60_000 / DEFAULT_MISSES));
    for (let n = first; ; n++) {
      const answer = await guess(n);
      if (answer.status !== 404 || n >= first + refilled) return answer;
      await answer.arrayBuffer();
    }
  }

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
      if (href.endsWith('format=text')) expect(await file.text()).toContain('The keeper climbed the stairs.');
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
    for (const path of ['', '/media', '/files/transcription?format=text']) expect((await open(first + path)).status, path).toBe(404);
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

  it('matches its paths in their own case only, and never logs a token whatever the case of the path', async () => {
    const link = await sharedLink(service);
    const secret = pathOf(link).split('/')[2]!;
    // Express matches without case by default: these opened the order, logged with the token whole.
    for (const path of [`/SHARED/${secret}`, `/Shared/${secret}/media`, `/sHaReD/${secret}/files/transcription?format=text`, `//shared/${secret}`]) {
      const answer = await open(service.baseUrl + path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('x-robots-tag'), path).toBeNull();
      await answer.arrayBuffer();
    }
    expect((await open(link)).status).toBe(200);
    const lines = JSON.stringify(service.logged);
    expect(lines).not.toContain(secret);
    expect(lines.toLowerCase()).not.toContain(secret.toLowerCase());
    const paths = service.logged.filter((l) => l.message === 'http').map((l) => (l.meta as { path: string }).path);
    expect(paths).toEqual(expect.arrayContaining(['/SHARED/…', '/Shared/…/media', '/sHaReD/…/files/transcription', '//shared/…']));

    // The other areas too: one spelling per path.
    for (const path of ['/API/v4/languages', '/Account/sign-in', '/WORK/sign-in', '/Healthz', '/api/V4/languages']) {
      expect((await open(service.baseUrl + path)).status, path).toBe(404);
    }
    // Every router of the app routes so, the app's own included: a new Router() would not.
    const routers: Array<{ caseSensitive?: boolean; stack: unknown[] }> = [];
    const walk = (router: { caseSensitive?: boolean; stack: Array<{ handle?: { stack?: unknown } }> }) => {
      routers.push(router);
      for (const layer of router.stack) if (Array.isArray(layer.handle?.stack)) walk(layer.handle as typeof router);
    };
    walk((service.app as unknown as { router: Parameters<typeof walk>[0] }).router);
    expect(routers.length).toBeGreaterThan(20);
    expect(routers.filter((r) => r.caseSensitive !== true)).toEqual([]);
  });

  it('limits reads per viewer, and links that open nothing per address; without a trusted proxy X-Forwarded-For names nobody', async () => {
    // TRUST_PROXY unset: the socket's peer is the viewer, whatever the header says.
    const link = await sharedLink(service);
    expect(await statuses(READS_PER_MINUTE, (n) => open(link, from(`198.51.100.${n}`)))).toEqual(all(200, READS_PER_MINUTE));
    const limited = await open(link, from('198.51.100.250'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain('read too often from this address');

    // Guesses from one address (the earlier tests' stopped links counted too): 404s, then 429, whatever the header says.
    const guesses: number[] = [];
    for (let n = 0; n <= MISSES_PER_MINUTE && guesses.at(-1) !== 429; n++) {
      guesses.push((await open(`${service.baseUrl}/shared/${'A'.repeat(30)}${String(n).padStart(2, '0')}`, from(`198.51.100.${n}`))).status);
    }
    expect(guesses.at(-1)).toBe(429);
    expect(new Set(guesses.slice(0, -1))).toEqual(new Set([404]));
    expect((await open(`${service.baseUrl}/shared/${'A'.repeat(32)}`)).status).toBe(429);
    // A link with reads left still opens from that address: the guesses do not touch it.
    expect((await open(await sharedLink(service))).status).toBe(200);
  });

  it('opens a live link from an address past its guesses, and never counts its reads as guesses', async () => {
    const link = await sharedLink(proxied);
    const viewer = from('203.0.113.7');
    // More reads than the guesses allowed: none of them is a guess.
    expect(await statuses(PROXIED_READS_PER_MINUTE, () => open(link, viewer))).toEqual(all(200, PROXIED_READS_PER_MINUTE));
    const guess = (n: number) => open(`${proxied.baseUrl}/shared/${'B'.repeat(29)}${String(n).padStart(3, '0')}`, viewer);
    const guessing = Date.now();
    expect(await statuses(DEFAULT_MISSES, guess)).toEqual(all(404, DEFAULT_MISSES));
    const refused = await guessPastAllowance(guessing, DEFAULT_MISSES, guess);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('open nothing');

    // The live link, its media and its downloads, from that very address; more guesses are still refused.
    const other = await sharedLink(proxied);
    expect((await open(other, viewer)).status).toBe(200);
    expect((await open(`${other}/media`, from('203.0.113.7', { range: 'bytes=0-3' }))).status).toBe(206);
    expect((await open(`${other}/files/transcription?format=text`, viewer)).status).toBe(200);
    expect((await guessPastAllowance(guessing, 100, guess)).status).toBe(429);
    // Not the token's shape: a guess all the same.
    expect((await open(`${proxied.baseUrl}/shared/short`, viewer)).status).toBe(429);
    // Another address behind the same proxy has its own guesses.
    expect((await open(`${proxied.baseUrl}/shared/${'C'.repeat(32)}`, from('203.0.113.8'))).status).toBe(404);
  });

  it('gives each viewer behind a trusted proxy a budget of reads of its own', async () => {
    const link = await sharedLink(proxied);
    const [first, second] = [from('198.51.100.1'), from('2001:db8::2')];
    expect(await statuses(PROXIED_READS_PER_MINUTE, () => open(link, first))).toEqual(all(200, PROXIED_READS_PER_MINUTE));
    const limited = await open(`${link}/media`, from('198.51.100.1', { range: 'bytes=0-3' }));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The other viewer of the same link reads its own budget whole, while the first stays refused.
    expect(await statuses(PROXIED_READS_PER_MINUTE, (n) => open(n % 2 ? `${link}/files/transcription?format=text` : link, second))).toEqual(
      all(200, PROXIED_READS_PER_MINUTE),
    );
    expect((await open(link, second)).status).toBe(429);
    expect((await open(link, first)).status).toBe(429);
    // The proxy's own requests (no header) are one more viewer.
    expect((await open(link)).status).toBe(200);
  });

  it("counts the API's failed authentications and sign-in attempts by the same client address", async () => {
    // A new wrong token each time: the reads of one token have a limit of their own.
    let tried = 0;
    const failing = (address: string) => open(`${proxied.baseUrl}/api/v4/orders?api_token=wrong-${tried++}`, from(address));
    expect(await statuses(DEFAULT_MISSES, () => failing('192.0.2.10'))).toEqual(all(400, DEFAULT_MISSES));
    const blocked = await failing('192.0.2.10');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await failing('192.0.2.11')).status).toBe(400);

    // Sign-in attempts (without the form's cookie: refused, counted all the same).
    const signIn = (address: string) =>
      fetch(`${proxied.baseUrl}/account/sign-in`, { method: 'POST', headers: from(address), body: new URLSearchParams({ api_token: 'x' }) });
    expect(await statuses(DEFAULT_SIGN_IN_PER_MINUTE, () => signIn('192.0.2.20'))).toEqual(all(403, DEFAULT_SIGN_IN_PER_MINUTE));
    expect((await signIn('192.0.2.20')).status).toBe(429);
    expect((await signIn('192.0.2.21')).status).toBe(403);
  });
});
