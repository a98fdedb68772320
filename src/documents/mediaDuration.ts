// Durations a media file's index states where the parser (music-metadata) leaves them out when it
// reads by ranges: an Ogg stream's last granule position (in its tail), a QuickTime movie header
// (mvhd). Pure: they read the bytes they are given.

/**
 * Whether a duration the parser states on the way is the file's (a header's or an index's), so
 * reading may stop there: not for ADTS AAC, whose parser counts frames as it goes.
 */
export const statesDuration = (container: string | undefined): boolean => container !== undefined && !container.startsWith('ADTS');

/** The blocks of a file read so far, each at its offset. */
export type Blocks = ReadonlyArray<{ at: number; bytes: Uint8Array }>;

/** Blocks of a file, kept merged where they touch. */
export class BlockList {
  constructor(private readonly blocks: Array<{ at: number; bytes: Uint8Array }> = []) {}

  get all(): ReadonlyArray<{ at: number; bytes: Uint8Array }> {
    return this.blocks;
  }

  /** The one block holding [start, end), if any. */
  covering(start: number, end: number) {
    return this.blocks.find((b) => b.at <= start && b.at + b.bytes.length >= end);
  }

  /** Where the held bytes from `start` on end (`start` itself when it is not held). */
  heldUpTo(start: number): number {
    const block = this.blocks.find((b) => b.at <= start && start < b.at + b.bytes.length);
    return block ? block.at + block.bytes.length : start;
  }

  endsAt(offset: number): boolean {
    return this.blocks.some((b) => b.at + b.bytes.length === offset);
  }

  nextStart(offset: number): number | undefined {
    const later = this.blocks.filter((b) => b.at > offset).map((b) => b.at);
    return later.length ? Math.min(...later) : undefined;
  }

  add(block: { at: number; bytes: Uint8Array }): void {
    let merged = block;
    for (const other of [...this.blocks]) {
      const [first, second] = other.at <= merged.at ? [other, merged] : [merged, other];
      const firstEnd = first.at + first.bytes.length;
      if (second.at > firstEnd) continue;
      const tail = second.bytes.subarray(Math.min(second.bytes.length, firstEnd - second.at));
      merged = { at: first.at, bytes: Buffer.concat([first.bytes, tail]) };
      this.blocks.splice(this.blocks.indexOf(other), 1);
    }
    this.blocks.push(merged);
  }
}

const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length);

/**
 * Seconds of an Ogg file from its last page's granule position (Opus counts 48 kHz samples after
 * its pre-skip, others their sample rate), read from the blocks that hold the file's tail.
 */
export function oggDuration(blocks: Blocks, size: number, codec: string | undefined, sampleRate: number | undefined): number | undefined {
  const tail = blocks.find((b) => b.at + b.bytes.length === size);
  if (!tail) return undefined;
  const bytes = view(tail.bytes);
  for (let at = bytes.lastIndexOf('OggS'); at >= 0; at = at > 0 ? bytes.lastIndexOf('OggS', at - 1) : -1) {
    if (at + 27 > bytes.length || bytes[at + 4] !== 0) continue; // a page header: version 0
    const granule = bytes.readBigInt64LE(at + 6);
    if (granule <= 0n) continue;
    if (codec === 'Opus') return (Number(granule) - opusPreSkip(blocks)) / 48_000;
    return sampleRate ? Number(granule) / sampleRate : undefined;
  }
  return undefined;
}

/** The Opus header's pre-skip (samples decoded and dropped at the start), from the head block. */
function opusPreSkip(blocks: Blocks): number {
  const head = blocks.find((b) => b.at === 0);
  if (!head) return 0;
  const bytes = view(head.bytes);
  const at = bytes.indexOf('OpusHead');
  return at >= 0 && at + 12 <= bytes.length ? bytes.readUInt16LE(at + 10) : 0;
}

/** Seconds of an MP4/QuickTime movie from its movie header (`mvhd`: time scale and duration), in the blocks read. */
export function movieHeaderDuration(blocks: Blocks): number | undefined {
  for (const block of blocks) {
    const bytes = view(block.bytes);
    for (let at = bytes.indexOf('mvhd'); at >= 0; at = bytes.indexOf('mvhd', at + 4)) {
      const version = bytes[at + 4];
      const fields = at + 8; // after the type, the version and the flags
      if (version === 0 && fields + 16 <= bytes.length) {
        const [scale, duration] = [bytes.readUInt32BE(fields + 8), bytes.readUInt32BE(fields + 12)];
        if (scale > 0 && duration > 0) return duration / scale;
      }
      if (version === 1 && fields + 28 <= bytes.length) {
        const [scale, duration] = [bytes.readUInt32BE(fields + 16), Number(bytes.readBigUInt64BE(fields + 20))];
        if (scale > 0 && duration > 0) return duration / scale;
      }
    }
  }
  return undefined;
}

/**
 * The length of an MP4 box whose 8-byte header was just read, when it is the index (`moov`): the
 * reader fetches all of it at once rather than box by box.
 */
export function indexBoxLength(header: Uint8Array): number | undefined {
  if (header.length < 8 || view(header).toString('latin1', 4, 8) !== 'moov') return undefined;
  const length = view(header).readUInt32BE(0);
  return length > 8 ? length : undefined;
}
