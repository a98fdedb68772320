// Measures a media file's duration, in the document sandbox (a child process under the document
// limits: a crafted file cannot stall or bloat this one), through the one guarded client.
// Where the server answers ranges (a 206 to the first request, which asks for the file's head),
// the parser reads only what it needs: the header, the tail (trailing tags, an Ogg stream's last
// page) and the index wherever it sits (an MP4's `moov` first or last), a few requests whatever the
// file's size. A server that ignores ranges streams the file; a container that states no duration
// where it was read (ADTS AAC) is streamed and scanned whole. Bounded: one deadline for the probe,
// the size limit, and a budget of requests and bytes for ranged reads, past which the file is streamed.
import { createHash } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import { ChildLostError, NotMediaError, STATED_IN_HEADER, type BlockSource, type DocumentReader } from '../documents/sandbox/index.js';
import { DocumentRefusedError } from '../documents/limits.js';
import { BlockList } from '../documents/mediaDuration.js';
import { ALL_MEDIA_FORMATS, mediaFormatOf, namesOf, type MediaFormatKey } from '../documents/mediaFormats.js';
import { SIGNATURE_BYTES } from '../documents/measure.js';
import { releaseBody } from './guardedHttp.js';
import { contentTypeOf, FetchError, type Limits, type OpenedBody, type OutboundClient } from './outbound.js';

type Opener = Pick<OutboundClient, 'openCustomerUrl'>;
type Parser = Pick<DocumentReader, 'mediaDuration' | 'mediaDurationByRanges'>;

/** The first request asks for the head: enough for most headers, and its answer tells whether ranges work. */
const HEAD_BYTES = 64 * 1024;
/** The first read near the end fetches this much of the tail at once (ID3v1, APE, an Ogg stream's last page). */
const TAIL_BYTES = 64 * 1024;
/** A read within this much of the end fetches everything up to what is held (an MP4's index, written last). */
const NEAR_END_BYTES = 16 * 1024 ** 2;
/** A read elsewhere fetches at least this much. */
const MIN_BLOCK_BYTES = 256 * 1024;
/** Past these the parser is scanning rather than reading an index: the file is streamed instead. */
const RANGED_BUDGET = { requests: 8, bytes: 64 * 1024 ** 2 };

/** Ranged reads gave up (the budget, or the server stopped answering ranges): stream the file. */
class RangesAbandoned extends Error {}

/** One probe of one file: what it reads through, what it asks of it, and by when. */
interface Probe {
  client: Opener;
  parser: Parser;
  url: string;
  field: string;
  limits: Limits;
  deadline: number;
  /** The formats priced (documents/mediaFormats.ts); others are refused, naming the field. */
  accepted: ReadonlySet<MediaFormatKey>;
}

export interface ProbeOptions {
  /** The formats priced; default all of MEDIA_FORMATS (where ffmpeg renders those it must). */
  accepted?: ReadonlySet<MediaFormatKey>;
}

const probeOf = (client: Opener, parser: Parser, url: string, field: string, limits: Limits, options: ProbeOptions): Probe => ({
  client,
  parser,
  url,
  field,
  limits,
  deadline: Date.now() + limits.timeoutMs,
  accepted: options.accepted ?? ALL_MEDIA_FORMATS,
});

export async function probeMediaDuration(
  client: Opener,
  parser: Parser,
  url: string,
  field: string,
  limits: Limits,
  options: ProbeOptions = {},
): Promise<number> {
  const probe = probeOf(client, parser, url, field, limits, options);
  const opened = await client.openCustomerUrl(url, field, limits.timeoutMs, { range: `bytes=0-${HEAD_BYTES - 1}` });
  return durationOf(probe, opened);
}

/** A 206's Content-Range (`bytes 0-65535/824000000`): its first and last byte and the file's size; undefined for an unknown size. */
function contentRange(opened: OpenedBody): { first: number; last: number; size: number } | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(one(opened.headers, 'content-range') ?? '').trim());
  return match ? { first: Number(match[1]), last: Number(match[2]), size: Number(match[3]) } : undefined;
}

/** A 206's total size, when it answers from the start; undefined for a 200 or an unknown size. */
function rangedTotal(opened: OpenedBody): number | undefined {
  const range = opened.statusCode === 206 ? contentRange(opened) : undefined;
  return range && range.first === 0 && range.last < range.size ? range.size : undefined;
}

const one = (headers: OpenedBody['headers'], name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The whole (small) body of a ranged answer, at most `max` bytes. */
async function bodyOf(opened: OpenedBody, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of opened.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) throw new RangesAbandoned('the server sent more than the range asked');
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof RangesAbandoned) throw err;
    throw opened.fail(opened.signal.aborted ? 'timed out' : String((err as { code?: string }).code ?? (err as Error).message));
  } finally {
    opened.done();
    opened.body.destroy();
  }
  return Buffer.concat(chunks);
}

/**
 * The parent's side of ranged reads: a read the parser makes that no block holds fetches what is
 * missing of it and around it: the tail whole near the end; after a jump elsewhere near the end,
 * everything up to what is held (an MP4's index, written last); reading on (a parser going through
 * pages), MIN_BLOCK_BYTES. Within RANGED_BUDGET; adjacent blocks merge.
 */
function rangeSource(probe: Probe, size: number, head: Buffer, reads: RangedRead[]): BlockSource {
  const blocks = new BlockList([{ at: 0, bytes: head }]);
  for (const read of reads) blocks.add({ at: read.at, bytes: read.bytes });
  const spent = { requests: 1 + reads.length, bytes: reads.reduce((sum, read) => sum + read.bytes.length, head.length) };
  return {
    async block(start, end) {
      end = Math.min(end, size);
      const held = blocks.covering(start, end);
      if (held) return held;
      const from = blocks.heldUpTo(start);
      const nextHeld = blocks.nextStart(from) ?? size;
      let window: [number, number];
      if (end > size - TAIL_BYTES) window = [Math.min(from, Math.max(0, size - TAIL_BYTES)), size];
      else if (from === start && !blocks.endsAt(from) && nextHeld - from <= NEAR_END_BYTES) window = [from, nextHeld];
      else window = [from, Math.min(nextHeld, from + Math.max(MIN_BLOCK_BYTES, end - from))];
      const [at, to] = [window[0], Math.max(window[1], end)];
      spent.requests += 1;
      spent.bytes += to - at;
      if (spent.requests > RANGED_BUDGET.requests || spent.bytes > RANGED_BUDGET.bytes) throw new RangesAbandoned('past the ranged budget');
      const bytes = await readRange(probe, at, to, size);
      reads.push({ at, bytes });
      blocks.add({ at, bytes });
      const covering = blocks.covering(start, end);
      if (!covering) throw new RangesAbandoned(`bytes ${start}-${end - 1} are not held after reading ${at}-${to - 1}`);
      return covering;
    },
  };
}

/**
 * Bytes [at, to) of a file of `size` bytes, by one ranged request. Only an answer that is exactly
 * that is taken: a 206 whose Content-Range names these bytes of a file of this size, and a body of
 * that length. Anything else (a server that stopped answering ranges, a file that changed size, a
 * body short or long) gives up ranged reads: the file is streamed and measured whole instead.
 */
async function readRange({ client, url, field, deadline }: Probe, at: number, to: number, size: number): Promise<Buffer> {
  const opened = await client.openCustomerUrl(url, field, Math.max(1, deadline - Date.now()), { range: `bytes=${at}-${to - 1}` });
  const range = opened.statusCode === 206 ? contentRange(opened) : undefined;
  if (!range || range.first !== at || range.last !== to - 1 || range.size !== size) {
    opened.done();
    opened.body.destroy();
    throw new RangesAbandoned(`the server answered bytes ${at}-${to - 1} of ${size} with ${opened.statusCode} ${one(opened.headers, 'content-range') ?? ''}`);
  }
  const bytes = await bodyOf(opened, to - at);
  if (bytes.length !== to - at) throw new RangesAbandoned(`the server sent ${bytes.length} of bytes ${at}-${to - 1}`);
  return bytes;
}

/** The accepted format of a file, by its first bytes; refused (naming the field) when it is none. */
function acceptedFormat(head: Uint8Array, { field, accepted }: Probe): MediaFormatKey {
  const format = mediaFormatOf(head);
  if (!format || !accepted.has(format)) throw new FetchError(`${field}: the file is not a recognised audio or video file (accepted: ${namesOf(accepted)})`);
  return format;
}

/** A ranged request the parser's reads made (beyond the head), with what it returned. */
interface RangedRead {
  at: number;
  bytes: Buffer;
}

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

/** At most `max` entries; the least recently used is dropped. */
class Recent<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

/**
 * Durations remembered by the bytes their parse read, for servers that send no validators. The
 * parser is deterministic: given the same size, type and bytes at the same places, it makes the same
 * reads and finds the same duration. So for a file whose head matches one measured before, the other
 * ranges of that measurement are fetched again and compared, and the parse is skipped when all match,
 * whatever the URL (it tells nothing that a customer holding those bytes could not work out).
 */
type RangedReadings = Recent<{ reads: Array<{ at: number; to: number; digest: string }>; seconds: number }>;

/** Seconds by ranged reads; undefined when the file must be streamed (no stated duration, or ranges abandoned). */
async function readByRanges(probe: Probe, opened: OpenedBody, size: number, readings?: RangedReadings): Promise<number | undefined> {
  const { parser, field } = probe;
  const first = contentRange(opened)!;
  const head = await bodyOf(opened, HEAD_BYTES).catch((err: unknown) => (err instanceof RangesAbandoned ? undefined : Promise.reject(err)));
  // A head shorter or longer than its Content-Range says: the server's ranges are not to be trusted.
  if (head?.length !== first.last + 1) return undefined;
  acceptedFormat(head, probe);
  const mimeType = contentTypeOf(opened.headers);
  const media = { size, ...(mimeType ? { mimeType } : {}) };
  const key = readings ? `${size}:${mimeType ?? ''}:${digest(head)}` : '';
  try {
    // A file read before: its other ranges again, kept for the parse if any differs.
    const replayed: RangedRead[] = [];
    const known = readings?.get(key);
    if (known) {
      for (const { at, to } of known.reads) replayed.push({ at, bytes: await readRange(probe, at, to, size) });
      if (replayed.every((read, i) => digest(read.bytes) === known.reads[i]!.digest)) return known.seconds;
    }
    let reads: RangedRead[] = [];
    const read = (alone: boolean) => {
      reads = [...replayed];
      return parser.mediaDurationByRanges(rangeSource(probe, size, head, reads), media, alone);
    };
    // The shared reader was stopped for another file's sake: this one is read again, alone.
    const format = await read(false).catch((err: unknown) => {
      if (err instanceof ChildLostError) return read(true);
      throw err;
    });
    if (!format.container) throw new FetchError(`${field}: the file is not a recognised audio or video file`);
    const seconds = format.duration !== undefined && Number.isFinite(format.duration) && format.duration > 0 ? format.duration : undefined;
    if (seconds !== undefined) readings?.set(key, { reads: reads.map((r) => ({ at: r.at, to: r.at + r.bytes.length, digest: digest(r.bytes) })), seconds });
    return seconds;
  } catch (err) {
    if (err instanceof RangesAbandoned) return undefined;
    if (err instanceof FetchError) throw err;
    if (err instanceof DocumentRefusedError) throw new FetchError(`${field}: ${err.message}`);
    if (err instanceof NotMediaError) throw new FetchError(`${field}: the file is not a recognised audio or video file`);
    throw err;
  }
}

async function durationOf(probe: Probe, opened: OpenedBody, readings?: RangedReadings): Promise<number> {
  const { client, url, field, limits, deadline } = probe;
  const reopen = () => client.openCustomerUrl(url, field, Math.max(1, deadline - Date.now()));
  const read = async (body: OpenedBody, scanWholeFile: boolean) => {
    try {
      return await readDuration(probe, body, scanWholeFile, false);
    } catch (err) {
      // The shared reader was stopped for another file's sake: this one is read again, alone.
      if (err instanceof ChildLostError) return readDuration(probe, await reopen(), scanWholeFile, true);
      throw err;
    }
  };
  const size = rangedTotal(opened);
  let seconds: number | undefined;
  if (size !== undefined) {
    if (size > limits.maxBytes) {
      opened.done();
      opened.body.destroy();
      throw new FetchError(`${field}: the file is larger than ${limits.maxBytes} bytes`);
    }
    seconds = (await readByRanges(probe, opened, size, readings)) ?? (await read(await reopen(), true));
  } else {
    // No ranges: the answer streams the file; a duration not stated on the way is scanned for.
    seconds = (await read(opened, false)) ?? (await read(await reopen(), true));
  }
  if (seconds === undefined) throw new FetchError(`${field}: the file is not a recognised audio or video file (no duration found)`);
  return Math.ceil(seconds);
}

/** What shows a file is the one measured before: a strong ETag, or Last-Modified with its length. */
interface Validators {
  etag?: string;
  lastModified?: string;
  length?: string;
}

function validatorsOf(opened: OpenedBody): Validators | undefined {
  const etag = one(opened.headers, 'etag');
  const lastModified = one(opened.headers, 'last-modified');
  // A ranged answer's Content-Length is the range's: the file's is in its Content-Range.
  const length = opened.statusCode === 206 ? String(rangedTotal(opened) ?? '') || undefined : one(opened.headers, 'content-length');
  const strongEtag = etag && !etag.startsWith('W/') ? etag : undefined;
  if (strongEtag) return { etag: strongEtag };
  if (lastModified && length) return { lastModified, length };
  return undefined;
}

const sameFile = (a: Validators, b: Validators | undefined) =>
  b !== undefined && (a.etag ? a.etag === b.etag : a.lastModified === b.lastModified && a.length === b.length);

/**
 * probeMediaDuration with two memories of durations measured (`maxEntries` each, least recently
 * used dropped). By URL: a remembered duration is used only when the server vouches that the file is
 * the same: it answers the conditional GET with 304, or with the same validators. By the bytes a
 * ranged parse read (RangedReadings), where it sends none. Every probe still asks the server, so
 * access is checked each time.
 */
export function createMediaProber(client: Opener, parser: Parser, maxEntries: number, options: ProbeOptions = {}) {
  const known = new Recent<{ seconds: number; validators: Validators }>(maxEntries);
  const readings: RangedReadings = new Recent(maxEntries);
  return async (url: string, field: string, limits: Limits): Promise<number> => {
    if (maxEntries <= 0) return probeMediaDuration(client, parser, url, field, limits, options);
    const probe = probeOf(client, parser, url, field, limits, options);
    const entry = known.get(url);
    // Only a strong ETag is asked about; Last-Modified is compared with the length on the answer
    // (a 304 to If-Modified-Since would skip the length, and a file replaced within a second or
    // copied with its old date would pass).
    const conditional: Record<string, string> = entry?.validators.etag ? { 'if-none-match': entry.validators.etag } : {};
    const opened = await client.openCustomerUrl(url, field, limits.timeoutMs, { range: `bytes=0-${HEAD_BYTES - 1}`, ...conditional });
    const validators = validatorsOf(opened);
    if (entry && (opened.statusCode === 304 || sameFile(entry.validators, validators))) {
      opened.done();
      // Read to its end, its connection serves the next probe.
      releaseBody(opened.body, HEAD_BYTES);
      return entry.seconds;
    }
    known.delete(url);
    const seconds = await durationOf(probe, opened, readings);
    if (validators) known.set(url, { seconds, validators });
    return seconds;
  };
}

/**
 * A small file streamed whole (its server answers no ranges) is read to its end before it is parsed:
 * a transfer that breaks (a reset, a body shorter than its Content-Length) is refused at the quote
 * instead of being found after the charge, when the order's copy is fetched. Larger files are
 * parsed as they arrive and cut once the duration is known.
 */
const WHOLE_READ_BYTES = 1024 * 1024;

async function wholeBody(opened: OpenedBody): Promise<Readable> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of opened.body as AsyncIterable<Buffer>) chunks.push(chunk);
  } catch (err) {
    throw opened.fail(opened.signal.aborted ? 'timed out' : String((err as { code?: string }).code ?? (err as Error).message));
  }
  return Readable.from([Buffer.concat(chunks)]);
}

async function readDuration(probe: Probe, opened: OpenedBody, scanWholeFile: boolean, alone: boolean): Promise<number | undefined> {
  const { parser, field } = probe;
  const maxBytes = probe.limits.maxBytes;
  try {
    const length = Number(opened.headers['content-length']);
    let seen = 0;
    let overCap: FetchError | undefined;
    const head: Buffer[] = [];
    const capped = new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (seen < SIGNATURE_BYTES) head.push(chunk.subarray(0, SIGNATURE_BYTES - seen));
        seen += chunk.length;
        if (seen > maxBytes) done((overCap = new FetchError(`${field}: the file is larger than ${maxBytes} bytes`)));
        else done(null, chunk);
      },
    });
    // pipeline (not pipe) passes a network failure or the deadline's abort on to the parser.
    let transferFailed: Error | undefined;
    pipeline(length <= WHOLE_READ_BYTES ? await wholeBody(opened) : opened.body, capped, (err) => {
      if (err && !(err instanceof FetchError)) transferFailed = err;
    });
    /** The download's own failure: a broken or late transfer is neutral to the customer, not a content problem. */
    const downloadFailure = (): Error | undefined => {
      if (overCap) return overCap;
      if (opened.signal.aborted) return opened.fail('timed out');
      const broken = transferFailed ?? opened.body.errored;
      return broken ? opened.fail(String((broken as { code?: string }).code ?? (broken as Error).message)) : undefined;
    };
    const format = await parser
      .mediaDuration(capped, { mimeType: contentTypeOf(opened.headers), size: Number.isFinite(length) ? length : undefined, scanWholeFile }, alone)
      .catch((err: Error) => {
        if (err instanceof FetchError || err instanceof ChildLostError) throw err;
        if (err instanceof DocumentRefusedError) throw new FetchError(`${field}: ${err.message}`);
        // What the bytes are decides before how the download ended (it is cut once the parser gives up).
        if (seen >= SIGNATURE_BYTES) acceptedFormat(Buffer.concat(head), probe);
        throw downloadFailure() ?? (err instanceof NotMediaError ? new FetchError(`${field}: the file is not a recognised audio or video file`) : err);
      });
    // A duration the header stated stands, however the download ended; one read from a cut file does not.
    if (format.container !== STATED_IN_HEADER) {
      const failure = downloadFailure();
      if (failure) throw failure;
    }
    if (!format.container) throw new FetchError(`${field}: the file is not a recognised audio or video file`);
    acceptedFormat(Buffer.concat(head), probe);
    const seconds = format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
  } finally {
    opened.done();
    opened.body.destroy();
  }
}
