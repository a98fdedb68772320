// Media the service cannot trust (issue 41), through the started service: servers whose ranged
// answers lie, files whose headers understate them, files that change after their quote, and ffmpeg
// under the limits it is given. Speech by espeak-ng, media by ffmpeg; the engine is a user's own
// OpenAI-compatible server (a double on loopback) so that what matters is what it is sent.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startEngineServer, verboseJson, type EngineServer } from '../helpers/engineServer.js';
import { startLyingServer, type LyingServer } from '../helpers/lyingServer.js';
import { startRangedServer, type RangedServer } from '../helpers/rangedServer.js';
import { decodedSeconds, spokenMedia, understatedMovie, understatedMp3, understatedOgg, understatedWave } from '../helpers/spokenMedia.js';
import { waitFor } from '../helpers/net.js';
import { placeOrder } from '../helpers/orders.js';
import { openAiCompatibleEngine } from '../../src/engines/openaiCompatible.js';
import { getOrder } from '../../src/db/orders.js';
import { FFMPEG_MEMORY_KB, ffmpegCpuSeconds } from '../../src/engines/audioRendition.js';
import { workedTolerance } from '../../src/orders/orderMedia.js';

const MIB = 1024 ** 2;

describeNeeding('ffmpeg', 'media the service cannot trust: it is measured, checked and worked only as far as it was paid for', () => {
  let service: TestService;
  let engine: EngineServer;
  let lying: LyingServer;
  let honest: RangedServer;
  let token: string;
  const unhandled: unknown[] = [];
  const noteUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', noteUnhandled);
    engine = await startEngineServer();
    engine.behaviour = {
      kind: 'transcript',
      body: verboseJson([
        ['Whales', 1, 1.5],
        ['and', 1.6, 1.8],
        ['the', 1.9, 2],
        ['sea.', 2.1, 2.6],
      ]),
    };
    [service, lying, honest] = await Promise.all([
      startService({
        media: { maxBytes: 200 * MIB, timeoutMs: 60_000 },
        probes: { quote: { timeoutMs: 60_000 } },
        engines: { speech: openAiCompatibleEngine({ baseUrl: engine.url, model: 'whisper-test' }) },
      }),
      startLyingServer(),
      startRangedServer(),
    ]);
    ({ token } = await service.createAccount(10_000));
  }, 300_000);
  afterAll(async () => {
    process.off('unhandledRejection', noteUnhandled);
    await Promise.all([service?.close(), engine?.close(), lying?.close(), honest?.close()]);
  });

  const quote = (url: string) => placeOrder(service, { token, path: 'ai-transcriptions', mode: 'test', fields: { url, language: 'english' } });
  const live = async (url: string) => {
    const { body } = await placeOrder(service, { token, path: 'ai-transcriptions', fields: { url, language: 'english' } });
    return body as { order_id: number; seconds: number; order_total: number };
  };
  /** Waits for the AI order to settle; the seconds its kept copy decodes to (what the engine and the player get). */
  async function worked(orderId: number): Promise<{ seconds: number; record: Record<string, unknown> }> {
    const order = await waitFor(
      async () => {
        const row = await getOrder(service.database.db, orderId);
        return row && ['finished', 'refunded'].includes(row.status) ? row : undefined;
      },
      `order ${orderId} to settle`,
      120_000,
    );
    expect(order.status).toBe('finished');
    const path = join(service.dataDir, 'worked-copy');
    await writeFile(path, await service.activityDeps.files.get(order.inputFiles.media!.key));
    const record = await service.get(`/api/v4/orders/${orderId}?api_token=${token}&mode=live`);
    return { seconds: await decodedSeconds(path), record: record.body.data };
  }

  it.each([
    ['a 1-byte body after an honest first read', { kind: 'short-after-first' } as const],
    ['a Content-Range 10,000 bytes past the file, reads past its end short', { kind: 'overclaim', extra: 10_000 } as const],
  ])(
    '%s: measured by streaming instead, the same seconds as honestly; the service goes on',
    async (name, lie) => {
      for (const format of ['m4a', 'ogg', 'mp4'] as const) {
        const file = await spokenMedia(format, 120);
        const truth = await quote(honest.serve(`/honest/${lie.kind}/${format}`, file));
        const path = `/${lie.kind}/${format}`;
        const lied = await quote(lying.serve(path, file, lie));
        expect(lied.body.seconds, `${name}, ${format}: ${JSON.stringify(lied.body)}`).toBe(truth.body.seconds);
        // It gave up on ranges and read the file whole.
        expect(lying.requests(path)).toContain('');
      }
      // Nothing else was affected: a live order of the same file is placed and worked.
      const file = await spokenMedia('m4a', 120);
      const placed = await live(lying.serve(`/${lie.kind}/live`, file, lie));
      expect(placed.seconds).toBe((await quote(honest.serve(`/honest/${lie.kind}/live`, file))).body.seconds);
      expect((await worked(placed.order_id)).seconds).toBeCloseTo(await decodedSeconds(file), 0);
      expect(unhandled).toEqual([]);
    },
    300_000,
  );

  it('an M4A whose movie, track and media headers say 1 s (divided by 600) is priced by its sample tables: 10 minutes, by ranges and streamed', async () => {
    const source = await spokenMedia('m4a', 600);
    const truth = await quote(honest.serve('/understated/truth.m4a', source));
    expect(truth.body.seconds).toBeGreaterThanOrEqual(600);
    const file = await understatedMovie(source, 600);
    const byRanges = await quote(honest.serve('/understated/ranged.m4a', file));
    const streamed = await quote(honest.serve('/understated/streamed.m4a', file, { ranges: false }));
    for (const answer of [byRanges, streamed]) expect(answer.body.seconds, JSON.stringify(answer.body)).toBe(truth.body.seconds);
    const placed = await live(honest.serve('/understated/live.m4a', file));
    expect([placed.seconds, placed.order_total]).toEqual([truth.body.seconds, truth.body.order_total]);
    const { seconds, record } = await worked(placed.order_id);
    expect(seconds).toBeGreaterThan(599);
    expect(seconds).toBeLessThanOrEqual(placed.seconds + workedTolerance(placed.seconds));
    expect(record.media_note).toBeUndefined();
  }, 300_000);

  it.each([
    ['a WAV whose `fact` chunk counts 1/600 of its samples', () => spokenMedia('wav', 600).then((f) => understatedWave(f, 600))],
    ['an MP3 whose Xing header counts 1/600 of its frames', () => spokenMedia('mp3', 600).then((f) => understatedMp3(f, 600))],
    ['an Ogg Opus whose last page says one second', () => spokenMedia('ogg', 600).then(understatedOgg)],
  ])(
    '%s is priced by what its data holds (about 10 minutes), by ranges and streamed',
    async (name, make) => {
      const file = await make();
      const truth = await decodedSeconds(file);
      expect(truth).toBeGreaterThan(590);
      const slug = name.split(' ')[1];
      const byRanges = await quote(honest.serve(`/understated/${slug}/ranged`, file));
      const streamed = await quote(honest.serve(`/understated/${slug}/streamed`, file, { ranges: false }));
      for (const answer of [byRanges, streamed]) expect(Math.abs(answer.body.seconds - truth), JSON.stringify(answer.body)).toBeLessThan(2);
    },
    300_000,
  );

  it.each([
    ['an M4A of 5 s for the quote, 10 minutes for the download', 'm4a', 5, 600],
    ['a Matroska of 21 s for the quote, two hours for the download', 'mkv', 21, 7200],
  ] as const)(
    '%s: priced as quoted, worked only as far as paid, and the order says so',
    async (_name, format, quoted, downloaded) => {
      const [path, short, long] = [`/swap/${format}`, await spokenMedia(format, quoted), await spokenMedia(format, downloaded)];
      const placed = await live(lying.serve(path, short, { kind: 'swap', ranged: short, whole: long }));
      const paid = (await quote(honest.serve(`/swap/honest/${format}`, short))).body.seconds as number;
      expect(paid - quoted).toBeLessThanOrEqual(1);
      expect(placed.seconds).toBe(paid);
      const { seconds, record } = await worked(placed.order_id);
      expect(seconds).toBeGreaterThanOrEqual(paid);
      expect(seconds).toBeLessThanOrEqual(paid + workedTolerance(paid));
      expect(record.media_note).toMatch(/longer than the 00:00:\d\d paid for .* only its first 00:00:\d\d is worked/);
      const shown = await service.ops('GET', `/ops/orders/${placed.order_id}`);
      expect(shown.body.media_note).toBe(record.media_note);
      // The download was the one whole read; the file was not fetched again to find out.
      expect(lying.requests(path).filter((r) => r === '')).toHaveLength(1);
    },
    300_000,
  );

  it('ffmpeg runs under its CPU-time and address-space limits and stops at the paid length (read from /proc while it works)', async () => {
    const placed = await live(honest.serve('/limits/video.mp4', await spokenMedia('mp4', 600)));
    const limit = placed.seconds + workedTolerance(placed.seconds);
    const seen = await waitFor(
      () => {
        for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
          try {
            if (!readlinkSync(`/proc/${pid}/exe`).endsWith('/ffmpeg')) continue;
            const args = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
            // This order's: in this service's file store, stopping at its paid length.
            if (!args.some((a) => a.startsWith(service.dataDir)) || args[args.indexOf('-t') + 1] !== String(limit)) continue;
            return { args, limits: readFileSync(`/proc/${pid}/limits`, 'latin1') };
          } catch {
            /* gone, or not ours to read */
          }
        }
        return undefined;
      },
      'ffmpeg at work on the order',
      60_000,
    );
    const limitOf = (name: string) => new RegExp(`^${name}\\s+(\\S+)\\s+(\\S+)`, 'm').exec(seen.limits)!.slice(1);
    expect(limitOf('Max cpu time')).toEqual([String(ffmpegCpuSeconds(limit)), String(ffmpegCpuSeconds(limit))]);
    expect(limitOf('Max address space')).toEqual([String(FFMPEG_MEMORY_KB * 1024), String(FFMPEG_MEMORY_KB * 1024)]);
    expect((await worked(placed.order_id)).seconds).toBeCloseTo(await decodedSeconds(await spokenMedia('mp4', 600)), 0);
  }, 300_000);
});
