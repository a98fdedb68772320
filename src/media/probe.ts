// Measures a media file's duration by streaming it and reading the container with music-metadata.
// Bounded: a byte cap, a header timeout and an overall timeout.
import { Readable, Transform } from 'node:stream';
import { Agent, interceptors, request } from 'undici';
import { parseStream } from 'music-metadata';

export class MediaError extends Error {}

const followRedirects = new Agent().compose(interceptors.redirect({ maxRedirections: 5 }));

export interface ProbeLimits { maxBytes: number; timeoutMs: number }

export async function probeMediaDuration(url: string, field: string, limits: ProbeLimits): Promise<number> {
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
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new MediaError(`${field}: the file could not be fetched (HTTP ${response.statusCode})`);
    }
    const contentType = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
    const length = Number(response.headers['content-length']);
    let seen = 0;
    const capped = body.pipe(new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (seen > limits.maxBytes) done(new MediaError(`${field}: the file is larger than ${limits.maxBytes} bytes`));
        else done(null, chunk);
      },
    }));
    const metadata = await parseStream(capped, { mimeType: contentType || undefined, size: Number.isFinite(length) ? length : undefined }, { duration: true })
      .catch((err: Error) => {
        if (err instanceof MediaError) throw err;
        if (controller.signal.aborted) throw new MediaError(`${field}: reading the file timed out`);
        throw new MediaError(`${field}: the file is not a recognised audio or video file`);
      });
    const seconds = metadata.format.duration;
    if (!metadata.format.container || seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) {
      throw new MediaError(`${field}: the file is not a recognised audio or video file (no duration found)`);
    }
    return Math.ceil(seconds);
  } finally {
    clearTimeout(timer);
    body?.destroy();
  }
}

function describe(err: Error): string {
  const code = (err as { code?: string }).code;
  return code ? `${code}` : err.message;
}
