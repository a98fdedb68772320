// The audio of a customer's video, extracted once per order by ffmpeg (Debian's package, where
// installed) into a compact rendition that the engines and the workbench's player share: Ogg Opus,
// mono, 32 kbit/s (an hour is about 15 MB, where the video may be a gigabyte). The file is a
// customer's: ffmpeg runs in a process group of its own under the shell's CPU-time and memory
// limits, and past a deadline that grows with the media's length the group is killed.
import { spawn, spawnSync } from 'node:child_process';

export interface AudioExtractor {
  name: string;
  /** Writes the first audio stream of `input` to `output`; rejects when there is none or ffmpeg fails. */
  extract(input: string, output: string, seconds: number): Promise<void>;
}

/** `h` hours of audio decoded and encoded take seconds; the deadline leaves a wide margin. */
const deadlineMs = (seconds: number) => 60_000 + seconds * 250;
const CPU_SECONDS = (seconds: number) => Math.ceil(30 + seconds * 0.2);
const MEMORY_KB = 1024 * 1024; // 1 GiB of address space

/** ffmpeg on PATH (or FFMPEG's path); undefined where it is not installed (`FFMPEG=none` leaves it out). */
export function ffmpegExtractor(command = process.env.FFMPEG ?? 'ffmpeg'): AudioExtractor | undefined {
  if (command === 'none' || spawnSync(command, ['-version'], { stdio: 'ignore' }).status !== 0) return undefined;
  return {
    name: 'ffmpeg',
    extract: (input, output, seconds) =>
      new Promise<void>((resolve, reject) => {
        const args = [
          '-nostdin',
          '-v',
          'error',
          '-y',
          '-i',
          input,
          '-map',
          '0:a:0',
          '-vn',
          '-ac',
          '1',
          '-c:a',
          'libopus',
          '-b:a',
          '32k',
          '-vbr',
          'constrained',
          '-application',
          'voip',
          '-f',
          'ogg',
          output,
        ];
        // The limits apply to ffmpeg itself: the shell sets them, then becomes it.
        const child = spawn('/bin/sh', ['-c', `ulimit -t ${CPU_SECONDS(seconds)} -v ${MEMORY_KB}; exec "$0" "$@"`, command, ...args], {
          detached: true,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
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
          if (code === 0) resolve();
          else reject(new Error(`ffmpeg could not extract the audio (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
        });
      }),
  };
}
