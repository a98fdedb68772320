// The media probe against a real HTTP server: durations, the byte cap and broken transfers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeNeeding } from '../helpers/legs.js';
import { mediaFile } from '../helpers/media.js';
import { startRangedServer, type RangedServer } from '../helpers/rangedServer.js';
import { startMediaServer, wavFile, type MediaServer } from '../helpers/mediaServer.js';
import { close, listen } from '../helpers/net.js';
import { createMediaProber, probeMediaDuration } from '../../src/net/probe.js';
import { createOutboundClient, FetchError as MediaError } from '../../src/net/outbound.js';
import { createDocumentSandbox, DEFAULT_SANDBOX } from '../../src/documents/sandbox/index.js';

// music-metadata runs in the sandbox's child processes, as in the service.
const reader = createDocumentSandbox();
afterAll(() => reader.close());

describe('probeMediaDuration', () => {
  let media: MediaServer;
  beforeAll(async () => {
    media = await startMediaServer();
  });
  // The media server is on loopback: allowed here (the guard itself is tested in ssrf.test.ts).
  const client = createOutboundClient({ allowCidrs: ['127.0.0.0/8'], log: () => undefined });
  afterAll(async () => {
    await media.close();
    await client.close();
  });

  const limits = { maxBytes: 10_000_000, timeoutMs: 2000 };

  it('reads the duration of a WAV file, rounded up to whole seconds', async () => {
    expect(await probeMediaDuration(client, reader, media.audio(1), 'url', limits)).toBe(1);
    expect(await probeMediaDuration(client, reader, media.audio(3600), 'url', limits)).toBe(3600);
  });

  it('reads only the header when the container states the duration', async () => {
    expect(await probeMediaDuration(client, reader, media.audio(7200), 'url', { ...limits, maxBytes: 1_000_000 })).toBe(7200);
  });

  it('stops at the byte cap', async () => {
    await expect(probeMediaDuration(client, reader, `${media.url}/noise.mp3`, 'audio_url', { ...limits, maxBytes: 100_000 })).rejects.toThrow(
      new MediaError('audio_url: the file is larger than 100000 bytes'),
    );
  });

  it('fails cleanly, without hanging, when the transfer breaks', async () => {
    const started = Date.now();
    await expect(probeMediaDuration(client, reader, `${media.url}/drop.mp3`, 'url', limits)).rejects.toThrow(MediaError);
    expect(Date.now() - started).toBeLessThan(limits.timeoutMs + 1000);
  });
});

describe('createMediaProber: durations reused only while the server vouches for the file', () => {
  /** One file at /a.wav whose duration and validators the test changes; every request is logged. */
  async function changingFile(validators: 'etag' | 'last-modified' | 'weak-etag', honoursConditionals = true) {
    let seconds = 60;
    let version = 1;
    const seen: Array<{ conditional: string | undefined; status: number }> = [];
    const server = createServer((req, res) => {
      const body = wavFile(seconds);
      const headers: Record<string, string | number> = { 'content-type': 'audio/wav', 'content-length': body.length };
      if (validators === 'etag') headers.etag = `"v${version}"`;
      if (validators === 'weak-etag') headers.etag = `W/"v${version}"`;
      if (validators === 'last-modified') headers['last-modified'] = new Date(Date.UTC(2026, 0, version)).toUTCString();
      const conditional = (req.headers['if-none-match'] ?? req.headers['if-modified-since']) as string | undefined;
      const unchanged = conditional !== undefined && (conditional === headers.etag || conditional === headers['last-modified']);
      const status = honoursConditionals && unchanged ? 304 : 200;
      seen.push({ conditional, status });
      if (status === 304) return void res.writeHead(304, validators === 'etag' ? { etag: headers.etag as string } : {}).end();
      res.writeHead(200, headers).end(body);
    });
    const url = `${await listen(server)}/a.wav`;
    return {
      url,
      seen,
      change: (next: number, sameVersion = false) => {
        seconds = next;
        if (!sameVersion) version += 1;
      },
      close: () => close(server),
    };
  }
  const client = createOutboundClient({ allowCidrs: ['127.0.0.0/8'], log: () => undefined });
  afterAll(() => client.close());
  const limits = { maxBytes: 10_000_000, timeoutMs: 2000 };

  it('asks with If-None-Match, reuses the duration on 304, and measures again once the ETag changes', async () => {
    const file = await changingFile('etag');
    const probe = createMediaProber(client, reader, 100);
    expect(await probe(file.url, 'url', limits)).toBe(60);
    expect(await probe(file.url, 'url', limits)).toBe(60);
    expect(file.seen).toEqual([
      { conditional: undefined, status: 200 },
      { conditional: '"v1"', status: 304 },
    ]);
    file.change(90);
    expect(await probe(file.url, 'url', limits)).toBe(90);
    expect(file.seen[2]).toEqual({ conditional: '"v1"', status: 200 });
    expect(await probe(file.url, 'url', limits)).toBe(90);
    expect(file.seen[3]).toEqual({ conditional: '"v2"', status: 304 });
    await file.close();
  });

  it('uses Last-Modified with Content-Length; a new date or length is a new file', async () => {
    const file = await changingFile('last-modified');
    const probe = createMediaProber(client, reader, 100);
    expect(await probe(file.url, 'url', limits)).toBe(60);
    file.change(60, true); // same date, same length: the same file, although the server sends it whole
    expect(await probe(file.url, 'url', limits)).toBe(60);
    file.change(120, true); // same date, another length
    expect(await probe(file.url, 'url', limits)).toBe(120);
    file.change(120); // same length, another date: measured again (would show a changed file)
    expect(await probe(file.url, 'url', limits)).toBe(120);
    // Never asked with If-Modified-Since: a 304 to it would vouch for a file without its length.
    expect(file.seen.map((s) => s.conditional)).toEqual([undefined, undefined, undefined, undefined]);
    await file.close();
  });

  it('never reuses a duration for a server whose ETag changes although it ignores conditionals', async () => {
    const file = await changingFile('etag', false);
    const probe = createMediaProber(client, reader, 100);
    expect(await probe(file.url, 'url', limits)).toBe(60);
    file.change(75);
    expect(await probe(file.url, 'url', limits)).toBe(75);
    await file.close();
  });

  it('remembers nothing for a weak ETag alone, and nothing with no room', async () => {
    const weak = await changingFile('weak-etag');
    const probe = createMediaProber(client, reader, 100);
    await probe(weak.url, 'url', limits);
    weak.change(30, true);
    expect(await probe(weak.url, 'url', limits)).toBe(30);
    expect(weak.seen.every((s) => s.conditional === undefined)).toBe(true);
    await weak.close();

    const strong = await changingFile('etag');
    const none = createMediaProber(client, reader, 0);
    await none(strong.url, 'url', limits);
    await none(strong.url, 'url', limits);
    expect(strong.seen.every((s) => s.conditional === undefined && s.status === 200)).toBe(true);
    await strong.close();
  });
});

describe('media probes in the sandbox: a reader that spins is stopped, and the probes beside it are read again alone', () => {
  // The shared media reader is killed past 200 ms of CPU in any 400 ms (a low limit for the test).
  const strict = createDocumentSandbox({ ...DEFAULT_SANDBOX, limits: { ...DEFAULT_SANDBOX.limits, cpuMs: 200 } });
  const client = createOutboundClient({ allowCidrs: ['127.0.0.0/8'], log: () => undefined });
  let server: ReturnType<typeof createServer>;
  let url: string;
  let lateRequests = 0;
  /** The honest file's first answer, held open after its first bytes until the test lets it go. */
  let held: ServerResponse | undefined;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/endless-zeros.mp3') {
        // Says MP3, holds no frame, never ends, as fast as the probe reads: the parser searches on.
        res.writeHead(200, { 'content-type': 'audio/mpeg' });
        const zeros = Buffer.alloc(256 * 1024);
        const pump = () => {
          while (!res.destroyed && res.write(zeros));
        };
        res.on('drain', pump);
        return pump();
      }
      // An honest file: the first answer sends a few bytes, too few to parse, and holds the rest, so
      // that its probe is in the reader when the reader is killed; the second answers at once.
      lateRequests++;
      res.writeHead(200, { 'content-type': 'audio/wav' });
      if (lateRequests > 1) return void res.end(wavFile(5));
      res.write(wavFile(5).subarray(0, 20));
      held = res;
    });
    url = await listen(server);
  });
  afterAll(async () => {
    await close(server);
    await client.close();
    await strict.close();
  });

  it('refuses the spinning file, naming the field, and measures the honest one beside it', async () => {
    lateRequests = 0;
    const limits = { maxBytes: 4 * 1024 ** 3, timeoutMs: 20_000 };
    // The honest probe is handed to the shared reader (its first bytes on their way) before the spinner starts.
    let handedOver!: () => void;
    const inReader = new Promise<void>((resolve) => (handedOver = resolve));
    const watched = {
      mediaDurationByRanges: strict.mediaDurationByRanges,
      mediaDuration: (...args: Parameters<typeof strict.mediaDuration>) => {
        if (!args[2]) handedOver();
        return strict.mediaDuration(...args);
      },
    };
    const honest = probeMediaDuration(client, watched, `${url}/late.wav`, 'audio_url', limits);
    // Awaited below; should an assertion before fail, its refusal must not surface as an unhandled rejection.
    honest.catch(() => undefined);
    await inReader;
    const started = Date.now();
    await expect(probeMediaDuration(client, strict, `${url}/endless-zeros.mp3`, 'url', limits)).rejects.toThrow(
      new MediaError('url: the media file takes too long to read (more than 0.2 s of work)'),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    held?.end();
    expect(await honest).toBe(5);
    expect(lateRequests).toBe(2); // the first read was lost with the killed reader, and read again alone
  });
});

describeNeeding('ffmpeg', 'createMediaProber: durations remembered by the bytes a ranged parse read (servers with no validators)', () => {
  let server: RangedServer;
  let parses = 0;
  /** The sandbox's parser, counted: a remembered duration skips the parse, not the requests. */
  const parser = {
    mediaDuration: reader.mediaDuration,
    mediaDurationByRanges: (...args: Parameters<typeof reader.mediaDurationByRanges>) => {
      parses += 1;
      return reader.mediaDurationByRanges(...args);
    },
  };
  const client = createOutboundClient({ allowCidrs: ['127.0.0.0/8'], log: () => undefined });
  const limits = { maxBytes: 100_000_000, timeoutMs: 10_000 };
  let dir: string;
  beforeAll(async () => {
    server = await startRangedServer();
    dir = await mkdtemp(join(tmpdir(), 'probe-readings-'));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([server.close(), client.close(), rm(dir, { recursive: true, force: true })]);
  });

  it('measures a file once; the same bytes at another URL are recognised by their ranges, a changed tail is measured again', async () => {
    const ogg = await mediaFile('audio.ogg');
    const probe = createMediaProber(client, parser, 100);
    const first = server.serve('/first.ogg', ogg, { etag: false });
    expect(await probe(first, 'url', limits)).toBe(60);
    expect(parses).toBe(1);
    const firstRanges = server.sent('/first.ogg').ranges;

    // The same bytes at another URL, with no validators: the same ranges asked again, no parse.
    const copy = server.serve('/copy.ogg', ogg, { etag: false });
    expect(await probe(copy, 'url', limits)).toBe(60);
    expect(parses).toBe(1);
    expect(server.sent('/copy.ogg').ranges).toEqual(firstRanges);

    // Same size, same head, another last page (its granule position doubled): 120 s, measured again.
    const bytes = await readFile(ogg);
    const lastPage = bytes.lastIndexOf('OggS');
    bytes.writeBigInt64LE(bytes.readBigInt64LE(lastPage + 6) * 2n - BigInt(bytes.readUInt16LE(bytes.indexOf('OpusHead') + 10)), lastPage + 6);
    const longer = join(dir, 'longer.ogg');
    await writeFile(longer, bytes);
    expect(await probe(server.serve('/longer.ogg', longer, { etag: false }), 'url', limits)).toBe(120);
    expect(parses).toBe(2);
    // The ranges fetched to compare were kept for that parse: nothing was asked twice.
    const asked = server.sent('/longer.ogg').ranges;
    expect(new Set(asked).size).toBe(asked.length);
  });

  it('remembers nothing with no room', async () => {
    const wav = server.serve('/none.wav', await mediaFile('audio.wav'), { etag: false });
    const none = createMediaProber(client, parser, 0);
    const before = parses;
    await none(wav, 'url', limits);
    await none(wav, 'url', limits);
    expect(parses - before).toBe(2);
  });
});
