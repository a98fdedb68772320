// A duration a container's header states, checked against what its data says (issue 41): the
// sample tables of an MP4 against its movie and media headers; the size of a WAV's or an AIFF's
// sound data against its `fact` or `COMM` count; an MP3's Xing count and an Ogg stream's last
// granule against the bytes they would have to fill. The longer is priced; where the data makes a
// header impossible, the file is read whole and its frames or pages counted (MpegFrameCount,
// OggPageCount). Pure: they read the bytes they are given.
import { mpegLengthPlausible, oggLengthPlausible } from './frameCounts.js';
import type { Blocks } from './mediaDuration.js';

const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length);

/** Bytes [at, at + length) of the file, when one block holds them all. */
export function heldBytes(blocks: Blocks, at: number, length: number): Buffer | undefined {
  const block = blocks.find((b) => b.at <= at && b.at + b.bytes.length >= at + length);
  return block && view(block.bytes).subarray(at - block.at, at - block.at + length);
}

// ---------------------------------------------------------------------------------------------
// MP4 / QuickTime

/** The boxes inside `bytes` (a box's body), each with its type and body. */
function* boxesIn(bytes: Buffer): Generator<{ type: string; body: Buffer }> {
  for (let at = 0; at + 8 <= bytes.length;) {
    let length = bytes.readUInt32BE(at);
    let header = 8;
    if (length === 1 && at + 16 <= bytes.length) [length, header] = [Number(bytes.readBigUInt64BE(at + 8)), 16];
    else if (length === 0) length = bytes.length - at;
    if (length < header || at + length > bytes.length) return;
    yield { type: bytes.toString('latin1', at + 4, at + 8), body: bytes.subarray(at + header, at + length) };
    at += length;
  }
}

const child = (body: Buffer, type: string) => [...boxesIn(body)].find((b) => b.type === type)?.body;

/** A header's time scale and duration (mvhd and mdhd share the layout); the duration undefined when unknown. */
function scaleAndDuration(body: Buffer): { scale: number; duration?: number } | undefined {
  if (body[0] === 0 && body.length >= 20) {
    const duration = body.readUInt32BE(16);
    return { scale: body.readUInt32BE(12), ...(duration !== 0xffffffff ? { duration } : {}) };
  }
  if (body[0] === 1 && body.length >= 32) return { scale: body.readUInt32BE(20), duration: Number(body.readBigUInt64BE(24)) };
  return undefined;
}

/** A track header's duration, in the movie's time scale. */
function trackHeaderDuration(body: Buffer): number | undefined {
  if (body[0] === 0 && body.length >= 24) return body.readUInt32BE(20);
  if (body[0] === 1 && body.length >= 36) return Number(body.readBigUInt64BE(28));
  return undefined;
}

/** The sum of a time-to-sample table (`stts`): every sample's duration, in the media's time scale. */
function sampleTableDuration(body: Buffer): number {
  const entries = body.length >= 8 ? body.readUInt32BE(4) : 0;
  let total = 0;
  for (let i = 0; i < entries && 16 + i * 8 <= body.length; i++) total += body.readUInt32BE(8 + i * 8) * body.readUInt32BE(12 + i * 8);
  return total;
}

/**
 * Seconds of a movie by its index (the `moov` box's body): the longest of what the movie header,
 * each track's header, each media header and each track's sample table say.
 */
export function movieIndexSeconds(moov: Buffer): number | undefined {
  const seconds: number[] = [];
  const movie = child(moov, 'mvhd');
  const movieTime = movie && scaleAndDuration(movie);
  const add = (duration: number | undefined, scale: number | undefined) => {
    if (duration !== undefined && scale) seconds.push(duration / scale);
  };
  add(movieTime?.duration, movieTime?.scale);
  for (const { type, body } of boxesIn(moov)) {
    if (type !== 'trak') continue;
    const tkhd = child(body, 'tkhd');
    if (tkhd) add(trackHeaderDuration(tkhd), movieTime?.scale);
    const mdia = child(body, 'mdia');
    const mdhd = mdia && child(mdia, 'mdhd');
    const media = mdhd && scaleAndDuration(mdhd);
    add(media?.duration, media?.scale);
    const stts = mdia && child(child(child(mdia, 'minf') ?? Buffer.alloc(0), 'stbl') ?? Buffer.alloc(0), 'stts');
    if (stts) add(sampleTableDuration(stts), media?.scale);
  }
  const finite = seconds.filter((s) => Number.isFinite(s) && s > 0);
  return finite.length ? Math.max(...finite) : undefined;
}

/** The movie index of an MP4 read by ranges: its top-level boxes walked from the start, as far as their headers are held. */
export function heldMovieIndex(blocks: Blocks, size: number): Buffer | undefined {
  for (let at = 0; at + 8 <= size;) {
    const header = heldBytes(blocks, at, 8);
    if (!header) return undefined;
    let [length, headerLength] = [header.readUInt32BE(0), 8];
    if (length === 1) {
      const large = heldBytes(blocks, at + 8, 8);
      if (!large) return undefined;
      [length, headerLength] = [Number(large.readBigUInt64BE(0)), 16];
    } else if (length === 0) length = size - at;
    if (length < headerLength) return undefined;
    if (header.toString('latin1', 4, 8) === 'moov') return heldBytes(blocks, at, length)?.subarray(headerLength);
    at += length;
  }
  return undefined;
}

/** The longest index that can be kept whole from a stream: an hour's index is a few MB. */
const MAX_INDEX_BYTES = 64 * 1024 ** 2;

/** Watches a streamed MP4 for its index (`moov`), kept whole as it passes; `seconds` once it has. */
export class MovieIndexWatch {
  seconds: number | undefined;
  done = false;
  private position = 0;
  private nextBox = 0;
  private header: Buffer[] = [];
  private index: Buffer[] | undefined;
  private indexLength = 0;

  push(chunk: Uint8Array): void {
    let bytes = view(chunk);
    while (!this.done && bytes.length) {
      if (this.index) {
        const take = bytes.subarray(0, this.indexLength - this.held(this.index));
        this.index.push(take);
        [this.position, bytes] = [this.position + take.length, bytes.subarray(take.length)];
        if (this.held(this.index) === this.indexLength) {
          const index = Buffer.concat(this.index);
          this.seconds = movieIndexSeconds(index.subarray(index.readUInt32BE(0) === 1 ? 16 : 8));
          this.done = true;
        }
      } else if (this.position < this.nextBox) {
        const skip = Math.min(bytes.length, this.nextBox - this.position);
        [this.position, bytes] = [this.position + skip, bytes.subarray(skip)];
      } else {
        // A box's header: 8 bytes, 16 with a 64-bit length (its length field is 1).
        const want = this.held(this.header) >= 8 && Buffer.concat(this.header).readUInt32BE(0) === 1 ? 16 : 8;
        const take = bytes.subarray(0, want - this.held(this.header));
        this.header.push(take);
        [this.position, bytes] = [this.position + take.length, bytes.subarray(take.length)];
        const header = Buffer.concat(this.header);
        if (header.length === 8 && header.readUInt32BE(0) === 1) continue;
        if (header.length === want) this.box(header);
      }
    }
  }

  /** A top-level box's header, read from its start: the index is kept, the rest skipped. */
  private box(header: Buffer): void {
    this.header = [];
    const start = this.position - header.length;
    const length = header.length === 16 ? Number(header.readBigUInt64BE(8)) : header.readUInt32BE(0);
    // Length 0 runs to the end of the file (nothing follows); less than its header is broken.
    if (length < header.length) return void (this.done = true);
    if (header.toString('latin1', 4, 8) === 'moov') {
      if (length > MAX_INDEX_BYTES) return void (this.done = true);
      [this.index, this.indexLength] = [[header], length];
      return;
    }
    this.nextBox = start + length;
  }

  private held = (parts: Buffer[]) => parts.reduce((sum, part) => sum + part.length, 0);
}

// ---------------------------------------------------------------------------------------------
// WAV and AIFF: the sound data's size

/** Seconds of PCM data of `bytes` bytes. */
const pcmSeconds = (bytes: number, channels: number, bits: number, rate: number) =>
  channels > 0 && bits > 0 && rate > 0 ? bytes / (channels * Math.ceil(bits / 8)) / rate : undefined;

const PCM_WAVE_FORMATS = new Set([1, 3, 0xfffe]);

/**
 * Seconds of a PCM WAV by the size of its `data` chunk (what a decoder plays), not a `fact` count;
 * a size of 0 or 0xFFFFFFFF (written while recording) runs to the end of the file.
 */
export function waveDataSeconds(head: Buffer, size: number): number | undefined {
  let format: { tag: number; channels: number; rate: number; bits: number } | undefined;
  for (let at = 12; at + 8 <= head.length;) {
    const [id, length] = [head.toString('latin1', at, at + 4), head.readUInt32LE(at + 4)];
    if (id === 'fmt ' && at + 24 <= head.length) {
      format = { tag: head.readUInt16LE(at + 8), channels: head.readUInt16LE(at + 10), rate: head.readUInt32LE(at + 12), bits: head.readUInt16LE(at + 22) };
    }
    if (id === 'data') {
      if (!format || !PCM_WAVE_FORMATS.has(format.tag)) return undefined;
      const present = size - (at + 8);
      const bytes = length === 0 || length === 0xffffffff ? present : Math.min(length, present);
      return pcmSeconds(bytes, format.channels, format.bits, format.rate);
    }
    at += 8 + length + (length & 1);
  }
  return undefined;
}

/** An 80-bit IEEE extended float (AIFF's sample rate). */
function extended(bytes: Buffer, at: number): number {
  const exponent = bytes.readUInt16BE(at) & 0x7fff;
  const mantissa = Number(bytes.readBigUInt64BE(at + 2));
  return exponent === 0 ? 0 : mantissa * 2 ** (exponent - 16383 - 63);
}

const PCM_AIFC = new Set(['NONE', 'sowt', 'twos', 'raw ', 'in24', 'in32', 'fl32', 'fl64']);

/** Seconds of a PCM AIFF by the size of its `SSND` chunk, not its `COMM` frame count. */
export function aiffDataSeconds(head: Buffer, size: number): number | undefined {
  const compressed = head.toString('latin1', 8, 12) === 'AIFC';
  let format: { channels: number; bits: number; rate: number } | undefined;
  for (let at = 12; at + 8 <= head.length;) {
    const [id, length] = [head.toString('latin1', at, at + 4), head.readUInt32BE(at + 4)];
    if (id === 'COMM' && at + 26 <= head.length) {
      if (compressed && (at + 30 > head.length || !PCM_AIFC.has(head.toString('latin1', at + 26, at + 30)))) return undefined;
      format = { channels: head.readUInt16BE(at + 8), bits: head.readUInt16BE(at + 14), rate: extended(head, at + 16) };
    }
    if (id === 'SSND' && at + 16 <= head.length) {
      if (!format) return undefined;
      const bytes = Math.min(length, size - (at + 8)) - 8 - head.readUInt32BE(at + 8);
      return pcmSeconds(Math.max(0, bytes), format.channels, format.bits, format.rate);
    }
    at += 8 + length + (length & 1);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The check

/** What the parser stated of a file (music-metadata's names). */
export interface Stated {
  container?: string;
  codec?: string;
  sampleRate?: number;
  channels?: number;
  seconds?: number;
}

/** Takes a format tag the parser's observer reports into `stated`. */
export function noteFormat(stated: Stated, { id, value }: { id: string; value: unknown }): void {
  if (id === 'container' && typeof value === 'string') stated.container = value;
  if (id === 'codec' && typeof value === 'string') stated.codec = value;
  if (id === 'sampleRate' && typeof value === 'number') stated.sampleRate = value;
  if (id === 'numberOfChannels' && typeof value === 'number') stated.channels = value;
  if (id === 'duration' && typeof value === 'number' && value > 0 && Number.isFinite(value)) stated.seconds = value;
}

/** MP4, M4A and QuickTime containers, as music-metadata names them (their brands). */
export const isMovie = (container: string | undefined): boolean => /^(qt|mp4|m4a|m4v|isom|iso\d|mp4\d|avc1|M4A|M4V|3gp)/i.test(container ?? '');

/**
 * The seconds to price for a file of `size` bytes, from what its parse read (`blocks`; what a
 * streamed MP4's index says, as `indexSeconds`): the longer of the stated length and what the data says.
 * Undefined where the data makes the statement impossible (an MP3's Xing count, an Ogg's last
 * granule): the file is then read whole, its frames or pages counted.
 */
export function checkedSeconds(stated: Stated, blocks: Blocks, size: number | undefined, indexSeconds?: number): number | undefined {
  const { container = '', seconds } = stated;
  const head = heldBytes(blocks, 0, Math.min(64 * 1024, size ?? Infinity)) ?? (blocks.find((b) => b.at === 0)?.bytes as Buffer | undefined);
  const longer = (other: number | undefined) => (seconds === undefined ? other : Math.max(seconds, other ?? 0));
  if (isMovie(container)) {
    const index = indexSeconds === undefined && size !== undefined ? heldMovieIndex(blocks, size) : undefined;
    return longer(indexSeconds ?? (index && movieIndexSeconds(index)));
  }
  if (seconds === undefined || size === undefined || !head) return seconds;
  if (container === 'WAVE') return longer(waveDataSeconds(view(head), size));
  if (container === 'AIFF') return longer(aiffDataSeconds(view(head), size));
  if (container === 'MPEG') return mpegLengthPlausible(head, size, seconds) === false ? undefined : seconds;
  if (container === 'Ogg') {
    const rate = stated.codec === 'Opus' ? 48_000 : (stated.sampleRate ?? 0);
    return rate && !oggLengthPlausible(blocks, size, seconds, rate, stated.channels) ? undefined : seconds;
  }
  return seconds;
}
