// Issue 56: the service's children (ffmpeg, the file readers, the speech engine) are started by
// the spawner (src/runtime/spawner/), not forked from the service's thread: each with the limits,
// priority and parent-death tie it had when the service started it, read from /proc; and a
// spawner that dies (its children with it) is survived: the next reader, ffmpeg and the engine
// start again through a new one. The engine: test/integration/localEngine.test.ts (an order
// finishes whose engine went with a crashed spawner); `npm start`'s: tiedChildren.test.ts.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentSandbox } from '../../src/documents/sandbox/index.js';
import { chooseFfmpeg, ffmpegRenderer } from '../../src/engines/audioRendition.js';
import { BACKGROUND_NICE } from '../../src/runtime/priority.js';
import { spawnChild, spawnerPid } from '../../src/runtime/spawner/index.js';
import { processInfo } from '../../src/runtime/tiedChild.js';
import { wavFile } from '../helpers/mediaServer.js';
import { waitFor } from '../helpers/net.js';
import { descendants, gone, isReader } from '../helpers/processes.js';

/** The ffmpeg the service would run (npm install packages one). */
const FFMPEG = chooseFfmpeg().command;
const ppidOf = (pid: number) => processInfo(pid)?.ppid;
/** A /proc/<pid>/limits line's soft limit ("unlimited" or a number). */
const limit = (limits: string, name: string) => new RegExp(`^${name}\\s+(\\S+)`, 'm').exec(limits)?.[1];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spawner-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Kills the spawner (SIGKILL, as the OOM killer would) and waits until it is gone. */
async function killSpawner(): Promise<number> {
  const pid = await spawnerPid();
  const { startTime } = processInfo(pid)!;
  process.kill(pid, 'SIGKILL');
  await waitFor(() => gone({ pid, startTime, args: [] }), 'the spawner to go', 5_000);
  return pid;
}

describe('the spawner', () => {
  it('is tied to this process and starts children tied to itself, relaying their output and exit', async () => {
    const spawner = await spawnerPid();
    expect(ppidOf(spawner)).toBe(process.pid);
    const child = await spawnChild('/bin/sh', ['-c', 'echo out; echo err >&2; exit 3'], { nice: 5 });
    let [out, err] = ['', ''];
    child.stdout!.on('data', (d: Buffer) => (out += d));
    child.stderr!.on('data', (d: Buffer) => (err += d));
    const [code] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once('close', (c, s) => r([c, s])));
    expect({ code, out, err, parent: child.parentPid }).toEqual({ code: 3, out: 'out\n', err: 'err\n', parent: spawner });
    // A program that is not there: refused at once, or (behind setpriv, which execs it) exit 127.
    const missing = await spawnChild('/no/such/program', []).then(
      (c) => new Promise((r) => c.once('close', (code) => r(code))),
      (e: Error) => e.message,
    );
    expect(String(missing)).toMatch(/ENOENT|^127$/);
  });

  it('kills a detached child with its whole process group', async () => {
    const child = await spawnChild('/bin/sh', ['-c', 'sleep 60 & echo $!; wait'], { detached: true });
    const grandchild = Number(await new Promise<string>((r) => child.stdout!.once('data', (d: Buffer) => r(String(d)))));
    const seen = { pid: grandchild, startTime: processInfo(grandchild)!.startTime, args: [] };
    expect(ppidOf(child.pid)).toBe(child.parentPid);
    child.kill('SIGKILL', true);
    await waitFor(() => gone(seen), 'the group to go', 5_000);
  });

  describe.skipIf(!FFMPEG)('ffmpeg', () => {
    it('runs under its CPU and memory limits, at the background priority, a child of the spawner', async () => {
      // ffmpeg as a script that notes what it runs under first, then is ffmpeg (the same process).
      const noted = join(dir, 'ffmpeg.txt');
      const script = join(dir, 'ffmpeg');
      await writeFile(script, `#!/bin/sh\n{ nice; echo $PPID; cat /proc/self/limits; } > '${noted}'\nexec '${FFMPEG}' "$@"\n`);
      await chmod(script, 0o755);
      const media = join(dir, 'a.wav');
      await writeFile(media, wavFile(3));
      const render = ffmpegRenderer(script)!;
      expect(await render.decodedSeconds(media, 'wav', 60)).toBeCloseTo(3, 0);
      const [nice, ppid, ...limits] = (await readFile(noted, 'utf8')).split('\n');
      expect(Number(nice)).toBe(BACKGROUND_NICE);
      expect(Number(ppid)).toBe(await spawnerPid());
      expect(limit(limits.join('\n'), 'Max cpu time')).toMatch(/^\d+$/);
      expect(limit(limits.join('\n'), 'Max address space')).toMatch(/^\d+$/);

      // The spawner dies: the next ffmpeg starts through a new one.
      const before = await killSpawner();
      expect(await render.decodedSeconds(media, 'wav', 60)).toBeCloseTo(3, 0);
      expect(await spawnerPid()).not.toBe(before);
    });
  });

  it('starts the file readers at their priority with their heap limit, and a reader lost with the spawner is replaced', async () => {
    const reader = createDocumentSandbox();
    try {
      const WAV = new Uint8Array(wavFile(1));
      const whole = { block: async () => ({ at: 0, bytes: WAV }) };
      const media = { size: WAV.length, mimeType: 'audio/wav' };
      expect(await reader.mediaDurationByRanges(whole, media)).toMatchObject({ duration: 1 });
      const spawner = await spawnerPid();
      const readers = descendants(spawner).filter(isReader);
      expect(readers.length).toBeGreaterThanOrEqual(1);
      for (const r of readers) {
        expect(ppidOf(r.pid)).toBe(spawner);
        expect(r.args.some((a) => /^--max-old-space-size=\d+$/.test(a))).toBe(true);
        expect(getPriority(r.pid)).toBe(0); // media readers: a request waits for them
      }
      // A document reader: at nice 10, below the service.
      const words = await reader.documentWords(new TextEncoder().encode('one two three'), 'a.txt');
      expect(words).toBe(3);
      const documents = descendants(spawner)
        .filter(isReader)
        .filter((r) => r.args.includes('documents'));
      expect(documents.map((r) => getPriority(r.pid))).toContain(10);

      await killSpawner();
      await waitFor(() => readers.every(gone), 'the readers to go with the spawner', 5_000);
      expect(await reader.mediaDurationByRanges(whole, media)).toMatchObject({ duration: 1 });
      expect(descendants(await spawnerPid()).filter(isReader).length).toBeGreaterThanOrEqual(1);
    } finally {
      await reader.close();
    }
  });
});
