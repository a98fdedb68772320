// Measures a media file's duration by streaming it and reading the container with music-metadata.
// Bounded: one deadline for the whole probe and a byte cap per read. Most containers (WAV, MP4,
// MP3 with a VBR header) state their duration up front; only when none is found is the file
// scanned, again under the cap.
import { pipeline, Transform } from 'node:stream';
import { parseStream } from 'music-metadata';
import { contentTypeOf, FetchError, type Limits, type OpenedBody, type OutboundClient } from './outbound.js';

type Opener = Pick<OutboundClient, 'openCustomerUrl'>;

export async function probeMediaDuration(client: Opener, url: string, field: string, limits: Limits): Promise<number> {
  const deadline = Date.now() + limits.timeoutMs;
  const opened = await client.openCustomerUrl(url, field, limits.timeoutMs);
  return durationOf(client, opened, url, field, limits, deadline);
}

async function durationOf(client: Opener, opened: OpenedBody, url: string, field: string, limits: Limits, deadline: number): Promise<number> {
  const quick = await readDuration(opened, field, limits.maxBytes, false);
  const seconds = quick ?? (await readDuration(await client.openCustomerUrl(url, field, Math.max(1, deadline - Date.now())), field, limits.maxBytes, true));
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
export function createMediaProber(client: Opener, maxEntries: number) {
  const known = new Map<string, { seconds: number; validators: Validators }>();
  return async (url: string, field: string, limits: Limits): Promise<number> => {
    if (maxEntries <= 0) return probeMediaDuration(client, url, field, limits);
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
    const seconds = await durationOf(client, opened, url, field, limits, deadline);
    if (validators) {
      known.set(url, { seconds, validators });
      if (known.size > maxEntries) known.delete(known.keys().next().value!);
    }
    return seconds;
  };
}

async function readDuration(opened: OpenedBody, field: string, maxBytes: number, scanWholeFile: boolean): Promise<number | undefined> {
  try {
    const length = Number(opened.headers['content-length']);
    let seen = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (seen > maxBytes) done(new FetchError(`${field}: the file is larger than ${maxBytes} bytes`));
        else done(null, chunk);
      },
    });
    // pipeline (not pipe) passes a network failure or the deadline's abort on to the parser.
    let transferFailed: Error | undefined;
    pipeline(opened.body, capped, (err) => {
      if (err && !(err instanceof FetchError) && !(err instanceof HeaderSufficed)) transferFailed = err;
    });
    capped.on('error', () => undefined); // the parser sees the failure through its reads
    // Parsers read on past the header (to trailing tags); once the header has given the
    // duration, the rest of the download is not needed.
    let stated: number | undefined;
    const observer = scanWholeFile ? undefined : ({ tag }: { tag: { type: string; id: string; value: unknown } }) => {
      if (tag.type === 'format' && tag.id === 'duration' && typeof tag.value === 'number' && tag.value > 0 && Number.isFinite(tag.value)) {
        stated = tag.value;
        capped.destroy(new HeaderSufficed());
      }
    };
    const metadata = await parseStream(capped, { mimeType: contentTypeOf(opened.headers), size: Number.isFinite(length) ? length : undefined },
      { duration: scanWholeFile, skipCovers: true, observer: observer as never })
      .catch((err: Error) => {
        if (stated !== undefined) return { format: { container: 'stated in header', duration: stated } };
        if (err instanceof FetchError) throw err;
        // A broken or late transfer is a fetch failure (neutral to the customer), not a content problem.
        const broken = transferFailed ?? opened.body.errored;
        if (opened.signal.aborted) throw opened.fail('timed out');
        if (broken) throw opened.fail(String((broken as { code?: string }).code ?? (broken as Error).message));
        throw new FetchError(`${field}: the file is not a recognised audio or video file`);
      });
    if (!metadata.format.container) throw new FetchError(`${field}: the file is not a recognised audio or video file`);
    const seconds = metadata.format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
  } finally {
    opened.done();
    opened.body.destroy();
  }
}

class HeaderSufficed extends Error {}
