// Measures a media file's duration by streaming it and reading the container with music-metadata.
// Bounded: a byte cap, a header timeout and an overall timeout. Most containers (WAV, MP4, MP3
// with a VBR header) state their duration up front; only when none is found is the file scanned.
import { pipeline, Transform, type Readable } from 'node:stream';
import { Agent, interceptors, request } from 'undici';
import { parseStream } from 'music-metadata';

export class MediaError extends Error {}

export interface ProbeLimits { maxBytes: number; timeoutMs: number }

const followRedirects = new Agent().compose(interceptors.redirect({ maxRedirections: 5 }));

export async function probeMediaDuration(url: string, field: string, limits: ProbeLimits): Promise<number> {
  const quick = await readDuration(url, field, limits, false);
  const seconds = quick ?? (await readDuration(url, field, limits, true));
  if (seconds === undefined) throw new MediaError(`${field}: the file is not a recognised audio or video file (no duration found)`);
  return Math.ceil(seconds);
}

async function readDuration(url: string, field: string, limits: ProbeLimits, scanWholeFile: boolean): Promise<number | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  let body: Readable | undefined;
  try {
    const response = await request(url, {
      method: 'GET', signal: controller.signal, headersTimeout: limits.timeoutMs, bodyTimeout: limits.timeoutMs,
      dispatcher: followRedirects,
    }).catch((err: Error) => {
      throw new MediaError(`${field}: the file could not be fetched (${controller.signal.aborted ? 'timed out' : describe(err)})`);
    });
    body = response.body;
    // Destroying an unread body emits an abort error: keep it from becoming an uncaught exception.
    body.on('error', () => undefined);
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new MediaError(`${field}: the file could not be fetched (HTTP ${response.statusCode})`);
    }
    const contentType = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
    const length = Number(response.headers['content-length']);
    let seen = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (seen > limits.maxBytes) done(new MediaError(`${field}: the file is larger than ${limits.maxBytes} bytes`));
        else done(null, chunk);
      },
    });
    // pipeline (not pipe) passes a network failure or the timeout's abort on to the parser.
    pipeline(body, capped, () => undefined);
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
    const metadata = await parseStream(capped, { mimeType: contentType || undefined, size: Number.isFinite(length) ? length : undefined },
      { duration: scanWholeFile, skipCovers: true, observer: observer as never })
      .catch((err: Error) => {
        if (stated !== undefined) return { format: { container: 'stated in header', duration: stated } };
        if (err instanceof MediaError) throw err;
        if (controller.signal.aborted) throw new MediaError(`${field}: reading the file timed out`);
        throw new MediaError(`${field}: the file is not a recognised audio or video file`);
      });
    if (!metadata.format.container) throw new MediaError(`${field}: the file is not a recognised audio or video file`);
    const seconds = metadata.format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
  } finally {
    clearTimeout(timer);
    body?.destroy();
  }
}

class HeaderSufficed extends Error {}

function describe(err: Error): string {
  const code = (err as { code?: string }).code;
  return code ? `${code}` : err.message;
}
