// ffmpeg on an order's kept media: FFMPEG's, else one on PATH, else the static build npm install
// put in .engines/ffmpeg (scripts/install-ffmpeg.mjs; chooseFfmpeg). It measures what the file
// decodes to (the length that is worked, whatever its header says), and renders its audio into a
// compact copy that the engines and the workbench's player share: Ogg Opus, mono, 32 kbit/s (an
// hour is about 15 MB, where a video may be a gigabyte). Both stop at the length paid for (`-t`).
// The file is a customer's: ffmpeg runs in a process group of its own under CPU-time and
// address-space limits (each set by its own `ulimit`: dash takes one limit per call), dies with
// the service, and past a deadline that grows with the media's length the group is killed. It runs
// at the background's priority (src/runtime/priority.ts).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { mediaFormatOf } from '../documents/mediaFormats.js';
import { spawnChild } from '../runtime/spawner/index.js';
import { BACKGROUND_NICE } from '../runtime/priority.js';
import { installDir } from '../runtime/installDir.js';

export interface AudioRenderer {
  name: string;
  /** Seconds of audio the first audio stream of `input` (read by ffmpeg's `demuxer`) decodes to, decoding at most `maxSeconds`. */
  decodedSeconds(input: string, demuxer: string, maxSeconds: number, priority?: RenderPriority): Promise<number>;
  /** Writes at most `maxSeconds` of the first audio stream of `input` to `output` (Ogg Opus); the seconds written. */
  render(input: string, demuxer: string, output: string, maxSeconds: number, priority?: RenderPriority): Promise<number>;
}

/** `background`: for work nobody waits on now (a draft), under SCHED_IDLE as well as at nice 19. */
export interface RenderPriority {
  background?: boolean;
}

/** `h` hours of audio decoded and encoded take seconds; the deadline leaves a wide margin. */
const deadlineMs = (seconds: number) => 60_000 + seconds * 250;
/** CPU seconds ffmpeg may spend: encoding runs at about 50 times real time on one core here; decoding far faster. */
export const ffmpegCpuSeconds = (seconds: number) => Math.ceil(30 + seconds * 0.2);
/** Address space of ffmpeg, in KiB: 1 GiB. */
export const FFMPEG_MEMORY_KB = 1024 * 1024;

const OPUS = ['-ac', '1', '-c:a', 'libopus', '-b:a', '32k', '-vbr', 'constrained', '-application', 'voip', '-f', 'ogg'];

/** Which ffmpeg the service runs, and where it came from (the start banner says). */
export interface FfmpegChoice {
  /** What to run; undefined: no ffmpeg. */
  command?: string;
  source: 'FFMPEG' | 'PATH' | 'packaged' | 'none';
  /** Why there is none. */
  reason?: string;
}

/** The packaged ffmpeg: the binary and what its install wrote (its version, or why it was skipped). */
export const packagedFfmpeg = (env: NodeJS.ProcessEnv = process.env) => {
  const dir = join(installDir(env), 'ffmpeg');
  return { binary: join(dir, 'ffmpeg'), manifest: join(dir, 'manifest.json') };
};

const isExecutableFile = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The first `name` on `path` (a PATH value), as the shell would find it. */
export function onPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  return path
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find(isExecutableFile);
}

/**
 * FFMPEG where set (`none`: no ffmpeg), else the first ffmpeg on PATH (a system's, whose codecs
 * its owner chose), else the one npm install brought. A machine it brought none to (no build for
 * its processor) says why in its manifest.
 */
export function chooseFfmpeg(env: NodeJS.ProcessEnv = process.env): FfmpegChoice {
  if (env.FFMPEG) return env.FFMPEG === 'none' ? { source: 'none', reason: 'FFMPEG=none' } : { command: env.FFMPEG, source: 'FFMPEG' };
  const system = onPath('ffmpeg', env.PATH);
  if (system) return { command: system, source: 'PATH' };
  const packaged = packagedFfmpeg(env);
  if (isExecutableFile(packaged.binary)) return { command: packaged.binary, source: 'packaged' };
  let skipped: string | undefined;
  try {
    skipped = (JSON.parse(readFileSync(packaged.manifest, 'utf8')) as { skipped?: string }).skipped;
  } catch {
    /* never installed */
  }
  return { source: 'none', reason: skipped ?? `none on PATH, and npm install put none in ${packaged.binary}` };
}

/** `command` (by default the ffmpeg chooseFfmpeg finds); undefined where it is `none` or does not run. */
export function ffmpegRenderer(command: string = chooseFfmpeg().command ?? 'none'): AudioRenderer | undefined {
  if (command === 'none' || spawnSync(command, ['-version'], { stdio: 'ignore' }).status !== 0) return undefined;
  // FFmpeg 7.0's own Speex decoder (the packaged build's first) renders 16 kHz Speex at twice its
  // length, so that the paid length cut off half the speech; libspeex, where this ffmpeg has it, does not.
  const speexDecoder = /^\s*A\S*\s+libspeex\s/m.test(spawnSync(command, ['-hide_banner', '-decoders'], { encoding: 'utf8' }).stdout ?? '')
    ? ['-c:a', 'libspeex']
    : [];
  // The input is a local file read by the demuxer named (never one its content picks: HLS, concat).
  const run = async (input: string, demuxer: string, maxSeconds: number, output: string[], priority: RenderPriority = {}) => {
    const decoder = demuxer === 'ogg' && (await isSpeex(input)) ? speexDecoder : [];
    const reading = ['-protocol_whitelist', 'file', '-f', demuxer, ...decoder, '-i', input, '-map', '0:a:0', '-vn', '-t', String(maxSeconds)];
    return runLimited(command, ['-nostdin', '-v', 'error', '-nostats', '-progress', 'pipe:1', '-y', ...reading, ...output], maxSeconds, priority);
  };
  return {
    name: 'ffmpeg',
    decodedSeconds: (input, demuxer, maxSeconds, priority) => run(input, demuxer, maxSeconds, ['-f', 'null', '-'], priority),
    render: (input, demuxer, output, maxSeconds, priority) => run(input, demuxer, maxSeconds, [...OPUS, output], priority),
  };
}

/** Whether the Ogg file at `path` holds Speex (by its first packet, as the probe tells formats). */
async function isSpeex(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(4096), 0, 4096, 0);
    return mediaFormatOf(buffer.subarray(0, bytesRead)) === 'speex';
  } finally {
    await file.close();
  }
}

/** Runs ffmpeg under the limits; resolves with the seconds it wrote (its last `out_time_us`). */
async function runLimited(command: string, args: string[], seconds: number, priority: RenderPriority): Promise<number> {
  // The limits apply to ffmpeg itself: the shell sets them (stopping if it cannot), then becomes
  // it; the spawner starts it (tied to it, and so to this process), and past the deadline its group
  // is killed. At the background's priority: work behind an order leaves the cores to placements first.
  const limits = `set -e; ulimit -t ${ffmpegCpuSeconds(seconds)}; ulimit -v ${FFMPEG_MEMORY_KB}; exec "$0" "$@"`;
  const child = await spawnChild('/bin/sh', ['-c', limits, command, ...args], { detached: true, nice: BACKGROUND_NICE, idle: priority.background });
  return new Promise<number>((resolve, reject) => {
    let [progress, stderr] = ['', ''];
    child.stdout!.on('data', (chunk: Buffer) => {
      progress = (progress + chunk.toString('latin1')).slice(-4000);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL', true), deadlineMs(seconds));
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      const written = [...progress.matchAll(/^out_time_us=(\d+)$/gm)].at(-1)?.[1];
      if (code === 0 && written !== undefined) resolve(Number(written) / 1e6);
      else reject(new Error(`ffmpeg could not read the audio (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}
