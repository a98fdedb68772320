// Work behind an order runs at the background's priority (issues 45, 56): the local speech engine
// (its own test, test/integration/localEngine.test.ts) and ffmpeg on an order's kept media take the
// cores only as the placements and pages (nice 0) leave them; a draft's, only as nothing else wants them.
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
  it("runs at the background priority from its first instruction, and a draft's under SCHED_IDLE as well", async () => {
    // ffmpeg as a script that notes its nice and scheduling policy (/proc's field 41) first, then is ffmpeg.
    const noted = join(dir, 'priority.txt');
    const script = join(dir, 'ffmpeg');
    await writeFile(script, `#!/bin/sh\n{ nice; sed 's/.*) //' /proc/$$/stat | cut -d' ' -f39; } > '${noted}'\nexec ffmpeg "$@"\n`);
    await chmod(script, 0o755);
    const media = join(dir, 'a.wav');
    await writeFile(media, wavFile(3));
    const renderer = ffmpegRenderer(script)!;
    const [SCHED_OTHER, SCHED_IDLE] = ['0', '5'];

    expect(await renderer.decodedSeconds(media, 'wav', 60)).toBeCloseTo(3, 0);
    expect((await readFile(noted, 'utf8')).split('\n').slice(0, 2)).toEqual([String(BACKGROUND_NICE), SCHED_OTHER]);

    expect(await renderer.decodedSeconds(media, 'wav', 60, { background: true })).toBeCloseTo(3, 0);
    expect((await readFile(noted, 'utf8')).split('\n').slice(0, 2)).toEqual([String(BACKGROUND_NICE), SCHED_IDLE]);
  });
});
