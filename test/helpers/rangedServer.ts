// A customer's media server on loopback that answers Range requests as S3, nginx or a CDN do (or,
// `ranges: false`, ignores them and answers 200 with the whole file), and counts what it sends:
// requests and body bytes per path. `redirectAfter`: from that request on, a path answers with a
// redirect (a server that moves a file mid-way).
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { close, listen } from './net.js';

export interface RangedServer {
  url: string;
  /** Serves `file` at `path`; returns its URL. */
  serve(
    path: string,
    file: string,
    options?: { contentType?: string; ranges?: boolean; etag?: boolean; redirectAfter?: { requests: number; to: string } },
  ): string;
  /** Requests and body bytes sent for a path so far. */
  sent(path: string): { requests: number; bytes: number; ranges: string[] };
  reset(): void;
  close(): Promise<void>;
}

export async function startRangedServer(): Promise<RangedServer> {
  const files = new Map<
    string,
    { file: string; size: number; contentType?: string; ranges: boolean; etag: boolean; redirectAfter?: { requests: number; to: string } }
  >();
  const counts = new Map<string, { requests: number; bytes: number; ranges: string[] }>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = files.get(path);
    if (!file) return void res.writeHead(404).end('not found');
    const count = counts.get(path) ?? { requests: 0, bytes: 0, ranges: [] };
    counts.set(path, count);
    count.requests += 1;
    count.ranges.push(String(req.headers.range ?? ''));
    if (file.redirectAfter && count.requests > file.redirectAfter.requests) return void res.writeHead(302, { location: file.redirectAfter.to }).end();
    const headers: Record<string, string | number> = {
      'accept-ranges': file.ranges ? 'bytes' : 'none',
      ...(file.contentType ? { 'content-type': file.contentType } : {}),
    };
    if (file.etag) headers.etag = `"${file.size}-${file.file.length}"`;
    const range = file.ranges ? /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? '')) : null;
    let [start, end] = [0, file.size - 1];
    if (range && (range[1] || range[2])) {
      start = range[1] ? Number(range[1]) : Math.max(0, file.size - Number(range[2]));
      end = range[1] && range[2] ? Math.min(Number(range[2]), file.size - 1) : file.size - 1;
      if (start > end) return void res.writeHead(416, { 'content-range': `bytes */${file.size}` }).end();
      res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${file.size}`, 'content-length': end - start + 1 });
    } else {
      res.writeHead(200, { ...headers, 'content-length': file.size });
    }
    if (req.method === 'HEAD') return void res.end();
    const stream = createReadStream(file.file, { start, end });
    stream.on('data', (chunk) => {
      count.bytes += chunk.length;
    });
    stream.pipe(res);
    // A client that stops reading (it has what it needs) ends the transfer.
    res.on('close', () => stream.destroy());
  });
  const url = await listen(server);
  return {
    url,
    serve(path, file, options = {}) {
      files.set(path, {
        file,
        size: statSync(file).size,
        ranges: options.ranges ?? true,
        etag: options.etag ?? true,
        ...(options.contentType ? { contentType: options.contentType } : {}),
        ...(options.redirectAfter ? { redirectAfter: options.redirectAfter } : {}),
      });
      return `${url}${path}`;
    },
    sent: (path) => counts.get(path) ?? { requests: 0, bytes: 0, ranges: [] },
    reset: () => counts.clear(),
    close: () => close(server),
  };
}
