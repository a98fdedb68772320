// What an MP3's frames and an Ogg stream's pages say of its length, for the headers that state
// less than their bytes can hold (mediaChecks.ts): the plausibility of a stated length against the
// file's size, and, when it is not plausible, a count of the whole stream as it passes (MpegFrameCount,
// OggPageCount), as a decoder would play it. Pure: they read the bytes they are given.
import type { Blocks } from './mediaDuration.js';

const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length);

// ---------------------------------------------------------------------------------------------
// MPEG audio (MP3, MP2)

const KBPS = {
  v1: [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  v2: [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
};
const RATES = { 3: [44_100, 48_000, 32_000], 2: [22_050, 24_000, 16_000], 0: [11_025, 12_000, 8_000] } as Record<number, number[]>;

export interface MpegFrame {
  /** Bytes of the frame, header included. */
  length: number;
  samples: number;
  rate: number;
  /** The highest bit rate of its version and layer, in bits per second. */
  maxBitrate: number;
}

/** The MPEG audio frame whose header starts at `at`; undefined where none does (or a free-format one). */
export function mpegFrameAt(b: Uint8Array, at: number): MpegFrame | undefined {
  if (at + 4 > b.length || b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return undefined;
  const version = (b[at + 1]! >> 3) & 3;
  const layer = 4 - ((b[at + 1]! >> 1) & 3); // 1, 2 or 3; 4 is reserved (and ADTS)
  const [index, rateIndex, padding] = [b[at + 2]! >> 4, (b[at + 2]! >> 2) & 3, (b[at + 2]! >> 1) & 1];
  if (version === 1 || layer === 4 || index === 0 || index === 15 || rateIndex === 3) return undefined;
  const table = version === 3 ? KBPS.v1[layer - 1]! : KBPS.v2[layer - 1]!;
  const [bitrate, rate] = [table[index]! * 1000, RATES[version]![rateIndex]!];
  const samples = layer === 1 ? 384 : layer === 3 && version !== 3 ? 576 : 1152;
  const length = layer === 1 ? (Math.floor((12 * bitrate) / rate) + padding) * 4 : Math.floor((samples / 8) * (bitrate / rate)) + padding;
  return { length, samples, rate, maxBitrate: table[14]! * 1000 };
}

/** An ID3v2 tag's length (header and footer included); 0 where none starts at `at`. */
export function id3v2Length(b: Uint8Array, at = 0): number {
  if (at + 10 > b.length || b[at] !== 0x49 || b[at + 1] !== 0x44 || b[at + 2] !== 0x33) return 0;
  const size = ((b[at + 6]! & 0x7f) << 21) | ((b[at + 7]! & 0x7f) << 14) | ((b[at + 8]! & 0x7f) << 7) | (b[at + 9]! & 0x7f);
  return 10 + size + (b[at + 5]! & 0x10 ? 10 : 0);
}

/**
 * Whether `seconds` can be the length of an MPEG audio file of `size` bytes: its frames, at the
 * highest bit rate of their layer, cannot fill the bytes in less. The first frame is found after
 * the ID3v2 tag in the head; undefined when it is not in the head (no judgement).
 */
export function mpegLengthPlausible(head: Uint8Array, size: number, seconds: number): boolean | undefined {
  const start = id3v2Length(head);
  const frame = mpegFrameAt(head, start);
  if (!frame) return undefined;
  // Trailing tags (ID3v1, APE, Lyrics) are a few KiB at most, but a picture: a generous allowance.
  const audioBytes = size - start - 256 * 1024;
  return audioBytes <= 0 || (audioBytes * 8) / frame.maxBitrate <= seconds * 1.02 + 1;
}

/** Counts the frames of a streamed MPEG audio file as they pass: `seconds` is what a decoder plays. */
export class MpegFrameCount {
  seconds = 0;
  private skip = -1; // before the start: the ID3v2 tag is not read yet
  private carry = Buffer.alloc(0);

  push(chunk: Uint8Array): void {
    let bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : view(chunk);
    if (this.skip < 0) {
      if (bytes.length < 10) return void (this.carry = Buffer.from(bytes));
      this.skip = id3v2Length(bytes);
    }
    const skipped = Math.min(this.skip, bytes.length);
    [this.skip, bytes] = [this.skip - skipped, bytes.subarray(skipped)];
    let at = 0;
    while (at + 4 <= bytes.length) {
      const frame = mpegFrameAt(bytes, at);
      if (!frame) {
        at++; // not a frame here: look for the next one (a tag, damage)
        continue;
      }
      this.seconds += frame.samples / frame.rate;
      if (at + frame.length > bytes.length) {
        this.skip = at + frame.length - bytes.length;
        at = bytes.length;
      } else at += frame.length;
    }
    this.carry = Buffer.from(bytes.subarray(at));
  }
}

// ---------------------------------------------------------------------------------------------
// Ogg

interface OggPage {
  at: number;
  granule: bigint;
  serial: number;
  continued: boolean;
  segments: number[];
  /** Bytes of the page, header included. */
  length: number;
}

function oggPageAt(b: Buffer, at: number): OggPage | undefined {
  if (at + 27 > b.length || b.toString('latin1', at, at + 4) !== 'OggS' || b[at + 4] !== 0) return undefined;
  const count = b[at + 26]!;
  if (at + 27 + count > b.length) return undefined;
  const segments = [...b.subarray(at + 27, at + 27 + count)];
  const length = 27 + count + segments.reduce((sum, s) => sum + s, 0);
  return { at, granule: b.readBigInt64LE(at + 6), serial: b.readUInt32LE(at + 14), continued: (b[at + 5]! & 1) === 1, segments, length };
}

/** Bits per second an Ogg codec cannot exceed, per channel (Opus: 256 kbit/s; Vorbis' highest quality is about as much). */
const OGG_MAX_BITRATE_PER_CHANNEL = 256_000;

/**
 * Whether `seconds` can be an Ogg stream's length: no page held says more (granules only grow, at
 * `rate` a second), and its bytes cannot hold more at the codec's highest bit rate.
 */
export function oggLengthPlausible(blocks: Blocks, size: number, seconds: number, rate: number, channels: number | undefined): boolean {
  for (const block of blocks) {
    const bytes = view(block.bytes);
    for (let at = bytes.indexOf('OggS'); at >= 0; at = bytes.indexOf('OggS', at + 4)) {
      const page = oggPageAt(bytes, at);
      if (page && page.granule > 0n && Number(page.granule) / rate > seconds + 1) return false;
    }
  }
  return (size * 8) / (OGG_MAX_BITRATE_PER_CHANNEL * Math.max(1, channels ?? 2)) <= seconds * 1.02 + 1;
}

/** Samples at 48 kHz of an Opus packet, from its table-of-contents byte (RFC 6716 §3.1). */
function opusPacketSamples(packet: Buffer): number {
  if (packet.length === 0) return 0;
  const config = packet[0]! >> 3;
  const frame = config < 12 ? [480, 960, 1920, 2880][config & 3]! : config < 16 ? [480, 960][config & 1]! : [120, 240, 480, 960][config & 3]!;
  const code = packet[0]! & 3;
  const frames = code === 0 ? 1 : code < 3 ? 2 : packet.length > 1 ? packet[1]! & 0x3f : 0;
  return frame * frames;
}

/**
 * Counts a streamed Ogg file's pages as they pass: its first stream's highest granule, and for
 * Opus every packet's samples (what a decoder plays, whatever the granules say). `seconds` needs
 * the codec's rate (Opus: 48 kHz, less its pre-skip).
 */
export class OggPageCount {
  granule = 0n;
  opusSamples = 0;
  opusPreSkip = 0;
  private serial: number | undefined;
  private opus = false;
  private packet: Buffer[] = [];
  private carry = Buffer.alloc(0);

  push(chunk: Uint8Array): void {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : view(chunk);
    let at = 0;
    while (at + 27 <= bytes.length) {
      const page = oggPageAt(bytes, at);
      if (!page) {
        if (bytes.toString('latin1', at, at + 4) === 'OggS' && at + 27 + bytes[at + 26]! > bytes.length) break; // its segment table is still to come
        // No page starts here (a cut, damage): the next one that does.
        const next = bytes.indexOf('OggS', at + 1);
        at = next >= 0 ? next : bytes.length - 3;
        continue;
      }
      if (at + page.length > bytes.length) break; // the rest of it is still to come
      if (this.serial === undefined) this.serial = page.serial;
      if (page.serial === this.serial) this.read(bytes, page);
      at += page.length;
    }
    this.carry = Buffer.from(bytes.subarray(at));
  }

  seconds(rate: number | undefined): number | undefined {
    const byGranule = this.opus ? (Number(this.granule) - this.opusPreSkip) / 48_000 : rate ? Number(this.granule) / rate : undefined;
    const byPackets = this.opus ? (this.opusSamples - this.opusPreSkip) / 48_000 : undefined;
    const known = [byGranule, byPackets].filter((s): s is number => s !== undefined && Number.isFinite(s) && s > 0);
    return known.length ? Math.max(...known) : undefined;
  }

  private read(bytes: Buffer, page: OggPage): void {
    if (page.granule > this.granule) this.granule = page.granule;
    if (!page.continued) this.packet = [];
    let at = page.at + 27 + page.segments.length;
    for (const segment of page.segments) {
      this.packet.push(bytes.subarray(at, at + segment));
      at += segment;
      if (segment < 255) this.packetEnds(Buffer.concat(this.packet));
      if (segment < 255) this.packet = [];
    }
  }

  private packetEnds(packet: Buffer): void {
    if (packet.toString('latin1', 0, 8) === 'OpusHead') {
      this.opus = true;
      this.opusPreSkip = packet.length >= 12 ? packet.readUInt16LE(10) : 0;
    } else if (this.opus && packet.toString('latin1', 0, 8) !== 'OpusTags') this.opusSamples += opusPacketSamples(packet);
  }
}
