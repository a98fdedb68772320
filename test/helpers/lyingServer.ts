// A customer's media server on loopback that misbehaves as servers do, by accident or on purpose
// (issue 41): ranged answers shorter than their Content-Range, a Content-Range that claims more than
// the file holds, and a file that changes between the quote's ranged reads and the order's download.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { close, listen } from './net.js';

export type Lie =
  /** The first ranged read honest; every later one a 206 with a true Content-Range and a 1-byte body. */
  | { kind: 'short-after-first' }
  /** Content-Range claims `extra` bytes more than the file has; a read past the real end comes back short. */
  | { kind: 'overclaim'; extra: number }
  /** Ranged reads answer from `ranged`; a whole-file GET (no Range) sends `whole`. */
  | { kind: 'swap'; ranged: string; whole: string };

export interface LyingServer {
  url: string;
  serve(path: string, file: string, lie: Lie): string;
  /** Requests per path so far, each with its Range header ('' for none). */
  requests(path: string): string[];
  close(): Promise<void>;
}

export async function startLyingServer(): Promise<LyingServer> {
  const files = new Map<string, { file: string; lie: Lie }>();
  const seen = new Map<string, string[]>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const entry = files.get(path);
    if (!entry) return void res.writeHead(404).end();
    const range = String(req.headers.range ?? '');
    const asked = [...(seen.get(path) ?? []), range];
    seen.set(path, asked);
    const { lie } = entry;
    const bytes = readFileSync(lie.kind === 'swap' ? (range ? lie.ranged : lie.whole) : entry.file);
    const match = /^bytes=(\d+)-(\d*)$/.exec(range);
    if (!match)
      return void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length, 'accept-ranges': 'bytes' }).end(bytes);
    const claimed = bytes.length + (lie.kind === 'overclaim' ? lie.extra : 0);
    const first = Number(match[1]);
    const last = Math.min(match[2] ? Number(match[2]) : claimed - 1, claimed - 1);
    let body = bytes.subarray(first, last + 1);
    if (lie.kind === 'short-after-first' && asked.filter(Boolean).length > 1) body = body.subarray(0, 1);
    res.writeHead(206, { 'content-range': `bytes ${first}-${last}/${claimed}`, 'content-length': body.length, 'accept-ranges': 'bytes' }).end(body);
  });
  const url = await listen(server);
  return {
    url,
    serve(path, file, lie) {
      files.set(path, { file, lie });
      return url + path;
    },
    requests: (path) => seen.get(path) ?? [],
    close: () => close(server),
  };
}
