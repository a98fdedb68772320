// A customer's media server on loopback, written on raw sockets so that it can end or garble an
// answer in every way HTTP servers do (issue 51): an HTTP/1.0 answer closed after its body (python's
// http.server), `Connection: close`, no length, chunks with trailers, a reset half-way, a body longer
// or shorter than its Content-Length, a gzip encoding nobody asked for, a `100 Continue` first, a
// kept-alive connection closed just after, one byte a second. Ranges are ignored, as such servers do:
// every answer is the whole file.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export const MANNERS = [
  'http10-close',
  'connection-close',
  'no-length-close',
  'chunked-trailers',
  'reset-mid-body',
  'longer-than-length',
  'shorter-than-length',
  'gzip-encoded',
  'continue-first',
  'keep-alive-then-close',
  'one-byte-a-second',
] as const;
export type Manner = (typeof MANNERS)[number];

/** The manners in which the whole file arrives (however framed): an order on them is worked. */
export const WHOLE: ReadonlySet<Manner> = new Set([
  'http10-close',
  'connection-close',
  'no-length-close',
  'chunked-trailers',
  'longer-than-length',
  'gzip-encoded',
  'continue-first',
  'keep-alive-then-close',
]);

export interface MisbehavingServer {
  /** The file's URL, served in `manner`. */
  url(manner: Manner): string;
  /** While true every URL answers as a well-kept server does (an order placed, then the server going bad). */
  honest: boolean;
  /** Requests per manner so far. */
  requests: Map<Manner, number>;
  close(): Promise<void>;
}

const head = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);

function answer(socket: Socket, manner: Manner, file: Buffer, type: string): void {
  const ok = 'HTTP/1.1 200 OK';
  const typed = `Content-Type: ${type}`;
  switch (manner) {
    case 'http10-close':
      return void socket.end(Buffer.concat([head(['HTTP/1.0 200 OK', typed, `Content-Length: ${file.length}`]), file]));
    case 'connection-close':
      return void socket.end(Buffer.concat([head([ok, typed, `Content-Length: ${file.length}`, 'Connection: close']), file]));
    case 'no-length-close':
      return void socket.end(Buffer.concat([head([ok, typed, 'Connection: close']), file]));
    case 'chunked-trailers': {
      socket.write(head([ok, typed, 'Transfer-Encoding: chunked', 'Trailer: X-Checksum']));
      for (let at = 0; at < file.length; at += 10_000) {
        const chunk = file.subarray(at, at + 10_000);
        socket.write(`${chunk.length.toString(16)}\r\n`);
        socket.write(chunk);
        socket.write('\r\n');
      }
      return void socket.write('0\r\nX-Checksum: none\r\n\r\n');
    }
    case 'reset-mid-body':
      socket.write(head([ok, typed, `Content-Length: ${file.length}`]));
      return void socket.write(file.subarray(0, file.length >> 1), () => socket.resetAndDestroy());
    case 'longer-than-length':
      return void socket.write(Buffer.concat([head([ok, typed, `Content-Length: ${file.length - 1000}`]), file, Buffer.from('trailing garbage\r\n')]));
    case 'shorter-than-length':
      return void socket.end(Buffer.concat([head([ok, typed, `Content-Length: ${file.length + 1000}`]), file]));
    case 'gzip-encoded': {
      const packed = gzipSync(file);
      return void socket.write(Buffer.concat([head([ok, typed, 'Content-Encoding: gzip', `Content-Length: ${packed.length}`]), packed]));
    }
    case 'continue-first':
      return void socket.write(Buffer.concat([Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'), head([ok, typed, `Content-Length: ${file.length}`]), file]));
    case 'keep-alive-then-close':
      socket.write(Buffer.concat([head([ok, typed, `Content-Length: ${file.length}`, 'Connection: keep-alive', 'Keep-Alive: timeout=60']), file]));
      return void setTimeout(() => socket.end(), 20);
    case 'one-byte-a-second': {
      socket.write(head([ok, typed, `Content-Length: ${file.length}`]));
      let at = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || at >= file.length) return clearInterval(timer);
        socket.write(file.subarray(at, ++at));
      }, 1000);
      return void socket.once('close', () => clearInterval(timer));
    }
  }
}

/** Serves `file` at /<manner>/<name> in each manner, reading each request's head before answering. */
export async function startMisbehavingServer(file: Buffer, name = 'speech.wav', type = 'audio/wav'): Promise<MisbehavingServer> {
  const requests = new Map<Manner, number>();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = '';
    socket.on('data', (data) => {
      pending += data.toString('latin1');
      // Each request's head (these clients send no body with a GET); several may come on a kept-alive socket.
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const requestLine = pending.slice(0, pending.indexOf('\r\n'));
        pending = pending.slice(end + 4);
        const manner = /^GET \/([a-z0-9-]+)\//.exec(requestLine)?.[1] as Manner | undefined;
        if (!manner || !MANNERS.includes(manner)) return void socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        requests.set(manner, (requests.get(manner) ?? 0) + 1);
        if (served.honest) socket.write(Buffer.concat([head(['HTTP/1.1 200 OK', `Content-Type: ${type}`, `Content-Length: ${file.length}`]), file]));
        else answer(socket, manner, file, type);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const served: MisbehavingServer = {
    url: (manner) => `${base}/${manner}/${name}`,
    honest: false,
    requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return served;
}
