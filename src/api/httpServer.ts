// The HTTP server around the app: bounded time and size per request, and the error object also for
// what Node's HTTP layer refuses itself (malformed requests, huge headers, timeouts).
import { createServer, STATUS_CODES, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorObject, protocolRefusal } from './errors.js';

export interface HttpLimits {
  /** The whole request, headers and body, must arrive within this. */
  requestTimeoutMs: number;
  /** The headers must arrive within this. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  maxHeaderBytes: number;
  maxHeadersCount: number;
  /** Requests one connection may carry; the last answer says `Connection: close`. */
  maxRequestsPerSocket: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  maxHeadersCount: 100,
  maxRequestsPerSocket: 1000,
};

/** A whole HTTP/1.1 answer with the error object, for a socket no ServerResponse writes to. */
function rawAnswer(status: number, message: string): string {
  const body = JSON.stringify(errorObject('', message));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

function refuse(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify(errorObject('', message));
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' }).end(body);
}

export function createHttpServer(app: RequestListener, limits: HttpLimits, log: (message: string, meta: object) => void): Server {
  // Node refuses a headers timeout above the request timeout (0 turns either off).
  const headersTimeout = limits.requestTimeoutMs > 0 ? Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) : limits.headersTimeoutMs;
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      // Node checks the timeouts this often (default 30 s, too coarse for short timeouts).
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor((headersTimeout || limits.requestTimeoutMs || 20_000) / 4))),
      // Node's own answer to a missing Host has no body; the listener below gives the error object.
      requireHostHeader: false,
    },
    (req, res) => {
      if (req.httpVersion === '1.1' && req.headers.host === undefined) return refuse(res, 400, 'the Host header is missing');
      app(req, res);
    },
  );
  server.maxHeadersCount = limits.maxHeadersCount;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // An answer only where the protocol allows one: nothing of a response written on this socket yet.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) return void socket.destroy();
    const [status, message] = protocolRefusal(err.code);
    log('http refused', { status, code: err.code });
    socket.end(rawAnswer(status, message), () => socket.destroy());
  });
  server.on('checkExpectation', (_req, res: ServerResponse) => refuse(res, 417, 'only "Expect: 100-continue" is supported'));
  server.on('connect', (_req, socket: Duplex) => void socket.end(rawAnswer(405, 'CONNECT is not supported'), () => socket.destroy()));
  return server;
}
