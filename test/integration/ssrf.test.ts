// The outbound guard end to end: customer URLs spelling loopback, link-local and private
// addresses in every way the URL parser accepts, names that resolve (or rebind) to them, and
// redirects towards them never reach "bait" listeners on loopback; the customer sees one neutral
// message per field. And probes stay bounded: quotes give up sooner than live orders, and an
// account's slow URLs hold only that account's probe slots.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { wavFile } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { placeOrder } from '../helpers/orders.js';
import { callbackAttemptsOf } from '../../src/db/orders.js';
import { createOutboundClient, FetchError, type OutboundClient, type Resolve } from '../../src/net/outbound.js';

interface Listener {
  server: Server;
  port: number;
  url: string;
  connections: number;
  requests: number;
}

async function serve(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void, port = 0): Promise<Listener> {
  const server = createServer(handler);
  const listener: Listener = { server, port: 0, url: '', connections: 0, requests: 0 };
  server.on('connection', () => {
    listener.connections += 1;
  });
  server.on('request', () => {
    listener.requests += 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  listener.port = (server.address() as AddressInfo).port;
  listener.url = `http://${host.includes(':') ? `[${host}]` : host}:${listener.port}`;
  return listener;
}

async function stop(listener: Listener | undefined) {
  if (!listener) return;
  listener.server.closeAllConnections();
  await new Promise((r) => listener.server.close(r));
}

const canListen = async (host: string) =>
  serve(host, () => undefined).then(
    async (l) => {
      await stop(l);
      return true;
    },
    () => false,
  );
const IPV6 = await canListen('::1');

// Baits answer like a media server: a guard that let a request through would make it succeed.
const baitHandler = (_req: IncomingMessage, res: ServerResponse) => {
  const body = wavFile(5);
  res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length }).end(body);
};

const UNREACHABLE = 'url: the file could not be fetched';
let bait4: Listener;
let bait6: Listener | undefined;
/** On 127.0.0.2, for the redirect and rebinding cases whose "public" server is 127.0.0.3. */
let bait2: Listener;
/** 127.0.0.3 stands for the public internet: the only range the clients here allow. */
let site: Listener;
const baits = () => [bait4, bait6, bait2].filter((b): b is Listener => b !== undefined);
const baitConnections = () => baits().reduce((sum, b) => sum + b.connections, 0);
const tally = { api: 0, callbacks: 0, direct: 0 };
const pending = new Set<() => void>();

function siteHandler(req: IncomingMessage, res: ServerResponse) {
  const path = req.url ?? '/';
  const hops = /^\/hops\/(\d+)$/.exec(path);
  if (hops) {
    const left = Number(hops[1]);
    if (left > 0) return void res.writeHead(302, { location: `/hops/${left - 1}` }).end();
    return baitHandler(req, res);
  }
  if (path === '/to-bait') return void res.writeHead(302, { location: `${bait2.url}/a.wav` }).end();
  if (path === '/to-evil') return void res.writeHead(302, { location: `http://evil.example:${bait4.port}/a.wav` }).end();
  if (path === '/to-metadata') return void res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
  if (path === '/to-file') return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
  if (path === '/close') {
    const body = wavFile(2);
    return void res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length, connection: 'close' }).end(body);
  }
  if (path === '/echo') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    return void req.on('end', () =>
      res
        .writeHead(200, { 'x-echo-type': String(req.headers['content-type']), 'x-echo-sig': String(req.headers['webhook-signature']) })
        .end(Buffer.concat(chunks)),
    );
  }
  if (path === '/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('é'.repeat(500_000));
  const audio = /^\/audio-(\d+)\.wav$/.exec(path);
  if (audio) {
    const body = wavFile(Number(audio[1]));
    return void res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length }).end(body);
  }
  if (path === '/noise.mp3') return void res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(Buffer.alloc(2_000_000, 0));
  if (path === '/hang') return; // never answers
  if (path === '/slow.mp3') {
    // An endless body, a trickle at a time: only a deadline ends it.
    res.writeHead(200, { 'content-type': 'audio/mpeg' });
    const timer = setInterval(() => res.write(Buffer.alloc(512, 0)), 50);
    const end = () => {
      clearInterval(timer);
      pending.delete(end);
    };
    pending.add(end);
    return void res.on('close', end);
  }
  res.writeHead(404).end();
}

beforeAll(async () => {
  site = await serve('127.0.0.3', siteHandler);
  // Same port as the site: a rebinding resolver then points the same URL at the bait.
  [bait4, bait6, bait2] = await Promise.all([
    serve('127.0.0.1', baitHandler),
    IPV6 ? serve('::1', baitHandler) : undefined,
    serve('127.0.0.2', baitHandler, site.port),
  ]);
});

afterAll(async () => {
  const connections = baitConnections();
  console.log(
    `ssrf summary: ${tally.api + tally.callbacks + tally.direct} attempts towards refused addresses ` +
      `(${tally.api} API quotes and orders, ${tally.callbacks} callback attempts, ${tally.direct} direct client calls), ` +
      `${connections} connections reached the bait listeners (127.0.0.1, ${IPV6 ? '::1, ' : ''}127.0.0.2)`,
  );
  for (const end of pending) end();
  await Promise.all([stop(site), ...baits().map(stop)]);
  expect(connections).toBe(0);
});

/** A client as main.ts builds one, with a scripted resolver: each name answers its lists in turn (the last repeats). */
function client(allowCidrs: string[], answers: Record<string, string[][]> = {}): OutboundClient & { logged: string[] } {
  const logged: string[] = [];
  const lookup: Resolve = async (hostname) => {
    const list = answers[hostname];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const next = list.length > 1 ? list.shift()! : list[0]!;
    return next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const made = createOutboundClient({
    allowCidrs,
    lookup,
    log: (_m, meta) => {
      logged.push((meta as { detail: string }).detail);
    },
  });
  return Object.assign(made, { logged });
}

const limits = { maxBytes: 1_000_000, timeoutMs: 2000 };

describe('the outbound client, with an injected resolver', () => {
  it('refuses a name that resolves to loopback, before connecting, and logs why', async () => {
    const c = client([], { 'evil.example': [['127.0.0.1']] });
    tally.direct += 2;
    await expect(c.fetchCustomerFile(`http://evil.example:${bait4.port}/a.wav`, 'url', limits)).rejects.toThrow(new FetchError(UNREACHABLE));
    expect(c.logged).toEqual(['refused 127.0.0.1 (evil.example): a loopback address (127.0.0.0/8); see OUTBOUND_ALLOW_CIDRS']);
    await expect(
      c.postCallback(`http://evil.example:${bait4.port}/hook`, { body: new Uint8Array(1), headers: {} }, { timeoutMs: 1000, maxResponseBytes: 10 }),
    ).rejects.toThrow('refused 127.0.0.1 (evil.example): a loopback address');
    await c.close();
  });

  it('answers localhost names loopback without asking the resolver (which here knows no name at all)', async () => {
    const c = client([]);
    for (const host of ['localhost', 'LOCALHOST.', 'a.b.localhost', 'x.localhost.']) {
      tally.direct += 1;
      await expect(c.fetchCustomerFile(`http://${host}:${bait4.port}/a.wav`, 'url', limits)).rejects.toThrow(new FetchError(UNREACHABLE));
      expect(await c.checkDestination(`http://${host}:${bait4.port}/a.wav`)).toMatch(/^refused 127\.0\.0\.1 \(\S+\): a loopback address/);
    }
    expect(c.logged).toEqual(
      ['localhost', 'localhost.', 'a.b.localhost', 'x.localhost.'].map(
        (host) => `refused 127.0.0.1 (${host}): a loopback address (127.0.0.0/8); see OUTBOUND_ALLOW_CIDRS`,
      ),
    );
    // A name that merely ends in "localhost" is an ordinary name: this resolver does not know it.
    await expect(c.fetchCustomerFile(`http://notlocalhost:${bait4.port}/a.wav`, 'url', limits)).rejects.toThrow(new FetchError(UNREACHABLE));
    expect(c.logged.at(-1)).toBe('ENOTFOUND');
    await c.close();
  });

  it('checks every address a name resolves to, not only the first', async () => {
    const c = client(['127.0.0.3/32'], { 'mixed.example': [['93.184.216.34', '127.0.0.1']], 'mixed2.example': [['127.0.0.3', '169.254.169.254']] });
    tally.direct += 2;
    await expect(c.fetchCustomerFile(`http://mixed.example:${bait4.port}/a.wav`, 'url', limits)).rejects.toThrow(UNREACHABLE);
    await expect(c.fetchCustomerFile(`http://mixed2.example:${site.port}/audio`, 'url', limits)).rejects.toThrow(UNREACHABLE);
    expect(c.logged).toEqual([expect.stringContaining('refused 127.0.0.1'), expect.stringContaining('refused 169.254.169.254')]);
    expect(site.requests).toBe(0);
    await c.close();
  });

  it('a rebinding resolver (allowed first, loopback next) never reaches the bait: each connection is checked', async () => {
    const c = client(['127.0.0.3/32'], { 'rebind.example': [['127.0.0.3'], ['127.0.0.2']], 'rebind2.example': [['93.184.216.34'], ['127.0.0.1']] });
    const url = `http://rebind.example:${site.port}/close`; // the site closes each connection: the next request connects anew
    expect((await c.fetchCustomerFile(url, 'url', limits)).bytes.length).toBe(wavFile(2).length);
    tally.direct += 3;
    await expect(c.fetchCustomerFile(url, 'url', limits)).rejects.toThrow(UNREACHABLE);
    expect(c.logged.at(-1)).toBe('refused 127.0.0.2 (rebind.example): a loopback address (127.0.0.0/8); see OUTBOUND_ALLOW_CIDRS');
    // A public first answer (unreachable without internet: it fails or times out), then loopback.
    await expect(c.fetchCustomerFile(`http://rebind2.example:${bait4.port}/a.wav`, 'url', { ...limits, timeoutMs: 500 })).rejects.toThrow(UNREACHABLE);
    await expect(c.fetchCustomerFile(`http://rebind2.example:${bait4.port}/a.wav`, 'url', limits)).rejects.toThrow(UNREACHABLE);
    expect(c.logged.at(-1)).toContain('refused 127.0.0.1 (rebind2.example)');
    await c.close();
  });

  it('re-checks every redirect hop, follows at most 5, and only to http(s)', async () => {
    const c = client(['127.0.0.3/32'], { 'public.example': [['127.0.0.3']], 'evil.example': [['127.0.0.1']] });
    const base = `http://public.example:${site.port}`;
    expect((await c.fetchCustomerFile(`${base}/hops/5`, 'url', limits)).complete).toBe(true);
    tally.direct += 4;
    for (const path of ['/to-bait', '/to-evil', '/to-metadata']) {
      await expect(c.fetchCustomerFile(`${base}${path}`, 'url', limits)).rejects.toThrow(new FetchError(UNREACHABLE));
    }
    expect(c.logged).toEqual([
      expect.stringContaining('refused 127.0.0.2: a loopback address'),
      expect.stringContaining('refused 127.0.0.1 (evil.example)'),
      expect.stringContaining('refused 169.254.169.254: a link-local address'),
    ]);
    await expect(c.fetchCustomerFile(`${base}/hops/6`, 'url', limits)).rejects.toThrow(new FetchError(UNREACHABLE));
    expect(c.logged.at(-1)).toBe('HTTP 302');
    await expect(c.fetchCustomerFile(`${base}/to-file`, 'url', limits)).rejects.toThrow(new FetchError(UNREACHABLE));
    await expect(c.fetchCustomerFile('ftp://public.example/a.wav', 'url', limits)).rejects.toThrow(new FetchError(UNREACHABLE));
    // A callback never follows one: the redirect is its answer.
    const answer = await c.postCallback(`${base}/to-bait`, { body: new Uint8Array(0), headers: {} }, { timeoutMs: 1000, maxResponseBytes: 100 });
    expect(answer.statusCode).toBe(302);
    await c.close();
  });

  it('postCallback sends exactly the bytes and headers given, reads at most maxResponseBytes, and keeps its deadline', async () => {
    const c = client(['127.0.0.3/32']);
    const body = new Uint8Array(Buffer.from('--b\r\ncontent-disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n'));
    const echoed = await c.postCallback(
      `${site.url}/echo`,
      { body, headers: { 'content-type': 'multipart/form-data; boundary=b', 'webhook-signature': 'v1,abc' } },
      { timeoutMs: 1000, maxResponseBytes: 1000 },
    );
    expect(echoed).toMatchObject({ statusCode: 200, text: Buffer.from(body).toString('utf8') });
    expect(echoed.headers).toMatchObject({ 'x-echo-type': 'multipart/form-data; boundary=b', 'x-echo-sig': 'v1,abc' });
    const big = await c.postCallback(`${site.url}/big`, { body: new Uint8Array(0), headers: {} }, { timeoutMs: 1000, maxResponseBytes: 1001 });
    expect(Buffer.byteLength(big.text.replace(/\uFFFD$/, ''))).toBeLessThanOrEqual(1001);
    expect(big.text.startsWith('é'.repeat(500))).toBe(true);
    const started = Date.now();
    await expect(c.postCallback(`${site.url}/hang`, { body: new Uint8Array(0), headers: {} }, { timeoutMs: 300, maxResponseBytes: 10 })).rejects.toThrow(
      'timed out after 300 ms',
    );
    expect(Date.now() - started).toBeLessThan(1500);
    await c.close();
  });
});

describe('the service with OUTBOUND_ALLOW_CIDRS covering none of the baits', () => {
  let service: TestService;
  let token: string;
  const QUOTE_MS = 1000;
  const LIVE_MS = 2000; // the test service's live media deadline
  beforeAll(async () => {
    // Only 127.0.0.3 (the stand-in public site with the order's media) may be reached.
    service = await startService({ outboundAllowCidrs: ['127.0.0.3/32'], probes: { quote: { timeoutMs: QUOTE_MS }, waitMs: 300 } });
    ({ token } = await service.createAccount(100));
    // A first request pays for loading and connecting; the timed refusals below should not.
    await placeOrder(service, { token, mode: 'test', fields: { url: `${site.url}/audio-30.wav`, language: 'english' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  const spellings = () => [
    `http://127.0.0.1:${bait4.port}/a.wav`,
    `http://localhost:${bait4.port}/a.wav`,
    `http://0x7f000001:${bait4.port}/a.wav`,
    `http://2130706433:${bait4.port}/a.wav`,
    `http://127.1:${bait4.port}/a.wav`,
    `http://017700000001:${bait4.port}/a.wav`,
    `http://[::ffff:127.0.0.1]:${bait4.port}/a.wav`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${bait4.port}/a.wav`,
    `http://0.0.0.0:${bait4.port}/a.wav`,
    `http://ｌｏｃａｌｈｏｓｔ:${bait4.port}/a.wav`,
    `http://LOCALHOST.:${bait4.port}/a.wav`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/a.wav',
    'http://[fd00::1]/a.wav',
    'https://192.168.1.1/a.wav',
    ...(bait6 ? [`http://[::1]:${bait6.port}/a.wav`, `http://[::]:${bait6.port}/a.wav`, `http://[0:0:0:0:0:0:0:1]:${bait6.port}/a.wav`] : []),
  ];

  it.each([
    ['transcriptions', { language: 'english' }, 'media probe'],
    ['translations', { translate_from: 'english', translate_to: 'french' }, 'document fetch'],
  ] as Array<[string, Record<string, string>, string]>)(
    '%s quotes refuse every spelling of a private address with the neutral message (%s)',
    async (path, extra) => {
      for (const url of spellings()) {
        const started = Date.now();
        const res = await service.post(`/api/v4/${path}`, { api_token: token, mode: 'test', url, ...extra });
        tally.api += 1;
        expect(res.status, url).toBe(400);
        expect(res.body, url).toEqual({ mode: 'test', status: 'error', error: UNREACHABLE });
        expect(Date.now() - started, `${url} is refused before connecting`).toBeLessThan(500);
      }
      // The detail is for operators only.
      const details = service.logged.filter((l) => l.message === 'customer URL not fetched').map((l) => (l.meta as { detail: string }).detail);
      expect(details).toContain(`refused 127.0.0.1: a loopback address (127.0.0.0/8); see OUTBOUND_ALLOW_CIDRS`);
      expect(details).toContain(`refused 169.254.169.254: a link-local address (169.254.0.0/16); see OUTBOUND_ALLOW_CIDRS`);
      expect(details.some((d) => d.startsWith('refused ::ffff:7f00:1: IPv4-mapped form of 127.0.0.1'))).toBe(true);
      expect(baitConnections()).toBe(0);
    },
  );

  it('a fetch failure reads the same as a refusal: no port scanning through error messages', async () => {
    for (const path of ['/missing.wav', '/hang']) {
      const res = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'test', url: `${site.url}${path}`, language: 'english' });
      expect(res.body.error).toBe(UNREACHABLE);
    }
    const closedPort = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'test', url: 'http://127.0.0.3:9/a.wav', language: 'english' });
    expect(closedPort.body.error).toBe(UNREACHABLE);
    const details = service.logged.map((l) => (l.meta as { detail?: string }).detail);
    expect(details).toEqual(expect.arrayContaining(['HTTP 404', 'timed out', 'ECONNREFUSED']));
  });

  it('a callback_url in every spelling of a private address is never connected to; every attempt is recorded as refused', async () => {
    // The same spellings as the url cases above, as callback_url of live orders placed and finished all at once.
    const urls = spellings();
    const payer = await service.createAccount(2 * urls.length);
    // Placed one after another: this service lets an account's probes wait only 300 ms for a slot.
    const orderIds: number[] = [];
    for (const callbackUrl of urls) {
      const { orderId } = await placeOrder(service, { token: payer.token, fields: { url: `${site.url}/audio-60.wav`, language: 'english' }, callbackUrl });
      orderIds.push(orderId);
    }
    await Promise.all(
      orderIds.map(async (orderId, i) => {
        expect((await service.complete(orderId, 'a.txt', 'Ann: Hello.')).status, urls[i]).toBe(200);
      }),
    );
    await Promise.all(
      orderIds.map(async (orderId, i) => {
        const callbackUrl = urls[i]!;
        // The workflow's whole budget: 10 attempts, each refused before connecting.
        const attempts = await waitFor(
          async () => {
            const rows = await callbackAttemptsOf(service.database.db, orderId);
            return rows.length >= 10 && rows;
          },
          `the failed callback attempts to ${callbackUrl}`,
          60_000,
        ); // Temporal spaces retries about a second apart here
        tally.callbacks += attempts.length;
        expect(attempts, callbackUrl).toHaveLength(10);
        for (const attempt of attempts) {
          expect(attempt, callbackUrl).toMatchObject({ outcome: 'network_error', statusCode: null });
          expect(attempt.detail, callbackUrl).toMatch(/^refused \S+( \(\S+\))?: .+; see OUTBOUND_ALLOW_CIDRS$/);
        }
      }),
    );
    const details = (await Promise.all(orderIds.map((id) => callbackAttemptsOf(service.database.db, id)))).map((rows) => rows[0]!.detail!);
    expect(details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^refused 127\.0\.0\.1: a loopback address/),
        expect.stringMatching(/^refused 127\.0\.0\.1 \(localhost\): a loopback address/),
        expect.stringMatching(/^refused 127\.0\.0\.1 \(localhost\.\): a loopback address/),
        expect.stringMatching(/^refused ::ffff:7f00:1: IPv4-mapped form of 127\.0\.0\.1/),
        expect.stringMatching(/^refused 0\.0\.0\.0: /),
        expect.stringMatching(/^refused 169\.254\.169\.254: a link-local address/),
        expect.stringMatching(/^refused 10\.0\.0\.1: /),
      ]),
    );
    expect(baitConnections()).toBe(0);
  }, 120_000);

  describe('bounded probes', () => {
    const quote = (accountToken: string, url: string) =>
      service.post('/api/v4/transcriptions', { api_token: accountToken, mode: 'test', url, language: 'english' });
    const timed = async <T>(work: () => Promise<T>) => {
      const started = Date.now();
      const result = await work();
      return { result, ms: Date.now() - started };
    };

    it('a never-answering or endless media URL ends a quote at the quote deadline, a live order at the live one', async () => {
      for (const path of ['/hang', '/slow.mp3']) {
        const { result, ms } = await timed(() => quote(token, `${site.url}${path}`));
        expect(result).toMatchObject({ status: 400, body: { mode: 'test', status: 'error', error: UNREACHABLE } });
        expect(ms, path).toBeGreaterThanOrEqual(QUOTE_MS - 50);
        expect(ms, path).toBeLessThan(QUOTE_MS + 700);
      }
      const live = await timed(() =>
        service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: `${site.url}/slow.mp3`, language: 'english' }),
      );
      expect(live.result).toMatchObject({ status: 400, body: { mode: 'live', error: UNREACHABLE } });
      expect(live.ms).toBeGreaterThanOrEqual(LIVE_MS - 50);
      expect(live.ms).toBeLessThan(LIVE_MS + 700);
    });

    it('a quote measures a file as a live order does: the same size limit, the same answer', async () => {
      expect((await quote(token, `${site.url}/noise.mp3`)).body.error).toBe('url: the file is not a recognised audio or video file');
      const live = await service.post('/api/v4/transcriptions', { api_token: token, mode: 'live', url: `${site.url}/noise.mp3`, language: 'english' });
      expect(live.body.error).toBe('url: the file is not a recognised audio or video file');
    });

    it("eight never-answering or endless quotes in flight leave another account's quotes about as fast as before", async () => {
      const attackers = await Promise.all([service.createAccount(1), service.createAccount(1)]);
      const other = await service.createAccount(1);
      /** The median of `n` quotes of the other account, one after another. */
      const medianQuoteMs = async (n: number) => {
        const times: number[] = [];
        for (let i = 0; i < n; i++) {
          const { result, ms } = await timed(() => quote(other.token, `${site.url}/audio-30.wav`));
          expect(result.body).toMatchObject({ status: 'success', seconds: 30 });
          times.push(ms);
        }
        return { median: times.sort((a, b) => a - b)[Math.floor(n / 2)]!, times };
      };
      await medianQuoteMs(2); // warm
      const baseline = await medianQuoteMs(9);
      // Four per account (each account's cap), re-sent as each gives up, until the measuring is done.
      let measuring = true;
      const before = site.requests;
      const held = attackers.flatMap((attacker) =>
        ['/hang', '/slow.mp3', '/hang', '/slow.mp3'].map(async (path) => {
          while (measuring) expect((await quote(attacker.token, `${site.url}${path}`)).body.error).toBe(UNREACHABLE);
        }),
      );
      await waitFor(() => site.requests >= before + 8, 'eight slow probes in flight');
      const loaded = await medianQuoteMs(9);
      measuring = false;
      await Promise.all(held);
      const bound = Math.max(300, 5 * baseline.median);
      console.log(
        `quote latency: median ${baseline.median} ms alone ${JSON.stringify(baseline.times)}, ` +
          `${loaded.median} ms with 8 slow quotes in flight ${JSON.stringify(loaded.times)}; bound ${bound} ms`,
      );
      expect(loaded.median, `median quote ${loaded.median} ms with 8 slow quotes in flight (${baseline.median} ms before)`).toBeLessThan(bound);
    });

    it('an account over its probe cap gets 429 with Retry-After; other accounts stay fast meanwhile', async () => {
      const other = await service.createAccount(10);
      const before = site.requests;
      const slow = Array.from({ length: 4 }, () => quote(token, `${site.url}/hang`));
      await waitFor(() => site.requests >= before + 4, 'four probes in flight');
      const [fifth, fast] = await Promise.all([
        timed(async () => {
          const res = await fetch(`${service.baseUrl}/api/v4/transcriptions`, {
            method: 'POST',
            body: new URLSearchParams({ api_token: token, mode: 'test', url: `${site.url}/audio-30.wav`, language: 'english' }),
          });
          return { status: res.status, headers: res.headers, body: await res.json() };
        }),
        timed(() => quote(other.token, `${site.url}/audio-30.wav`)),
      ]);
      expect(fast.result.body).toMatchObject({ status: 'success', seconds: 30 });
      expect(fast.ms).toBeLessThan(2000);
      expect(fifth.result.status).toBe(429);
      expect(fifth.result.headers.get('retry-after')).toBe('1');
      expect(fifth.result.body).toEqual({
        mode: 'test',
        status: 'error',
        error: 'too many files of this account are being measured at once (at most 4); retry in a second',
      });
      for (const res of await Promise.all(slow)) expect(res.body.error).toBe(UNREACHABLE);
      // The slots are free again.
      expect((await quote(token, `${site.url}/audio-30.wav`)).body).toMatchObject({ status: 'success', seconds: 30 });
    });
  });
});
