// Issue 41: a media file read by ranges, whose parts the sandbox's child asks the parent for
// (pool.ts, answerRead). Whatever the parent's BlockSource does — throws at once, rejects, answers
// nothing, a malformed block or other bytes than asked — the job fails with the reason, the pool
// answers the next job, and nothing rejects unhandled (it once took the whole process down).
// Real child processes, from dist/ (npm run build).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentSandbox, type BlockSource } from '../../src/documents/sandbox/index.js';
import { wavFile } from '../helpers/mediaServer.js';

const reader = createDocumentSandbox();

const WAV = new Uint8Array(wavFile(1));
const MEDIA = { size: WAV.length, mimeType: 'audio/wav' };
const whole: BlockSource = { block: async () => ({ at: 0, bytes: WAV }) };

const HOSTILE: Array<[string, BlockSource, RegExp]> = [
  ['resolves undefined', { block: async () => undefined as never }, /bytes 0-\d+ of the file could not be had: the block source answered nothing/],
  ['resolves a malformed block', { block: async () => ({ at: 'zero', bytes: 'RIFF' }) as never }, /the block source answered no block/],
  [
    'resolves bytes that do not hold the read',
    { block: async (_start, end) => ({ at: end + 10, bytes: new Uint8Array(16) }) },
    /the block source answered bytes \d+-\d+/,
  ],
  [
    'throws synchronously',
    {
      block: () => {
        throw new Error('the source threw at once');
      },
    },
    /the source threw at once/,
  ],
  ['rejects', { block: async () => Promise.reject(new Error('the source rejected')) }, /the source rejected/],
];

describe('the sandbox answering a child that reads a file by ranges', () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  beforeAll(() => {
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
  });
  afterAll(async () => {
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
    await reader.close();
  });

  it('reads a file whose source answers', async () => {
    expect(await reader.mediaDurationByRanges(whole, MEDIA)).toMatchObject({ container: 'WAVE', duration: 1 });
  });

  it.each(HOSTILE)('fails the job with the reason when the source %s, and answers the next job', async (_what, source, reason) => {
    // Alongside a job that reads well, in the same child (media probes share one).
    const [hostile, good] = await Promise.allSettled([reader.mediaDurationByRanges(source, MEDIA), reader.mediaDurationByRanges(whole, MEDIA)]);
    expect(hostile).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(reason) } });
    expect(good).toMatchObject({ status: 'fulfilled', value: { container: 'WAVE', duration: 1 } });
    expect(await reader.mediaDurationByRanges(whole, MEDIA)).toMatchObject({ container: 'WAVE', duration: 1 });
    // A rejection that went unhandled is reported on a later turn: give it one.
    await new Promise((r) => setTimeout(r, 50));
    expect(unhandled).toEqual([]);
  });

  it('does the same in a child of its own (the retry of a probe whose shared child was lost)', async () => {
    for (const [, source, reason] of HOSTILE) await expect(reader.mediaDurationByRanges(source, MEDIA, true)).rejects.toThrow(reason);
    expect(await reader.mediaDurationByRanges(whole, MEDIA, true)).toMatchObject({ duration: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(unhandled).toEqual([]);
  });

  it('refuses the jobs of a child still starting when the sandbox closes, and leaves no promise unhandled', async () => {
    // A sandbox of its own, closed at once: its first child is still being started by the spawner.
    const closing = createDocumentSandbox();
    const jobs = Promise.allSettled([closing.mediaDurationByRanges(whole, MEDIA), closing.mediaDurationByRanges(whole, MEDIA, true)]);
    await new Promise((r) => setImmediate(r));
    await closing.close();
    for (const job of await jobs) expect(job).toMatchObject({ status: 'rejected', reason: { message: 'the service is stopping' } });
    await new Promise((r) => setTimeout(r, 50));
    expect(unhandled).toEqual([]);
  });
});
