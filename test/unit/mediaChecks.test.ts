// The accepted media formats by their bytes, and a container's stated length checked against what
// its data says (issue 41): files built byte by byte, each lie told the way a crafted file tells it.
import { describe, expect, it } from 'vitest';
import { ALL_MEDIA_FORMATS, mediaFormatOf, workedMediaFormats } from '../../src/documents/mediaFormats.js';
import { aiffDataSeconds, checkedSeconds, heldMovieIndex, MovieIndexWatch, movieIndexSeconds, waveDataSeconds } from '../../src/documents/mediaChecks.js';
import { MpegFrameCount, mpegFrameAt, mpegLengthPlausible, OggPageCount } from '../../src/documents/frameCounts.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const u32be = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const u32le = (n: number) => Buffer.from([n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24]);
const u16le = (n: number) => Buffer.from([n & 255, n >>> 8]);
const box = (type: string, ...body: Buffer[]) => Buffer.concat([u32be(8 + Buffer.concat(body).length), latin1(type), ...body]);
/** mvhd and mdhd, version 0: flags, creation, modification, time scale, duration. */
const timeHeader = (type: string, scale: number, duration: number) => box(type, Buffer.alloc(12), u32be(scale), u32be(duration), Buffer.alloc(8));
const trackHeader = (duration: number) => box('tkhd', Buffer.alloc(20), u32be(duration), Buffer.alloc(60));
/** stts: one entry of `count` samples of `delta` each. */
const sampleTable = (count: number, delta: number) => box('stts', Buffer.alloc(4), u32be(1), u32be(count), u32be(delta));

/** An M4A of 600 s whose movie, track and media headers say 1 s (divided by 600): only its sample table says 600. */
function lyingMovie(indexAtEnd: boolean): Buffer {
  const moov = box(
    'moov',
    timeHeader('mvhd', 1000, 1000),
    box('trak', trackHeader(1000), box('mdia', timeHeader('mdhd', 44_100, 44_100), box('minf', box('stbl', sampleTable(25_840, 1024))))),
  );
  const ftyp = box('ftyp', latin1('M4A '), u32be(0), latin1('isomM4A '));
  const mdat = box('mdat', Buffer.alloc(5000, 7));
  return Buffer.concat(indexAtEnd ? [ftyp, mdat, moov] : [ftyp, moov, mdat]);
}

function pcmWave(seconds: number, options: { factSamples?: number; dataSize?: number } = {}): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * 2 * seconds);
  const fmt = Buffer.concat([latin1('fmt '), u32le(16), u16le(1), u16le(1), u32le(rate), u32le(rate * 2), u16le(2), u16le(16)]);
  const fact = options.factSamples !== undefined ? Buffer.concat([latin1('fact'), u32le(4), u32le(options.factSamples)]) : Buffer.alloc(0);
  const chunks = Buffer.concat([fmt, fact, latin1('data'), u32le(options.dataSize ?? data.length), data]);
  return Buffer.concat([latin1('RIFF'), u32le(4 + chunks.length), latin1('WAVE'), chunks]);
}

/** An 80-bit extended float of a whole number. */
function extended(n: number): Buffer {
  const out = Buffer.alloc(10);
  const exponent = Math.floor(Math.log2(n));
  out.writeUInt16BE(16383 + exponent, 0);
  out.writeBigUInt64BE(BigInt(n) << BigInt(63 - exponent), 2);
  return out;
}

function aiff(seconds: number, statedFrames: number): Buffer {
  const rate = 8000;
  const comm = Buffer.concat([latin1('COMM'), u32be(18), Buffer.from([0, 1]), u32be(statedFrames), Buffer.from([0, 16]), extended(rate)]);
  const data = Buffer.alloc(rate * 2 * seconds);
  const ssnd = Buffer.concat([latin1('SSND'), u32be(8 + data.length), u32be(0), u32be(0), data]);
  return Buffer.concat([latin1('FORM'), u32be(4 + comm.length + ssnd.length), latin1('AIFF'), comm, ssnd]);
}

/** `count` MPEG-1 layer III frames at 128 kbit/s, 44.1 kHz (417 bytes each: 1152 samples). */
const mp3Frames = (count: number) =>
  Buffer.concat(Array.from({ length: count }, () => Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(413)])));

/** An Ogg page of `packets` (each under 255 bytes), at `granule`. */
function oggPage(sequence: number, granule: bigint, packets: Buffer[], flags = 0): Buffer {
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(77, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = packets.length;
  return Buffer.concat([header, Buffer.from(packets.map((p) => p.length)), ...packets]);
}
const opusHead = Buffer.concat([latin1('OpusHead'), Buffer.from([1, 1]), Buffer.from([0x38, 0x01]), u32le(48_000), Buffer.from([0, 0, 0])]);
/** A CELT packet of one 20 ms frame (configuration 31, code 0). */
const opus20ms = Buffer.concat([Buffer.from([31 << 3]), Buffer.alloc(60, 1)]);

describe('the accepted media formats, by their bytes', () => {
  it.each([
    ['WAV', pcmWave(1).subarray(0, 64), 'wav'],
    ['AIFF', aiff(1, 8000).subarray(0, 64), 'aiff'],
    ['AIFF-C', Buffer.concat([latin1('FORM'), u32be(100), latin1('AIFC')]), 'aiff'],
    ['MP3 frames', mp3Frames(2), 'mp3'],
    ['MP3 with an ID3 tag', Buffer.concat([latin1('ID3\x04\x00\x00'), Buffer.from([0, 0, 0, 10]), Buffer.alloc(10), mp3Frames(1)]), 'mp3'],
    ['ADTS AAC', Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]), 'aac'],
    ['FLAC with an ID3 tag', Buffer.concat([latin1('ID3\x03\x00\x00'), Buffer.from([0, 0, 0, 0]), latin1('fLaC')]), 'flac'],
    ['Ogg Opus', oggPage(0, 0n, [opusHead]), 'ogg'],
    ['Ogg Speex', oggPage(0, 0n, [latin1('Speex   1.2')]), 'speex'],
    ['ASF (WMA, WMV)', Buffer.from([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c]), 'asf'],
    ['WavPack', latin1('wvpk\x00\x00\x00\x00'), 'wavpack'],
    ['M4A', lyingMovie(false).subarray(0, 32), 'm4a'],
    ['QuickTime', Buffer.concat([u32be(20), latin1('ftypqt  ')]), 'mov'],
  ])('%s is accepted', (_name, head, format) => {
    expect(mediaFormatOf(head)).toBe(format);
    expect(ALL_MEDIA_FORMATS.has(format as never)).toBe(true);
  });

  it.each([
    ['AVI', Buffer.concat([latin1('RIFF'), u32le(100), latin1('AVI LIST')])],
    ['3GPP', Buffer.concat([u32be(20), latin1('ftyp3gp4')])],
    ['an HEIC photo', Buffer.concat([u32be(20), latin1('ftypheic')])],
    ['an HLS playlist', latin1('#EXTM3U\n#EXT-X-VERSION:3\n')],
    ['an ffconcat list', latin1('ffconcat version 1.0\nfile /etc/passwd\n')],
    ['a page', latin1('<!doctype html><script>alert(1)</script>')],
    ['an Ogg stream of video alone', oggPage(0, 0n, [latin1('\x80theora')])],
  ])('%s is refused', (_name, head) => {
    expect(mediaFormatOf(head)).toBeUndefined();
  });

  it('works without ffmpeg only what is kept as it is', () => {
    expect([...workedMediaFormats(false)].sort()).toEqual(['flac', 'm4a', 'mp3', 'ogg', 'wav']);
    expect(workedMediaFormats(true)).toBe(ALL_MEDIA_FORMATS);
  });
});

describe("an MP4's index against its headers", () => {
  it('prices the sample table where the movie, track and media headers understate it', () => {
    const moov = heldMovieIndex([{ at: 0, bytes: lyingMovie(false) }], lyingMovie(false).length)!;
    expect(movieIndexSeconds(moov)).toBeCloseTo(600, 1);
  });

  it('finds an index written last, by walking the top-level boxes of the blocks held (the media data not read)', () => {
    const file = lyingMovie(true);
    const moovAt = file.lastIndexOf('moov') - 4;
    const blocks = [
      { at: 0, bytes: file.subarray(0, file.indexOf('mdat') + 4) }, // the media data's header, as a parser reads it
      { at: moovAt, bytes: file.subarray(moovAt) },
    ];
    expect(movieIndexSeconds(heldMovieIndex(blocks, file.length)!)).toBeCloseTo(600, 1);
    expect(checkedSeconds({ container: 'M4A/isom', seconds: 1 }, blocks, file.length)).toBeCloseTo(600, 1);
    // Without the index held, nothing is known beyond the statement.
    expect(heldMovieIndex([blocks[0]!], file.length)).toBeUndefined();
  });

  it('watches a streamed file for its index, in chunks of any size, before or after the media data', () => {
    for (const indexAtEnd of [false, true]) {
      const file = lyingMovie(indexAtEnd);
      for (const size of [1, 7, 4096]) {
        const watch = new MovieIndexWatch();
        for (let at = 0; at < file.length; at += size) watch.push(file.subarray(at, at + size));
        expect(watch.done).toBe(true);
        expect(watch.seconds).toBeCloseTo(600, 1);
      }
    }
  });
});

describe("a WAV's and an AIFF's sound data against their counts", () => {
  it("prices a PCM WAV by its data, not a lying `fact` count; a size written while recording runs to the file's end", () => {
    const lying = pcmWave(10, { factSamples: 8000 });
    expect(waveDataSeconds(lying, lying.length)).toBe(10);
    expect(checkedSeconds({ container: 'WAVE', seconds: 1 }, [{ at: 0, bytes: lying }], lying.length)).toBe(10);
    for (const dataSize of [0, 0xffffffff]) {
      const recording = pcmWave(10, { dataSize });
      expect(waveDataSeconds(recording, recording.length)).toBe(10);
    }
    // A data size shorter than the file is what decoders play: that stands.
    const short = pcmWave(10, { dataSize: 16_000 });
    expect(waveDataSeconds(short, short.length)).toBe(1);
  });

  it('prices an AIFF by its SSND data, not a lying COMM frame count', () => {
    const lying = aiff(10, 8000);
    expect(aiffDataSeconds(lying, lying.length)).toBe(10);
    expect(checkedSeconds({ container: 'AIFF', seconds: 1 }, [{ at: 0, bytes: lying }], lying.length)).toBe(10);
  });
});

describe("an MP3's frames", () => {
  it('reads a frame header: length, samples, rate, and the highest bit rate of its layer', () => {
    expect(mpegFrameAt(mp3Frames(1), 0)).toEqual({ length: 417, samples: 1152, rate: 44_100, maxBitrate: 320_000 });
    expect(mpegFrameAt(Buffer.from([0xff, 0xfb, 0xf0, 0x00]), 0)).toBeUndefined(); // bit rate index 15
  });

  it('finds a stated length impossible when the bytes could not be played in it at the highest bit rate', () => {
    const head = mp3Frames(10);
    expect(mpegLengthPlausible(head, 10_000_000, 1)).toBe(false);
    expect(mpegLengthPlausible(head, 10_000_000, 625)).toBe(true);
    expect(checkedSeconds({ container: 'MPEG', seconds: 1 }, [{ at: 0, bytes: head }], 10_000_000)).toBeUndefined();
  });

  it('counts the frames of a streamed file, across chunks, after an ID3 tag and through damage', () => {
    const tag = Buffer.concat([latin1('ID3\x04\x00\x00'), Buffer.from([0, 0, 1, 0]), Buffer.alloc(128, 0xff)]);
    const file = Buffer.concat([tag, mp3Frames(500), Buffer.alloc(100), mp3Frames(500), latin1('TAG'), Buffer.alloc(125)]);
    const count = new MpegFrameCount();
    for (let at = 0; at < file.length; at += 333) count.push(file.subarray(at, at + 333));
    expect(count.seconds).toBeCloseTo((1000 * 1152) / 44_100, 3);
  });
});

describe("an Ogg stream's pages", () => {
  it('counts what an Opus stream plays, whatever its last granule says', () => {
    const pages = [oggPage(0, 0n, [opusHead], 2), oggPage(1, 0n, [latin1('OpusTags\x00\x00\x00\x00')])];
    for (let i = 0; i < 100; i++)
      pages.push(
        oggPage(
          2 + i,
          BigInt(312 + (i + 1) * 50 * 960),
          Array.from({ length: 50 }, () => opus20ms),
        ),
      );
    // The last page claims one second.
    pages.push(oggPage(102, 48_000n + 312n, [opus20ms], 4));
    const file = Buffer.concat(pages);
    const count = new OggPageCount();
    for (let at = 0; at < file.length; at += 1000) count.push(file.subarray(at, at + 1000));
    expect(count.seconds(48_000)).toBeCloseTo(100.0135, 3);
    // By ranges, the pages held (granules only grow) show the last one's claim impossible.
    const stated = { container: 'Ogg', codec: 'Opus', channels: 1, seconds: 1 };
    expect(checkedSeconds(stated, [{ at: 0, bytes: file }], file.length)).toBeUndefined();
    expect(checkedSeconds({ ...stated, seconds: 100.02 }, [{ at: 0, bytes: file }], file.length)).toBe(100.02);
  });
});
