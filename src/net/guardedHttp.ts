// One HTTP exchange with a customer's server, on Node's own http client: every socket is opened
// through the address guard (the lookup checks every address a name resolves to; an IP literal is
// checked before connecting), redirects are followed hop by hop, each hop checked again.
//
// Not undici: its HTTP/1 parser asserts when a server closes the connection while a body is
// paused by backpressure (nodejs/undici#5360, fixed only in undici 8, which needs Node 22), an
// uncatchable exception that took the whole service down on any server answering HTTP/1.0 or
// `Connection: close` (issue 51), and it throws on a `100 Continue` nobody asked for. Node's client
// pauses the socket, not the parser, and reports every way an answer can end or break as an error
// of that request or its body.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { pipeline, type Readable } from 'node:stream';

export type Headers = Record<string, string | string[] | undefined>;

export interface Exchange {
  statusCode: number;
  headers: Headers;
  /** The body as sent (Content-Encoding decoded); destroying it ends the exchange. */
  body: Readable;
}

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Uint8Array;
  signal: AbortSignal;
  /** Redirects to follow (each hop checked by the guard); 0 answers a redirect as it is. */
  maxRedirects: number;
}

/** Refuses a connection to `host` (an IP literal) before it is made; undefined lets it through. */
export type LiteralCheck = (host: string) => Error | undefined;

/** A server answered in a way no client can use (an encoding not supported). */
export class UnusableAnswerError extends Error {
  readonly code = 'E_UNUSABLE_ANSWER';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** How a reused socket that the server had closed fails a request. */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE']);
class StaleSocket extends Error {}

/** A free socket to a server is closed after this long unused (as undici's keep-alive default). */
const FREE_SOCKET_MS = 4_000;

/**
 * What a body sent with an encoding decodes through. The decoded size is bounded by each reader's
 * own cap (the decoder runs only as fast as it is read), so a small bomb costs no more than a file.
 */
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

export interface GuardedHttp {
  exchange(url: URL, request: ExchangeRequest): Promise<Exchange>;
  close(): void;
}

export function createGuardedHttp(lookup: LookupFunction, checkLiteral: LiteralCheck): GuardedHttp {
  const agentOptions = { keepAlive: true, timeout: FREE_SOCKET_MS, lookup };
  const agents = { 'http:': new HttpAgent(agentOptions), 'https:': new HttpsAgent(agentOptions) };

  /** One request to `url`, no redirect followed; resolves with the answer's head. */
  function send(url: URL, req: ExchangeRequest): Promise<IncomingMessage> {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const refused = isIP(host) ? checkLiteral(host) : undefined;
    if (refused) return Promise.reject(refused);
    const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
    return new Promise((resolve, reject) => {
      const outgoing: ClientRequest = (protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: req.method,
        agent: agents[protocol],
        headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
        signal: req.signal,
      });
      // Errors can come after the answer was handed over (bytes past its Content-Length, a reset
      // of a drained socket): the body reports those it is hurt by; none may go unheard.
      outgoing.on('error', (err: NodeJS.ErrnoException) =>
        reject(outgoing.reusedSocket && req.method === 'GET' && STALE_SOCKET.has(err.code ?? '') ? new StaleSocket() : err),
      );
      outgoing.on('response', resolve);
      outgoing.end(req.body);
    });
  }

  /**
   * A kept-alive socket the server closed as the request went out fails before any answer: a GET
   * is sent once more on a new connection (as browsers do); a callback's POST is left to its retries.
   */
  const sendOnce = (url: URL, req: ExchangeRequest) =>
    send(url, req).catch((err: unknown) => (err instanceof StaleSocket ? send(url, req) : Promise.reject(err)));

  async function exchange(url: URL, req: ExchangeRequest): Promise<Exchange> {
    let at = url;
    for (let hop = 0; ; hop++) {
      const answer = await sendOnce(at, req);
      const next = REDIRECTS.has(answer.statusCode ?? 0) && hop < req.maxRedirects ? redirectTarget(answer, at) : undefined;
      // Past the last hop allowed, or towards no http(s) URL, the redirect is the answer.
      if (!next) return decoded(answer, at, req);
      answer.destroy();
      at = next;
    }
  }

  /**
   * The answer with its body decoded where the server encoded it although asked for no encoding
   * (a server that compresses everything). A part of an encoded representation (206) cannot be
   * decoded alone: the whole file is asked for instead, and its reader streams it.
   */
  async function decoded(answer: IncomingMessage, url: URL, req: ExchangeRequest): Promise<Exchange> {
    const encoding = String(answer.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    const statusCode = answer.statusCode ?? 0;
    if (encoding === 'identity' || encoding === '' || statusCode === 304 || statusCode < 200 || statusCode >= 300) {
      return { statusCode, headers: answer.headers, body: answer };
    }
    const decoder = DECODERS[encoding];
    if (!decoder) {
      answer.destroy();
      throw new UnusableAnswerError(`the server sent the file encoded as ${encoding.slice(0, 40)}, which is not supported`);
    }
    if (statusCode === 206 && req.headers?.range) {
      answer.destroy();
      const { range: _range, ...rest } = req.headers;
      return exchange(url, { ...req, headers: rest });
    }
    // The encoded length is not the file's: only the data tells how long the file is.
    const { 'content-length': _length, 'content-encoding': _encoding, ...headers } = answer.headers;
    const body = pipeline(answer, decoder(), () => undefined) as unknown as Readable;
    return { statusCode, headers, body };
  }

  return {
    exchange,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function redirectTarget(answer: IncomingMessage, from: URL): URL | undefined {
  try {
    const next = new URL(answer.headers.location ?? '', from);
    return answer.headers.location && (next.protocol === 'http:' || next.protocol === 'https:') ? next : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lets an unread answer's connection serve the next request: a small body is read to its end (at
 * most `limit` bytes; on loopback a 304 read to its end cost half the time of one destroyed), a
 * larger one is cut.
 */
export function releaseBody(body: Readable, limit: number): void {
  let read = 0;
  body.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > limit) body.destroy();
  });
  body.on('error', () => undefined);
  body.resume();
}
