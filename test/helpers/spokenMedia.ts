// Speech as customers send it, in every accepted format and at any length: espeak-ng's voice
// (Debian's package) looped and encoded by ffmpeg, made once per machine into the temporary
// directory; and the lies a crafted file tells (an MP4 whose movie, track and media headers
// understate it). The servers that misbehave with them are in test/helpers/lyingServer.ts.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { MediaFormatKey } from '../../src/documents/mediaFormats.js';
import { speak } from './speech.js';

const run = promisify(execFile);
const DIR = join(tmpdir(), 'order-service-spoken-v1');

export const SPOKEN = 'The quick brown fox jumps over the lazy dog. Today we talk about whales and the sea.';

const PICTURE = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10'];

/** How ffmpeg makes each accepted format from speech (a video format gets a picture too). */
export const MAKE: Record<MediaFormatKey, { ext: string; args: string[]; video?: boolean }> = {
  wav: { ext: 'wav', args: ['-c:a', 'pcm_s16le', '-f', 'wav'] },
  aiff: { ext: 'aiff', args: ['-f', 'aiff'] },
  mp3: { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-q:a', '4', '-f', 'mp3'] },
  aac: { ext: 'aac', args: ['-c:a', 'aac', '-f', 'adts'] },
  ogg: { ext: 'ogg', args: ['-c:a', 'libopus', '-f', 'ogg'] },
  speex: { ext: 'spx', args: ['-ar', '16000', '-c:a', 'libspeex', '-f', 'ogg'] },
  flac: { ext: 'flac', args: ['-f', 'flac'] },
  m4a: { ext: 'm4a', args: ['-c:a', 'aac', '-f', 'ipod'] },
  mp4: { ext: 'mp4', video: true, args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', '-f', 'mp4'] },
  mov: { ext: 'mov', video: true, args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', '-f', 'mov'] },
  webm: { ext: 'webm', video: true, args: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus', '-shortest', '-f', 'webm'] },
  mkv: { ext: 'mkv', args: ['-c:a', 'libopus', '-f', 'matroska'] },
  asf: { ext: 'wma', args: ['-c:a', 'wmav2', '-f', 'asf'] },
  wavpack: { ext: 'wv', args: ['-c:a', 'wavpack', '-f', 'wv'] },
};

const making = new Map<string, Promise<string>>();

/** Made once: concurrent callers share one making. */
function once(name: string, make: (path: string) => Promise<void>): Promise<string> {
  const path = join(DIR, name);
  if (existsSync(path)) return Promise.resolve(path);
  let made = making.get(name);
  if (!made) {
    made = (async () => {
      await mkdir(DIR, { recursive: true });
      const partial = `${path}.${process.pid}.part`;
      await make(partial);
      await rename(partial, path);
      return path;
    })().finally(() => making.delete(name));
    making.set(name, made);
  }
  return made;
}

const ffmpeg = (args: string[]) => run('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args], { maxBuffer: 1 << 20 });

/** The spoken sentence, as espeak-ng says it (about five seconds). */
export const spokenWav = () => once('spoken.wav', async (path) => writeFile(path, (await speak(SPOKEN)).wav));

/**
 * Speech `seconds` long in `format`: the sentence looped (`seconds` 0: once). Long files are
 * made by stream-copying a one-minute piece, so an hour costs seconds to make.
 */
export function spokenMedia(format: MediaFormatKey, seconds = 0): Promise<string> {
  const { ext, args, video } = MAKE[format];
  return once(`spoken-${format}-${seconds}.${ext}`, async (path) => {
    if (seconds > 60) {
      const minute = await spokenMedia(format, 60);
      return void (await ffmpeg([
        '-stream_loop',
        String(Math.ceil(seconds / 60) - 1),
        '-i',
        minute,
        '-t',
        String(seconds),
        '-c',
        'copy',
        ...args.slice(-2),
        path,
      ]));
    }
    const loop = seconds ? ['-stream_loop', '-1'] : [];
    const length = seconds ? ['-t', String(seconds)] : [];
    await ffmpeg([...loop, '-i', await spokenWav(), ...(video ? PICTURE : []), ...length, ...args, path]);
  });
}

/**
 * An MP4 (or M4A) whose movie, track and media headers (`mvhd`, `tkhd`, `mdhd`) state its length
 * divided by `factor`; its sample tables still say how long it is, as do its samples.
 */
export function understatedMovie(source: string, factor: number): Promise<string> {
  return once(`understated-${factor}-${source.split('/').pop()}`, async (path) => {
    const bytes = await readFile(source);
    const walk = (from: number, to: number) => {
      for (let at = from; at + 8 <= to;) {
        const size = bytes.readUInt32BE(at);
        const type = bytes.toString('latin1', at + 4, at + 8);
        if (size < 8) return;
        if (['moov', 'trak', 'mdia'].includes(type)) walk(at + 8, at + size);
        // Version 0 headers: mvhd and mdhd keep the duration at 24 from the box's start, tkhd at 28.
        const field = type === 'mvhd' || type === 'mdhd' ? at + 24 : type === 'tkhd' ? at + 28 : undefined;
        if (field !== undefined && bytes[at + 8] === 0) bytes.writeUInt32BE(Math.floor(bytes.readUInt32BE(field) / factor), field);
        at += size;
      }
    };
    walk(0, bytes.length);
    await writeFile(path, bytes);
  });
}

/** A PCM WAV with a `fact` chunk (before its data) whose sample count is its length divided by `factor`. */
export function understatedWave(source: string, factor: number): Promise<string> {
  return once(`understated-${factor}-${source.split('/').pop()}`, async (path) => {
    const bytes = await readFile(source);
    const data = bytes.indexOf('data', 12, 'latin1');
    const [channels, bits, dataSize] = [bytes.readUInt16LE(22), bytes.readUInt16LE(34), bytes.readUInt32LE(data + 4)];
    const fact = Buffer.alloc(12);
    fact.write('fact', 0, 'latin1');
    fact.writeUInt32LE(4, 4);
    fact.writeUInt32LE(Math.floor(dataSize / (channels * (bits / 8)) / factor), 8);
    const out = Buffer.concat([bytes.subarray(0, data), fact, bytes.subarray(data)]);
    out.writeUInt32LE(out.length - 8, 4);
    await writeFile(path, out);
  });
}

/** An MP3 whose Xing (or Info) header counts its frames divided by `factor`. */
export function understatedMp3(source: string, factor: number): Promise<string> {
  return once(`understated-${factor}-${source.split('/').pop()}`, async (path) => {
    const bytes = await readFile(source);
    const tag = Math.max(bytes.indexOf('Xing', 0, 'latin1'), bytes.indexOf('Info', 0, 'latin1'));
    if (tag < 0 || !(bytes.readUInt32BE(tag + 4) & 1)) throw new Error(`${source} has no Xing frame count`);
    bytes.writeUInt32BE(Math.floor(bytes.readUInt32BE(tag + 8) / factor), tag + 8);
    await writeFile(path, bytes);
  });
}

/** Ogg's page checksum: CRC-32, polynomial 0x04C11DB7, not reflected, over the page with its checksum field zeroed. */
function oggChecksum(page: Buffer): number {
  let crc = 0;
  for (const byte of page) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

/** An Ogg Opus file whose last page's granule position says one second (its checksum made right again). */
export function understatedOgg(source: string): Promise<string> {
  return once(`understated-${source.split('/').pop()}`, async (path) => {
    const bytes = await readFile(source);
    const last = bytes.lastIndexOf('OggS', bytes.length - 1, 'latin1');
    const preSkip = bytes.readUInt16LE(bytes.indexOf('OpusHead', 0, 'latin1') + 10);
    bytes.writeBigInt64LE(BigInt(48_000 + preSkip), last + 6);
    const length = 27 + bytes[last + 26]! + [...bytes.subarray(last + 27, last + 27 + bytes[last + 26]!)].reduce((a, b) => a + b, 0);
    const page = bytes.subarray(last, last + length);
    page.writeUInt32LE(0, 22);
    page.writeUInt32LE(oggChecksum(page), 22);
    await writeFile(path, bytes);
  });
}

/** Seconds of audio a file decodes to, by ffmpeg (what a player plays). */
export async function decodedSeconds(path: string): Promise<number> {
  const { stdout } = await run('ffmpeg', ['-nostdin', '-v', 'error', '-nostats', '-progress', 'pipe:1', '-i', path, '-map', '0:a:0', '-f', 'null', '-'], {
    maxBuffer: 1 << 24,
  });
  return Number([...stdout.matchAll(/^out_time_us=(\d+)$/gm)].at(-1)![1]) / 1e6;
}
