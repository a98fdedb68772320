// The one way this service reaches a URL a customer gave it: media and documents to measure,
// and callbacks to deliver. Guards on customer URLs belong here, so every request gets them.
import type { Readable } from 'node:stream';
import { Agent, fetch, interceptors, request, type FormData } from 'undici';

/** A customer URL could not be read; the message names the field and is the caller's to see. */
export class FetchError extends Error {}

export interface Limits { maxBytes: number; timeoutMs: number }

const direct = new Agent();
// Media and documents may sit behind a redirect (a CDN, a share link); callbacks never follow one.
const withRedirects = direct.compose(interceptors.redirect({ maxRedirections: 5 }));

export interface OpenedBody {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  /** Aborted when the deadline passes; the body then fails. */
  signal: AbortSignal;
  done(): void;
}

const TIMEOUT_CODES = ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'];

function reason(err: Error, signal: AbortSignal): string {
  const code = (err as { code?: string }).code;
  // The deadline and undici's own header/body timeouts race each other: both are the deadline.
  if (signal.aborted || (code && TIMEOUT_CODES.includes(code))) return 'timed out';
  return code ?? err.message;
}

/** GETs `url` (following redirects) with a deadline; the caller reads the body and calls done(). */
export async function openCustomerUrl(url: string, field: string, timeoutMs: number): Promise<OpenedBody> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const done = () => clearTimeout(timer);
  try {
    const response = await request(url, {
      method: 'GET', signal: controller.signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, dispatcher: withRedirects,
    });
    // Destroying an unread body emits an abort error: keep it from becoming an uncaught exception.
    response.body.on('error', () => undefined);
    if (response.statusCode < 200 || response.statusCode >= 300) {
      response.body.destroy();
      throw new FetchError(`${field}: the file could not be fetched (HTTP ${response.statusCode})`);
    }
    return { statusCode: response.statusCode, headers: response.headers, body: response.body, signal: controller.signal, done };
  } catch (err) {
    done();
    if (err instanceof FetchError) throw err;
    throw new FetchError(`${field}: the file could not be fetched (${reason(err as Error, controller.signal)})`);
  }
}

/**
 * Reads at most `limits.maxBytes` of `url`. `sniff`: once `sniff.bytes` are in (or the file ended),
 * `sniff.stop(head)` may end the read early (a media file need not be read whole to classify it).
 */
export async function fetchCustomerFile(url: string, field: string, limits: Limits, sniff?: { bytes: number; stop: (head: Buffer) => boolean }):
  Promise<{ bytes: Buffer; contentType: string | undefined; complete: boolean }> {
  const opened = await openCustomerUrl(url, field, limits.timeoutMs);
  const contentType = contentTypeOf(opened.headers);
  const chunks: Buffer[] = [];
  let size = 0;
  let sniffed = !sniff;
  try {
    for await (const chunk of opened.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limits.maxBytes) throw new FetchError(`${field}: the file is larger than ${limits.maxBytes} bytes`);
      if (!sniffed && size >= sniff!.bytes) {
        sniffed = true;
        const head = Buffer.concat(chunks);
        if (sniff!.stop(head)) return { bytes: head, contentType, complete: false };
      }
    }
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw new FetchError(`${field}: the file could not be fetched (${reason(err as Error, opened.signal)})`);
  } finally {
    opened.done();
    opened.body.destroy();
  }
  return { bytes: Buffer.concat(chunks), contentType, complete: true };
}

export function contentTypeOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['content-type'];
  const type = (Array.isArray(value) ? value[0] : value)?.split(';')[0]?.trim().toLowerCase();
  return type || undefined;
}

/** One callback attempt: a POST that follows no redirect; the answer's first 200 characters. */
export async function postCallback(url: string, body: FormData, timeoutMs: number): Promise<{ statusCode: number; text: string }> {
  const response = await fetch(url, { method: 'POST', body, redirect: 'manual', dispatcher: direct, signal: AbortSignal.timeout(timeoutMs) });
  // The answer only needs comparing with `ok` and showing to operators.
  const text = (await response.text()).slice(0, 200);
  return { statusCode: response.status, text };
}
