// Measures a media file's duration by streaming it to music-metadata, which runs in the document
// sandbox (a child process under the document limits: a crafted file cannot stall or bloat this
// one). Bounded: one deadline for the whole probe and a byte cap per read. Most containers (WAV,
// MP4, MP3 with a VBR header) state their duration up front; only when none is found is the file
// scanned, again under the cap.
import { pipeline, Transform } from 'node:stream';
import { ChildLostError, NotMediaError, STATED_IN_HEADER, type DocumentReader } from '../documents/sandbox/index.js';
import { DocumentRefusedError } from '../documents/limits.js';
import { contentTypeOf, FetchError, type Limits, type OpenedBody, type OutboundClient } from './outbound.js';

type Opener = Pick<OutboundClient, 'openCustomerUrl'>;
type Parser = Pick<DocumentReader, 'mediaDuration'>;

export async function probeMediaDuration(client: Opener, parser: Parser, url: string, field: string, limits: Limits): Promise<number> {
  const deadline = Date.now() + limits.timeoutMs;
  const opened = await client.openCustomerUrl(url, field, limits.timeoutMs);
  return durationOf(client, parser, opened, url, field, limits, deadline);
}

async function durationOf(client: Opener, parser: Parser, opened: OpenedBody, url: string, field: string, limits: Limits, deadline: number): Promise<number> {
  const reopen = () => client.openCustomerUrl(url, field, Math.max(1, deadline - Date.now()));
  const read = async (body: OpenedBody, scanWholeFile: boolean) => {
    try {
      return await readDuration(parser, body, field, limits.maxBytes, scanWholeFile, false);
    } catch (err) {
      // The shared reader was stopped for another file's sake: this one is read again, alone.
      if (err instanceof ChildLostError) return readDuration(parser, await reopen(), field, limits.maxBytes, scanWholeFile, true);
      throw err;
    }
  };
  const seconds = (await read(opened, false)) ?? (await read(await reopen(), true));
  if (seconds === undefined) throw new FetchError(`${field}: the file is not a recognised audio or video file (no duration found)`);
  return Math.ceil(seconds);
}

/** What shows a file is the one measured before: a strong ETag, or Last-Modified with its length. */
interface Validators { etag?: string; lastModified?: string; length?: string }

function validatorsOf(headers: OpenedBody['headers']): Validators | undefined {
  const one = (name: string) => { const v = headers[name]; return Array.isArray(v) ? v[0] : v; };
  const etag = one('etag');
  const lastModified = one('last-modified');
  const length = one('content-length');
  const strongEtag = etag && !etag.startsWith('W/') ? etag : undefined;
  if (strongEtag) return { etag: strongEtag };
  if (lastModified && length) return { lastModified, length };
  return undefined;
}

const sameFile = (a: Validators, b: Validators | undefined) =>
  b !== undefined && (a.etag ? a.etag === b.etag : a.lastModified === b.lastModified && a.length === b.length);

/**
 * probeMediaDuration with a memory of durations measured (`maxEntries` URLs, least recently used
 * dropped). A remembered duration is used only when the server vouches that the file is the same:
 * it answers the conditional GET with 304, or with the same validators; anything else is measured
 * afresh from that answer. Every probe still asks the server, so access is checked each time.
 */
export function createMediaProber(client: Opener, parser: Parser, maxEntries: number) {
  const known = new Map<string, { seconds: number; validators: Validators }>();
  return async (url: string, field: string, limits: Limits): Promise<number> => {
    if (maxEntries <= 0) return probeMediaDuration(client, parser, url, field, limits);
    const deadline = Date.now() + limits.timeoutMs;
    const entry = known.get(url);
    // Only a strong ETag is asked about; Last-Modified is compared with the length on the answer
    // (a 304 to If-Modified-Since would skip the length, and a file replaced within a second or
    // copied with its old date would pass).
    const conditional = entry?.validators.etag ? { 'if-none-match': entry.validators.etag } : undefined;
    const opened = await client.openCustomerUrl(url, field, limits.timeoutMs, conditional);
    const validators = validatorsOf(opened.headers);
    if (entry && (opened.statusCode === 304 || sameFile(entry.validators, validators))) {
      opened.done();
      opened.body.destroy();
      known.delete(url);
      known.set(url, entry); // most recently used last
      return entry.seconds;
    }
    known.delete(url);
    const seconds = await durationOf(client, parser, opened, url, field, limits, deadline);
    if (validators) {
      known.set(url, { seconds, validators });
      if (known.size > maxEntries) known.delete(known.keys().next().value!);
    }
    return seconds;
  };
}

async function readDuration(parser: Parser, opened: OpenedBody, field: string, maxBytes: number, scanWholeFile: boolean, alone: boolean): Promise<number | undefined> {
  try {
    const length = Number(opened.headers['content-length']);
    let seen = 0;
    let overCap: FetchError | undefined;
    const capped = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (seen > maxBytes) done(overCap = new FetchError(`${field}: the file is larger than ${maxBytes} bytes`));
        else done(null, chunk);
      },
    });
    // pipeline (not pipe) passes a network failure or the deadline's abort on to the parser.
    let transferFailed: Error | undefined;
    pipeline(opened.body, capped, (err) => {
      if (err && !(err instanceof FetchError)) transferFailed = err;
    });
    /** The download's own failure: a broken or late transfer is neutral to the customer, not a content problem. */
    const downloadFailure = (): Error | undefined => {
      if (overCap) return overCap;
      if (opened.signal.aborted) return opened.fail('timed out');
      const broken = transferFailed ?? opened.body.errored;
      return broken ? opened.fail(String((broken as { code?: string }).code ?? (broken as Error).message)) : undefined;
    };
    const format = await parser.mediaDuration(capped, { mimeType: contentTypeOf(opened.headers), size: Number.isFinite(length) ? length : undefined, scanWholeFile }, alone)
      .catch((err: Error) => {
        if (err instanceof FetchError || err instanceof ChildLostError) throw err;
        if (err instanceof DocumentRefusedError) throw new FetchError(`${field}: ${err.message}`);
        throw downloadFailure() ?? (err instanceof NotMediaError ? new FetchError(`${field}: the file is not a recognised audio or video file`) : err);
      });
    // A duration the header stated stands, however the download ended; one read from a cut file does not.
    if (format.container !== STATED_IN_HEADER) {
      const failure = downloadFailure();
      if (failure) throw failure;
    }
    if (!format.container) throw new FetchError(`${field}: the file is not a recognised audio or video file`);
    const seconds = format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
  } finally {
    opened.done();
    opened.body.destroy();
  }
}
