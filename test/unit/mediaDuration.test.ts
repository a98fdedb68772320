import { describe, expect, it } from 'vitest';
import { BlockList, indexBoxLength, movieHeaderDuration, oggDuration, statesDuration } from '../../src/documents/mediaDuration.js';

function mvhd(version: 0 | 1, scale: number, duration: number): Buffer {
  const body = Buffer.alloc(version === 0 ? 4 + 16 : 4 + 28);
  body[0] = version;
  if (version === 0) {
    body.writeUInt32BE(scale, 12);
    body.writeUInt32BE(duration, 16);
  } else {
    body.writeUInt32BE(scale, 20);
    body.writeBigUInt64BE(BigInt(duration), 24);
  }
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write('mvhd', 4, 'latin1');
  return Buffer.concat([header, body]);
}
function oggPage(granule: bigint): Buffer {
  const page = Buffer.alloc(27);
  page.write('OggS', 0, 'latin1');
  page.writeBigInt64LE(granule, 6);
  return page;
}

describe('BlockList', () => {
  it('merges blocks that touch or overlap, and finds the one holding a range', () => {
    const blocks = new BlockList([{ at: 0, bytes: Buffer.alloc(10, 1) }]);
    blocks.add({ at: 20, bytes: Buffer.alloc(10, 3) });
    expect(blocks.covering(5, 25)).toBeUndefined();
    blocks.add({ at: 8, bytes: Buffer.alloc(12, 2) });
    expect(blocks.all).toHaveLength(1);
    const [whole] = blocks.all;
    expect(whole!.at).toBe(0);
    expect([...whole!.bytes]).toEqual([...Buffer.alloc(10, 1), ...Buffer.alloc(10, 2), ...Buffer.alloc(10, 3)]);
    expect(blocks.covering(5, 25)).toBe(whole);
    expect(blocks.heldUpTo(4)).toBe(30);
    expect(blocks.heldUpTo(40)).toBe(40);
  });
});

describe('durations an index states', () => {
  it('reads an MP4 or QuickTime movie header, version 0 and 1, wherever it sits in the blocks', () => {
    expect(movieHeaderDuration([{ at: 1000, bytes: Buffer.concat([Buffer.alloc(37), mvhd(0, 600, 36_000)]) }])).toBe(60);
    expect(movieHeaderDuration([{ at: 0, bytes: mvhd(1, 1000, 3_600_500) }])).toBe(3600.5);
    expect(movieHeaderDuration([{ at: 0, bytes: Buffer.from('no header here') }])).toBeUndefined();
  });

  it("takes an Ogg stream's length from its last page: Opus at 48 kHz less its pre-skip, others at their rate", () => {
    const opusHead = Buffer.concat([Buffer.from('OpusHead\x01\x01', 'latin1'), Buffer.from([0x38, 0x01])]); // pre-skip 312
    const blocks = [
      { at: 0, bytes: opusHead },
      { at: 5000, bytes: Buffer.concat([oggPage(1000n), Buffer.alloc(50), oggPage(48_000n * 60n + 312n), Buffer.alloc(10)]) },
    ];
    const size = 5000 + blocks[1]!.bytes.length;
    expect(oggDuration(blocks, size, 'Opus', 16_000)).toBe(60);
    expect(oggDuration([{ at: 0, bytes: oggPage(44_100n * 30n) }], 27, 'Vorbis I', 44_100)).toBe(30);
    // Without the tail, no guess.
    expect(oggDuration(blocks, size + 1, 'Opus', 48_000)).toBeUndefined();
  });

  it('asks for an MP4 index whole when its header is read', () => {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(2_000_000, 0);
    header.write('moov', 4, 'latin1');
    expect(indexBoxLength(header)).toBe(2_000_000);
    header.write('mdat', 4, 'latin1');
    expect(indexBoxLength(header)).toBeUndefined();
  });

  it('trusts a duration stated on the way except from ADTS, whose parser counts frames as it goes', () => {
    expect(statesDuration('EBML/webm')).toBe(true);
    expect(statesDuration('ADTS/MPEG-4')).toBe(false);
    expect(statesDuration(undefined)).toBe(false);
  });
});
