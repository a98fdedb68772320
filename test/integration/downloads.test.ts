// A customer's file downloaded whole through the one guarded client (src/net/download.ts): a broken
// transfer resumed where it stopped when the server answers ranges of the same file, restarted when
// it does not, a dribbling server given up on, an encoding nobody asked for decoded or refused.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, FetchError } from '../../src/net/outbound.js';
import { downloadToFile } from '../../src/net/download.js';
import { close, listen } from '../helpers/net.js';

const FILE = randomBytes(3 * 1024 * 1024);
const ETAG = '"v1"';

/** Per path: how the server answers its n-th request (0-based); every request's Range and If-Range seen. */
const behaviours = new Map<string, (n: number, req: IncomingMessage, res: ServerResponse) => void>();
const seen = new Map<string, Array<{ range?: string; ifRange?: string }>>();

/** Sends `bytes` of FILE from `from`, cutting the connection after `cutAfter` of them. */
function send(res: ServerResponse, from: number, cutAfter?: number) {
  const body = FILE.subarray(from);
  const headers = { etag: ETAG, 'content-length': body.length, 'accept-ranges': 'bytes' };
  if (from > 0) res.writeHead(206, { ...headers, 'content-range': `bytes ${from}-${FILE.length - 1}/${FILE.length}` });
  else res.writeHead(200, headers);
  if (cutAfter === undefined) return void res.end(body);
  // A FIN after the bytes (a reset would make the client drop what it had not read yet).
  res.write(body.subarray(0, cutAfter), () => res.socket?.destroy());
}
const rangeStart = (req: IncomingMessage) => Number(/^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''))?.[1] ?? 0);

let base: string;
const server = createServer((req, res) => {
  const path = req.url ?? '/';
  const log = seen.get(path) ?? [];
  log.push({ range: req.headers.range, ifRange: req.headers['if-range'] as string | undefined });
  seen.set(path, log);
  const behaviour = behaviours.get(path);
  if (behaviour) behaviour(log.length - 1, req, res);
  else res.writeHead(404).end();
});
let dir: string;
const logged: string[] = [];
const client = createOutboundClient({ allowCidrs: ['127.0.0.0/8'], log: (_m, meta) => logged.push(String((meta as { detail?: string }).detail)) });
const limits = { maxBytes: 10 * 1024 * 1024, timeoutMs: 20_000, stallMs: 1_000 };

beforeAll(async () => {
  base = await listen(server);
  dir = await mkdtemp(join(tmpdir(), 'downloads-'));
});
afterAll(async () => {
  await client.close();
  await close(server);
  await rm(dir, { recursive: true, force: true });
});

describe('downloadToFile', () => {
  const download = (path: string, file = join(dir, path.slice(1))) =>
    downloadToFile(client, base + path, 'url', file, limits).then(async (size) => ({ size, bytes: await readFile(file) }));

  it('resumes a broken transfer where it stopped, asking for the rest of the same file', async () => {
    behaviours.set('/resumed', (n, req, res) => (n === 0 ? send(res, 0, 1_000_000) : send(res, rangeStart(req))));
    const { size, bytes } = await download('/resumed');
    expect(size).toBe(FILE.length);
    expect(bytes.equals(FILE)).toBe(true);
    const [, again] = seen.get('/resumed')!;
    expect(again!.ifRange).toBe(ETAG);
    // From what reached the disk: more than nothing, no more than was sent.
    const resumedAt = rangeStart({ headers: { range: again!.range } } as IncomingMessage);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(1_000_000);
  });

  it('starts again from the first byte when the server answers the retry with the whole file', async () => {
    behaviours.set('/restarted', (n, _req, res) => send(res, 0, n === 0 ? 500_000 : undefined));
    const { bytes } = await download('/restarted');
    expect(bytes.equals(FILE)).toBe(true);
    expect(seen.get('/restarted')).toHaveLength(2);
  });

  it('gives up after three broken transfers, naming the field and not the reason', async () => {
    behaviours.set('/broken', (_n, _req, res) => send(res, 0, 100_000));
    await expect(download('/broken')).rejects.toThrow(new FetchError('url: the file could not be fetched'));
    expect(seen.get('/broken')).toHaveLength(3);
    expect(logged.at(-1)).toMatch(/after 3 tries$/);
  });

  it('gives up on a server that dribbles its bytes', async () => {
    behaviours.set('/dribble', (_n, _req, res) => {
      res.writeHead(200, { 'content-length': FILE.length });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(FILE.subarray(0, 100))), 100);
      res.on('close', () => clearInterval(timer));
    });
    await expect(download('/dribble')).rejects.toThrow(new FetchError('url: the file could not be fetched'));
    expect(logged.at(-1)).toMatch(/^stalled: less than 65536 bytes in 1000 ms, after 3 tries$/);
  }, 30_000);

  it('decodes a gzip or brotli encoding nobody asked for, and refuses one it does not know', async () => {
    behaviours.set('/gzip', (_n, _req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(FILE)));
    behaviours.set('/br', (_n, _req, res) => res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync(FILE)));
    behaviours.set('/zstd', (_n, _req, res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end(FILE));
    expect((await download('/gzip')).bytes.equals(FILE)).toBe(true);
    expect((await download('/br')).bytes.equals(FILE)).toBe(true);
    await expect(download('/zstd')).rejects.toThrow(new FetchError('url: the server sent the file encoded as zstd, which is not supported'));
    // The decoded size is what counts against the limit, not the encoded one.
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
    behaviours.set('/bomb', (_n, _req, res) => res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': bomb.length }).end(bomb));
    await expect(download('/bomb')).rejects.toThrow(new FetchError(`url: the file is larger than ${limits.maxBytes} bytes`));
  });

  it('a ranged answer of an encoded file is not taken: the whole file is asked for and decoded', async () => {
    behaviours.set('/encoded-range', (_n, req, res) => {
      if (req.headers.range)
        return void res.writeHead(206, { 'content-encoding': 'gzip', 'content-range': `bytes 0-99/${FILE.length}` }).end(gzipSync(FILE.subarray(0, 100)));
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(FILE));
    });
    const opened = await client.openCustomerUrl(`${base}/encoded-range`, 'url', 5_000, { range: 'bytes=0-99' });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-length']).toBeUndefined();
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
    opened.done();
    expect(Buffer.concat(chunks).equals(FILE)).toBe(true);
    expect(seen.get('/encoded-range')!.map((r) => r.range)).toEqual(['bytes=0-99', undefined]);
  });
});
