// The one way this service reaches a URL a customer gave it: media and documents to measure or
// transcribe, and callbacks to deliver. Every connection goes through the guarded client
// (guardedHttp.ts): the address is checked when the socket is opened (after every DNS answer and
// every redirect), so neither a rebinding resolver nor a redirect reaches a private address.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createAddressGuard } from './addressGuard.js';
import { createGuardedHttp, UnusableAnswerError } from './guardedHttp.js';

/** A customer URL could not be used; the message names the field and is the caller's to see. */
export class FetchError extends Error {}

/** The guard refused an address; the message is for operators. */
export class RefusedAddressError extends Error {
  readonly code = 'E_OUTBOUND_REFUSED';
  constructor(
    readonly address: string,
    readonly range: string,
    reason: string,
    hostname: string,
  ) {
    super(`refused ${address}${hostname !== address ? ` (${hostname})` : ''}: ${reason}${range ? ` (${range})` : ''}; see OUTBOUND_ALLOW_CIDRS`);
  }
}

/** Whether a refusal's text is the guard's (it names the address a host resolved to: for operators only). */
export const isAddressRefusal = (detail: string): boolean => detail.startsWith('refused ');

export interface Limits {
  maxBytes: number;
  timeoutMs: number;
}
/** A customer's media: also its length, in seconds. */
export interface MediaLimits extends Limits {
  maxSeconds: number;
}

export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface OutboundOptions {
  /** CIDRs customer URLs may reach although private (OUTBOUND_ALLOW_CIDRS). */
  allowCidrs: readonly string[];
  /** Where the detail of a failure goes; customers only see a neutral message. */
  log: (message: string, meta: object) => void;
  /** Name resolution; a test injects a rebinding one. */
  lookup?: Resolve;
  /** Told of each refusal (npm start prints a one-time hint). */
  onRefused?: (refusal: RefusedAddressError) => void;
}

export interface OpenedBody {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  /** Aborted when the deadline passes; the body then fails. */
  signal: AbortSignal;
  done(): void;
  /** The neutral error for this field, the detail logged. */
  fail(detail: string): FetchError;
}

export interface CallbackRequest {
  body: Uint8Array;
  headers: Record<string, string>;
}
export interface CallbackAnswer {
  statusCode: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface OutboundClient {
  /**
   * GETs `url` (following up to 5 redirects) with a deadline; the caller reads the body and calls done().
   * `headers`: a Range (a 206 is an answer like a 200), validators (If-None-Match makes a 304 an answer too).
   */
  openCustomerUrl(url: string, field: string, timeoutMs: number, headers?: Record<string, string>): Promise<OpenedBody>;
  /**
   * Reads at most `limits.maxBytes` of `url`. `sniff`: once `sniff.bytes` are in (or the file ended),
   * `sniff.stop(head)` may end the read early (a media file need not be read whole to classify it).
   */
  fetchCustomerFile(url: string, field: string, limits: Limits, sniff?: Sniff): Promise<{ bytes: Buffer; contentType: string | undefined; complete: boolean }>;
  /** One callback attempt: a POST of exactly these bytes that follows no redirect. Throws on failure. */
  postCallback(url: string, request: CallbackRequest, opts: { timeoutMs: number; maxResponseBytes: number }): Promise<CallbackAnswer>;
  /**
   * Whether the guard would let a request to `url` through now: the refusal detail when the URL is
   * not http(s) or any address its host resolves to is refused (OUTBOUND_ALLOW_CIDRS honoured),
   * undefined when allowed. A host that does not resolve is not refused (it may resolve later;
   * each request is checked again when it connects).
   */
  checkDestination(url: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** What went wrong, for the log: the refusal, the error code, or the deadline. */
function reason(err: Error, signal: AbortSignal): string {
  if (err instanceof RefusedAddressError || err instanceof UnusableAnswerError) return err.message;
  if (signal.aborted) return 'timed out';
  return (err as { code?: string }).code ?? err.message;
}

/** The origin alone for the log: the path may name the customer's file, the query carry a signature or a token. */
function shown(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(not a URL)';
  }
}

function httpUrl(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `localhost` and every name under it, however spelt (RFC 6761 §6.3: always loopback). */
const isLocalhostName = (hostname: string): boolean => /(^|\.)localhost\.?$/i.test(hostname);

/**
 * Localhost names answer loopback without asking DNS: a resolver need not know `localhost.` or
 * `a.localhost`, and one that forwards them to an unreachable nameserver would stall the refusal.
 */
const LOOPBACK = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];
function withLocalhostNames(resolve: Resolve): Resolve {
  return (hostname) => (isLocalhostName(hostname) ? Promise.resolve(LOOPBACK) : resolve(hostname));
}

export function createOutboundClient(opts: OutboundOptions): OutboundClient {
  const check = createAddressGuard(opts.allowCidrs);
  const resolve = withLocalhostNames(opts.lookup ?? ((hostname) => dnsLookup(hostname, { all: true })));

  const refusal = (address: string, hostname: string): RefusedAddressError | undefined => {
    const verdict = check(address);
    if (verdict.allowed) return undefined;
    const err = new RefusedAddressError(address, verdict.range, verdict.reason, hostname);
    opts.onRefused?.(err);
    return err;
  };

  // Every address a name resolves to must pass, not just the one connected to first.
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    let answered = false;
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
        for (const { address } of addresses) {
          const refused = refusal(address, hostname);
          if (refused) throw refused;
        }
        answered = true;
        if (options.all)
          callback(
            null,
            addresses.map(({ address, family }) => ({ address, family })),
          );
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((err: NodeJS.ErrnoException) => {
        // A failure of the connection after the lookup answered is the connection's, not a second answer.
        if (answered) opts.log('outbound connection failed after its lookup', { host: hostname, error: String(err) });
        else callback(err, '');
      });
  };
  const http = createGuardedHttp(guardedLookup, (host) => refusal(host, host));

  const failure = (field: string, url: string, detail: string) => {
    opts.log('customer URL not fetched', { field, origin: shown(url), detail });
    return new FetchError(`${field}: the file could not be fetched`);
  };

  async function openCustomerUrl(url: string, field: string, timeoutMs: number, headers?: Record<string, string>): Promise<OpenedBody> {
    const parsed = httpUrl(url);
    if (!parsed) throw failure(field, url, 'not an http or https URL');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const done = () => clearTimeout(timer);
    const fail = (detail: string) => failure(field, url, detail);
    try {
      // Media and documents may sit behind a redirect (a CDN, a share link): each hop is checked.
      const response = await http.exchange(parsed, { method: 'GET', headers, signal: controller.signal, maxRedirects: 5 });
      // Destroying an unread body emits an abort error: keep it from becoming an uncaught exception.
      response.body.on('error', () => undefined);
      const notModified = response.statusCode === 304 && headers?.['if-none-match'] !== undefined;
      if (!notModified && (response.statusCode < 200 || response.statusCode >= 300)) {
        response.body.destroy();
        throw fail(`HTTP ${response.statusCode}`);
      }
      return { ...response, signal: controller.signal, done, fail };
    } catch (err) {
      done();
      if (err instanceof FetchError) throw err;
      if (err instanceof UnusableAnswerError) {
        opts.log('customer URL not used', { field, origin: shown(url), detail: err.message });
        throw new FetchError(`${field}: ${err.message}`);
      }
      throw fail(reason(err as Error, controller.signal));
    }
  }

  async function fetchCustomerFile(url: string, field: string, limits: Limits, sniff?: Sniff) {
    const opened = await openCustomerUrl(url, field, limits.timeoutMs);
    try {
      return { ...(await readCustomerFile(opened.body, field, limits.maxBytes, sniff)), contentType: contentTypeOf(opened.headers) };
    } catch (err) {
      if (err instanceof FetchError) throw err;
      throw opened.fail(reason(err as Error, opened.signal));
    } finally {
      opened.done();
      opened.body.destroy();
    }
  }

  async function postCallback(url: string, req: CallbackRequest, limits: { timeoutMs: number; maxResponseBytes: number }): Promise<CallbackAnswer> {
    const parsed = httpUrl(url);
    if (!parsed) throw new Error('the callback URL is not an http or https URL');
    const signal = AbortSignal.timeout(limits.timeoutMs);
    try {
      // A callback follows no redirect: its receiver is the URL the customer gave.
      const response = await http.exchange(parsed, { method: 'POST', body: req.body, headers: req.headers, signal, maxRedirects: 0 });
      response.body.on('error', () => undefined);
      // The answer is only compared with `ok` and shown to operators: read no more than asked.
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          const room = limits.maxResponseBytes - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          if (size >= limits.maxResponseBytes) break;
        }
      } finally {
        response.body.destroy();
      }
      return { statusCode: response.statusCode, text: Buffer.concat(chunks).toString('utf8'), headers: response.headers };
    } catch (err) {
      const why = reason(err as Error, signal);
      throw new Error(why === 'timed out' ? `timed out after ${limits.timeoutMs} ms` : why);
    }
  }

  async function checkDestination(url: string): Promise<string | undefined> {
    const parsed = httpUrl(url);
    if (!parsed) return 'not an http or https URL';
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: Array<{ address: string }>;
    try {
      addresses = isIP(host) ? [{ address: host }] : await resolve(host);
    } catch {
      return undefined;
    }
    for (const { address } of addresses) {
      const verdict = check(address);
      if (!verdict.allowed) return new RefusedAddressError(address, verdict.range, verdict.reason, host).message;
    }
    return undefined;
  }

  return { openCustomerUrl, fetchCustomerFile, postCallback, checkDestination, close: async () => http.close() };
}

/** Where a read may stop early: once `bytes` are in (or the file ended), `stop(head)` says whether to. */
export interface Sniff {
  bytes: number;
  stop: (head: Buffer) => boolean;
}

/**
 * A customer's file read whole, at most `maxBytes` (a FetchError naming `field` past them), or its
 * head alone where `sniff` stops there (`complete: false`).
 */
export async function readCustomerFile(body: Readable, field: string, maxBytes: number, sniff?: Sniff): Promise<{ bytes: Buffer; complete: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let sniffed = !sniff;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) throw new FetchError(`${field}: the file is larger than ${maxBytes} bytes`);
    if (!sniffed && size >= sniff!.bytes) {
      sniffed = true;
      const head = Buffer.concat(chunks);
      if (sniff!.stop(head)) return { bytes: head, complete: false };
    }
  }
  return { bytes: Buffer.concat(chunks), complete: true };
}

export function contentTypeOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['content-type'];
  const type = (Array.isArray(value) ? value[0] : value)?.split(';')[0]?.trim().toLowerCase();
  return type || undefined;
}

/** For npm start: says once how to let customer URLs reach a private range in local experiments. */
export function privateAddressHint(print: (line: string) => void = console.log): (refusal: RefusedAddressError) => void {
  let printed = false;
  return (refusal) => {
    if (printed) return;
    printed = true;
    print(
      `A customer URL was refused because it points to a private address (${refusal.address}); ` +
        `set OUTBOUND_ALLOW_CIDRS=${refusal.range || refusal.address} to allow it for local experiments.`,
    );
  };
}
