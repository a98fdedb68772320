// Measures a media file's duration by streaming it and reading the container with music-metadata.
// Bounded: one deadline for the whole probe and a byte cap per read. Most containers (WAV, MP4,
// MP3 with a VBR header) state their duration up front; only when none is found is the file
// scanned, again under the cap.
import { pipeline, Transform } from 'node:stream';
import { parseStream } from 'music-metadata';
import { contentTypeOf, FetchError, type Limits, type OutboundClient } from './outbound.js';

export async function probeMediaDuration(client: Pick<OutboundClient, 'openCustomerUrl'>, url: string, field: string, limits: Limits): Promise<number> {
  const deadline = Date.now() + limits.timeoutMs;
  const quick = await readDuration(client, url, field, limits.maxBytes, deadline, false);
  const seconds = quick ?? (await readDuration(client, url, field, limits.maxBytes, deadline, true));
  if (seconds === undefined) throw new FetchError(`${field}: the file is not a recognised audio or video file (no duration found)`);
  return Math.ceil(seconds);
}

async function readDuration(client: Pick<OutboundClient, 'openCustomerUrl'>, url: string, field: string, maxBytes: number, deadline: number,
  scanWholeFile: boolean): Promise<number | undefined> {
  const opened = await client.openCustomerUrl(url, field, Math.max(1, deadline - Date.now()));
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
