// What an attacker sends: malformed bodies, paths and requests, huge headers, slow bodies, floods.
// Every answer is a 4xx with the error object; none is a 5xx or an empty body. Raw sockets, since
// fetch refuses to send most of this.
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';

const REQUEST_TIMEOUT_MS = 1500;
const HEADERS_TIMEOUT_MS = 1000;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  ms: number;
}

const tally = { sent: 0, serverErrors: 0, withoutErrorObject: 0 };

/** Sends bytes as they are and reads until the server closes the connection (within `waitMs`). */
function raw(port: number, bytes: string | Buffer, opts: { localAddress?: string; waitMs?: number } = {}): Promise<RawAnswer> {
  tally.sent++;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within the wait'));
    }, opts.waitMs ?? 10_000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined); // a reset after the answer is fine; the answer is checked below
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const bodyText = rest.join('\r\n\r\n');
      let body: unknown = bodyText;
      try {
        body = JSON.parse(bodyText);
      } catch {
        /* left as text */
      }
      const status = Number(statusLine.split(' ')[1] ?? 0);
      if (status >= 500 || status === 0) tally.serverErrors++;
      if ((body as { status?: unknown })?.status !== 'error' && status >= 400) tally.withoutErrorObject++;
      resolve({ status, headers, body, ms: Date.now() - started });
    });
    socket.write(bytes);
  });
}

/** One complete request; `Connection: close` so the server ends the socket after answering. */
function request(method: string, path: string, headers: Record<string, string> = {}, body: string | Buffer = ''): string | Buffer {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ...(headers['Transfer-Encoding'] ? [] : [`Content-Length: ${Buffer.byteLength(body)}`]),
  ];
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n'), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
}

const expectRefusal = (answer: RawAnswer, status: number, error: RegExp) => {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.body).toEqual({ mode: expect.any(String), status: 'error', error: expect.stringMatching(error) });
};

describe('hostile requests', () => {
  let service: TestService;
  let port: number;
  let token: string;

  beforeAll(async () => {
    service = await startService({
      http: { requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: HEADERS_TIMEOUT_MS },
      rateLimits: { createPerMinute: 30, readsPerMinute: 20, failedAuthPerMinute: 5 },
    });
    port = Number(new URL(service.baseUrl).port);
    ({ token } = await service.createAccount(10));
  });
  afterAll(async () => {
    console.log(
      `hostile requests: ${tally.sent} sent, ${tally.serverErrors} answered 5xx or not at all, ${tally.withoutErrorObject} refusals without the error object`,
    );
    await service?.close();
  });

  const form = 'application/x-www-form-urlencoded';
  const create = '/api/v4/transcriptions';
  const fields = 'mode=test&language=english&url=http%3A%2F%2F127.0.0.1%3A9%2Fa.wav';
  const multipart = (boundary: string, parts: string[], end = `--${boundary}--\r\n`) => parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + end;
  const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;

  describe('bad bodies and paths are 4xx error objects', () => {
    it.each([
      [
        'urlencoded with 1001 parameters',
        413,
        /too many parameters/,
        () => request('POST', create, { 'Content-Type': form }, Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&')),
      ],
      ['charset=koi8-r', 415, /unsupported charset "koi8-r"/, () => request('POST', create, { 'Content-Type': `${form}; charset=koi8-r` }, fields)],
      ['charset=bogus (urlencoded)', 415, /unsupported charset "bogus"/, () => request('POST', create, { 'Content-Type': `${form}; charset=bogus` }, fields)],
      ['charset=bogus (JSON)', 415, /unsupported charset "bogus"/, () => request('POST', create, { 'Content-Type': 'application/json; charset=bogus' }, '{}')],
      [
        'multipart without a boundary',
        400,
        /^multipart body: .*boundary/i,
        () => request('POST', create, { 'Content-Type': 'multipart/form-data' }, field('mode', 'test')),
      ],
      [
        'truncated multipart',
        400,
        /^multipart body: /,
        () => request('POST', create, { 'Content-Type': 'multipart/form-data; boundary=XyZ' }, multipart('XyZ', [field('mode', 'test')]).slice(0, 40)),
      ],
      [
        'multipart with a file part',
        400,
        /file parts are not accepted/,
        () =>
          request(
            'POST',
            create,
            { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
            multipart('XyZ', ['Content-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello']),
          ),
      ],
      [
        'multipart with 200 fields',
        413,
        /^multipart body: Too many/,
        () =>
          request(
            'POST',
            create,
            { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
            multipart(
              'XyZ',
              Array.from({ length: 200 }, (_, i) => field(`f${i}`, 'x')),
            ),
          ),
      ],
      [
        'multipart field of 100 KB',
        413,
        /^multipart body: Field value too long/,
        () => request('POST', create, { 'Content-Type': 'multipart/form-data; boundary=XyZ' }, multipart('XyZ', [field('comment', 'x'.repeat(100 * 1024))])),
      ],
      [
        'Content-Encoding: gzip on a plain body',
        400,
        /Content-Encoding/,
        () => request('POST', create, { 'Content-Type': form, 'Content-Encoding': 'gzip' }, fields),
      ],
      [
        'Content-Encoding: compress',
        415,
        /unsupported content encoding "compress"/,
        () => request('POST', create, { 'Content-Type': form, 'Content-Encoding': 'compress' }, fields),
      ],
      [
        'a gzip bomb-ish body past the limit',
        413,
        /larger than/,
        () =>
          request(
            'POST',
            create,
            { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
            gzipSync(JSON.stringify({ comment: 'x'.repeat(3 * 1024 * 1024) })),
          ),
      ],
      [
        'JSON of 2 MB',
        413,
        /larger than 1048576 bytes/,
        () => request('POST', create, { 'Content-Type': 'application/json' }, JSON.stringify({ comment: 'x'.repeat(2 * 1024 * 1024) })),
      ],
      [
        'chunked JSON of 2 MB',
        413,
        /larger than/,
        () => {
          const body = JSON.stringify({ comment: 'x'.repeat(2 * 1024 * 1024) });
          return request(
            'POST',
            create,
            { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
            `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
          );
        },
      ],
      ['invalid JSON', 400, /not valid JSON/, () => request('POST', create, { 'Content-Type': 'application/json' }, '{"mode":')],
      ['GET /api/v4/orders/%ZZ', 400, /^path: cannot decode '%ZZ'/, () => request('GET', '/api/v4/orders/%ZZ?mode=live')],
      ['GET /api/v4/orders/1001/files/%E0%A4%A', 400, /^path: cannot decode/, () => request('GET', '/api/v4/orders/1001/files/%E0%A4%A')],
      ['a query string of broken escapes', 400, /^api_token: invalid token/, () => request('GET', '/api/v4/orders?mode=%ZZ&api_token=%E0%A4%A')],
    ])('%s → %i', async (_name, status, error, build) => {
      expectRefusal(await raw(port, build()), status, error);
    });
  });

  describe("Node's HTTP layer answers with the error object too", () => {
    it.each([
      ['20 KB of headers', 431, /headers are too large/, () => request('GET', '/healthz', { 'X-Big': 'a'.repeat(20 * 1024) })],
      ['a malformed request line', 400, /^malformed HTTP request/, () => 'HELLO WORLD\r\n\r\n'],
      ['an invalid header', 400, /^malformed HTTP request/, () => 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
      ['a bad Content-Length', 400, /^malformed HTTP request/, () => 'POST /api/v4/transcriptions HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
      [
        'a broken chunk size',
        400,
        /^malformed HTTP request/,
        () => 'POST /api/v4/transcriptions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
      ],
      [
        'Content-Length with chunked',
        400,
        /^malformed HTTP request/,
        () => 'POST /api/v4/transcriptions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      ],
      ['no Host header', 400, /Host header is missing/, () => 'GET /healthz HTTP/1.1\r\n\r\n'],
      ['an unknown Expect', 417, /Expect/, () => 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: magic\r\n\r\n'],
      ['CONNECT', 405, /CONNECT/, () => 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n'],
    ])('%s → %i', async (_name, status, error, build) => {
      const answer = await raw(port, build());
      expectRefusal(answer, status, error);
      expect(answer.headers.connection).toBe('close');
    });
  });

  describe('bounded time per request', () => {
    it('ends a body that never completes within the request timeout, serving others meanwhile', async () => {
      const slow = raw(port, `POST ${create} HTTP/1.1\r\nHost: x\r\nContent-Type: ${form}\r\nContent-Length: 1000\r\n\r\nmode=test`);
      const others: number[] = [];
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 150));
        others.push((await raw(port, request('GET', '/healthz'))).status);
      }
      const answer = await slow;
      expect(others).toEqual([200, 200, 200, 200, 200]);
      expectRefusal(answer, 408, /not received in time/);
      expect(answer.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1500);
    });

    it('ends headers that never complete within the headers timeout', async () => {
      const answer = await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      expectRefusal(answer, 408, /not received in time/);
      expect(answer.ms).toBeLessThan(HEADERS_TIMEOUT_MS + 1500);
    });
  });

  describe('rate limits', () => {
    it('answers 429 with Retry-After past the reads per token; a later request succeeds', async () => {
      const { token: reader } = await service.createAccount(1);
      const list = () => raw(port, request('GET', `/api/v4/orders?mode=test&api_token=${reader}`));
      for (let i = 0; i < 20; i++) expect((await list()).status).toBe(200);
      const limited = await list();
      expectRefusal(limited, 429, /at most 20 reads per minute/);
      const wait = Number(limited.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(3);
      // Another token is not limited by this one.
      expect((await raw(port, request('GET', `/api/v4/orders?mode=test&api_token=${token}`))).status).toBe(200);
      await new Promise((r) => setTimeout(r, wait * 1000));
      expect((await list()).status).toBe(200);
    });

    it('limits order creation per token', async () => {
      const { token: creator } = await service.createAccount(1);
      // A creation without a language is refused (400) but still counts.
      const post = () => raw(port, request('POST', create, { 'Content-Type': form }, `api_token=${creator}&mode=test`));
      for (let i = 0; i < 30; i++) expect((await post()).status).toBe(400);
      const limited = await post();
      expectRefusal(limited, 429, /at most 30 orders per minute/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });

    it('refuses an address after repeated failed authentications, others still served', async () => {
      const from = { localAddress: '127.0.0.2' };
      const bad = () => raw(port, request('GET', '/api/v4/orders?mode=live&api_token=guess'), from);
      for (let i = 0; i < 5; i++) expectRefusal(await bad(), 400, /invalid token/);
      const blocked = await raw(port, request('GET', `/api/v4/orders?mode=test&api_token=${token}`), from);
      expectRefusal(blocked, 429, /failed authentications/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await raw(port, request('GET', `/api/v4/orders?mode=test&api_token=${token}`))).status).toBe(200);
    });
  });

  it('served everything above without a 5xx or an empty refusal', () => {
    expect(tally.sent).toBeGreaterThan(40);
    expect(tally.serverErrors).toBe(0);
    expect(tally.withoutErrorObject).toBe(0);
  });
});
