// ffmpeg (Debian's package, where installed) on an order's kept media: it measures what the file
// decodes to (the length that is worked, whatever its header says), and renders its audio into a
// compact copy that the engines and the workbench's player share: Ogg Opus, mono, 32 kbit/s (an
// hour is about 15 MB, where a video may be a gigabyte). Both stop at the length paid for (`-t`).
// The file is a customer's: ffmpeg runs in a process group of its own under CPU-time and
// address-space limits (each set by its own `ulimit`: dash takes one limit per call), dies with
// the service, and past a deadline that grows with the media's length the group is killed. It runs
// at the background's priority (src/runtime/priority.ts).
import { spawn, spawnSync } from 'node:child_process';
import { tiedCommand } from '../runtime/tiedChild.js';
import { BACKGROUND_NICE } from '../runtime/priority.js';

export interface AudioRenderer {
  name: string;
  /** Seconds of audio the first audio stream of `input` (read by ffmpeg's `demuxer`) decodes to, decoding at most `maxSeconds`. */
  decodedSeconds(input: string, demuxer: string, maxSeconds: number): Promise<number>;
  /** Writes at most `maxSeconds` of the first audio stream of `input` to `output` (Ogg Opus); the seconds written. */
  render(input: string, demuxer: string, output: string, maxSeconds: number): Promise<number>;
}

/** `h` hours of audio decoded and encoded take seconds; the deadline leaves a wide margin. */
const deadlineMs = (seconds: number) => 60_000 + seconds * 250;
/** CPU seconds ffmpeg may spend: encoding runs at about 50 times real time on one core here; decoding far faster. */
export const ffmpegCpuSeconds = (seconds: number) => Math.ceil(30 + seconds * 0.2);
/** Address space of ffmpeg, in KiB: 1 GiB. */
export const FFMPEG_MEMORY_KB = 1024 * 1024;

const OPUS = ['-ac', '1', '-c:a', 'libopus', '-b:a', '32k', '-vbr', 'constrained', '-application', 'voip', '-f', 'ogg'];

/** ffmpeg on PATH (or FFMPEG's path); undefined where it is not installed (`FFMPEG=none` leaves it out). */
export function ffmpegRenderer(command = process.env.FFMPEG ?? 'ffmpeg'): AudioRenderer | undefined {
  if (command === 'none' || spawnSync(command, ['-version'], { stdio: 'ignore' }).status !== 0) return undefined;
  // The input is a local file read by the demuxer named (never one its content picks: HLS, concat).
  const run = (input: string, demuxer: string, maxSeconds: number, output: string[]) => {
    const reading = ['-protocol_whitelist', 'file', '-f', demuxer, '-i', input, '-map', '0:a:0', '-vn', '-t', String(maxSeconds)];
    return runLimited(command, ['-nostdin', '-v', 'error', '-nostats', '-progress', 'pipe:1', '-y', ...reading, ...output], maxSeconds);
  };
  return {
    name: 'ffmpeg',
    decodedSeconds: (input, demuxer, maxSeconds) => run(input, demuxer, maxSeconds, ['-f', 'null', '-']),
    render: (input, demuxer, output, maxSeconds) => run(input, demuxer, maxSeconds, [...OPUS, output]),
  };
}

/** Runs ffmpeg under the limits; resolves with the seconds it wrote (its last `out_time_us`). */
function runLimited(command: string, args: string[], seconds: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    // The limits apply to ffmpeg itself: the shell sets them (stopping if it cannot), then becomes
    // it; it dies with this process (tiedCommand), and past the deadline its group is killed.
    // At the background's priority: work behind an order leaves the cores to placements first.
    const limits = `set -e; ulimit -t ${ffmpegCpuSeconds(seconds)}; ulimit -v ${FFMPEG_MEMORY_KB}; exec nice -n ${BACKGROUND_NICE} "$0" "$@"`;
    const tied = tiedCommand('/bin/sh', ['-c', limits, command, ...args]);
    const child = spawn(tied.command, tied.args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let [progress, stderr] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => {
      progress = (progress + chunk.toString('latin1')).slice(-4000);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      if (child.pid)
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
    }, deadlineMs(seconds));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const written = [...progress.matchAll(/^out_time_us=(\d+)$/gm)].at(-1)?.[1];
      if (code === 0 && written !== undefined) resolve(Number(written) / 1e6);
      else reject(new Error(`ffmpeg could not read the audio (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}
