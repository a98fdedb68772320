// Every media format the quote accepts is worked (issue 41): the probe's own list
// (src/documents/mediaFormats.ts) walked, each format made by ffmpeg from espeak-ng's speech,
// priced by ranges and streamed alike, placed as a live human transcription whose draft the local
// speech engine (Whisper) hears, and whose media the worker's player is served as audio.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { startService, type TestService } from '../helpers/service.js';
import { startRangedServer, type RangedServer } from '../helpers/rangedServer.js';
import { freePort, waitFor } from '../helpers/net.js';
import { wordErrorRate } from '../helpers/speech.js';
import { WorkerSession } from '../helpers/workerSession.js';
import { placeOrder } from '../helpers/orders.js';
import { decodedSeconds, MAKE, SPOKEN, spokenMedia } from '../helpers/spokenMedia.js';
import { tasksOfOrder } from '../../src/db/tasks.js';
import { startLocalEngine, type LocalEngine } from '../../src/engines/localEngine.js';
import { buildEngines } from '../../src/engines/settings.js';
import { MEDIA_FORMATS, type MediaFormatKey } from '../../src/documents/mediaFormats.js';

const FORMATS = Object.keys(MEDIA_FORMATS) as MediaFormatKey[];
/** ffprobe's name of the container each served type is. */
const CONTAINER_OF: Record<string, string> = { 'audio/ogg': 'ogg', 'audio/wav': 'wav', 'audio/mpeg': 'mp3', 'audio/flac': 'flac', 'audio/mp4': 'mp4' };

describeNeeding(['ffmpeg', 'localEngine'], 'every format the probe accepts, placed and worked', () => {
  let engine: LocalEngine;
  let service: TestService;
  let server: RangedServer;
  let token: string;
  let worker: WorkerSession;

  beforeAll(async () => {
    engine = await startLocalEngine({ dir: process.env.ENGINES_DIR ?? '.engines', host: '127.0.0.1', port: await freePort(), threads: 2 });
    const local = { kind: 'local' as const, url: engine.url };
    [service, server] = await Promise.all([
      startService({
        engines: buildEngines({ speech: local, alignment: { kind: 'operator' }, diarizer: { kind: 'none' } }, { model: 'unused' }),
        maxHeldTasks: FORMATS.length,
      }),
      startRangedServer(),
    ]);
    ({ token } = await service.createAccount(1000));
    const created = (await service.ops('POST', '/ops/workers', { name: 'formats', skills: 'transcription:english' })).body;
    worker = await WorkerSession.signIn(service.baseUrl, created.sign_in_token);
    await Promise.all(FORMATS.map((format) => spokenMedia(format)));
  }, 300_000);
  afterAll(async () => {
    await Promise.all([service?.close(), server?.close(), engine?.stop()]);
  });

  it('has a maker for every accepted format (adding one to the probe without one here fails to compile)', () => {
    expect(Object.keys(MAKE).sort()).toEqual([...FORMATS].sort());
  });

  it.each([
    ['AVI', ['-f', 'avi']],
    ['3GPP', ['-c:a', 'aac', '-f', '3gp']],
    ['Core Audio (CAF)', ['-f', 'caf']],
    ['Sun audio (AU)', ['-f', 'au']],
  ])('%s, which it does not work, is refused before any charge, naming the field and what is accepted', async (name, args) => {
    const path = join(service.dataDir, `refused.${args.at(-1)}`);
    await promisify(execFile)('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', await spokenMedia('wav'), ...args, path]);
    const { token: own } = await service.createAccount(10);
    for (const [mode, ranges] of [
      ['test', true],
      ['test', false],
      ['live', true],
    ] as const) {
      const url = server.serve(`/refused/${args.at(-1)}/${mode}-${ranges}`, path, { ranges });
      const answer = await service.post('/api/v4/transcriptions', { api_token: own, mode, url, language: 'english' });
      expect([answer.status, answer.body.error], name).toEqual([
        400,
        expect.stringMatching(/^url: the file is not a recognised audio or video file( \(accepted: WAV, AIFF, MP3, .*\))?$/),
      ]);
    }
    const listed = await service.get(`/api/v4/orders?api_token=${own}&mode=live`);
    expect(listed.body.orders).toEqual([]);
  });

  it.each(FORMATS)(
    '%s: the same seconds by ranges and streamed; a live order whose draft the engine hears and whose media the player plays',
    async (format) => {
      const file = await spokenMedia(format);
      const order = (mode: 'test' | 'live', url: string) => placeOrder(service, { token, mode, fields: { url, language: 'english' } });
      const [byRanges, streamed] = await Promise.all([
        order('test', server.serve(`/${format}/ranged`, file)),
        order('test', server.serve(`/${format}/streamed`, file, { ranges: false })),
      ]);
      expect(byRanges.body.seconds).toBe(streamed.body.seconds);
      // Whole seconds, rounded up; a video's picture may run a frame or two past its sound.
      expect(Math.abs(byRanges.body.seconds - (await decodedSeconds(file)))).toBeLessThan(2);

      const { orderId } = await order('live', server.serve(`/${format}/live`, file));
      const task = await waitFor(async () => (await tasksOfOrder(service.database.db, orderId))[0], 'the task, after the draft', 120_000);
      expect(wordErrorRate(SPOKEN, task.draft.replace(/\[\d\d:\d\d:\d\d\]/g, '')), task.draft).toBeLessThan(0.35);

      await worker.request('POST', `/work/tasks/${task.id}/claim`, {});
      const played = await fetch(`${service.baseUrl}/work/tasks/${task.id}/media`, { headers: { cookie: worker.cookieHeader() } });
      expect([played.status, played.headers.get('content-type')]).toEqual([
        200,
        MEDIA_FORMATS[format].kept === 'as-is' ? MEDIA_FORMATS[format].type : 'audio/ogg',
      ]);
      const copy = join(service.dataDir, `played-${format}`);
      await writeFile(copy, Buffer.from(await played.arrayBuffer()));
      expect(Math.abs((await decodedSeconds(copy)) - (await decodedSeconds(file)))).toBeLessThan(0.5);
      // The bytes are what the Content-Type names (a browser plays them as that).
      const { stdout } = await promisify(execFile)('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name', '-of', 'csv=p=0', copy]);
      expect(stdout.trim().split(',')).toContain(CONTAINER_OF[played.headers.get('content-type')!]);
    },
    180_000,
  );
});
