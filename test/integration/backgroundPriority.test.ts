// Work behind an order runs at the background's priority (issue 45): the local speech engine (its
// own test, test/integration/localEngine.test.ts) and ffmpeg on an order's kept media take the cores
// only as the placements and pages (nice 0) leave them.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegRenderer } from '../../src/engines/audioRendition.js';
import { BACKGROUND_NICE } from '../../src/runtime/priority.js';
import { describeNeeding } from '../helpers/legs.js';
import { wavFile } from '../helpers/mediaServer.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'background-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describeNeeding('ffmpeg', 'ffmpeg on kept media', () => {
  it('runs at the background priority, from its first instruction', async () => {
    // ffmpeg as a script that notes its priority first, then is ffmpeg.
    const noted = join(dir, 'nice.txt');
    const script = join(dir, 'ffmpeg');
    await writeFile(script, `#!/bin/sh\nnice > '${noted}'\nexec ffmpeg "$@"\n`);
    await chmod(script, 0o755);
    const media = join(dir, 'a.wav');
    await writeFile(media, wavFile(3));
    const seconds = await ffmpegRenderer(script)!.decodedSeconds(media, 'wav', 60);
    expect(seconds).toBeCloseTo(3, 0);
    expect(Number(await readFile(noted, 'utf8'))).toBe(BACKGROUND_NICE);
  });
});
