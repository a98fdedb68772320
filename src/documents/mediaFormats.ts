// The audio and video formats the service accepts, by their bytes: the one list that the media
// probe prices (anything else is refused with a 400 before a charge), that the order's kept copy is
// checked against, and that the workbench's player is served from. Each is worked: kept as it is
// where browsers and the engines take it, else reduced by ffmpeg to its audio (Ogg Opus), as a
// video's is (src/engines/audioRendition.ts). Pure: it reads the bytes it is given.

export interface MediaFormat {
  /** The format's name in refusals and logs, and the file extension of a copy kept as it is. */
  name: string;
  ext: string;
  /** The Content-Type a copy kept as it is is served as. */
  type: string;
  /**
   * `as-is`: the player and the engines take the file itself; `audio`: only its audio, rendered by
   * ffmpeg (a video, or a container a browser does not play).
   */
  kept: 'as-is' | 'audio';
  /** ffmpeg's demuxer for it, named rather than guessed (a file's content never picks HLS or concat). */
  demuxer: string;
}

const F = (name: string, ext: string, type: string, kept: MediaFormat['kept'], demuxer: string): MediaFormat => ({ name, ext, type, kept, demuxer });

/** Every accepted format, as the probe's refusals list them (`mediaFormats.test.ts` places a live order of each). */
export const MEDIA_FORMATS = {
  wav: F('WAV', 'wav', 'audio/wav', 'as-is', 'wav'),
  aiff: F('AIFF', 'aiff', 'audio/aiff', 'audio', 'aiff'),
  mp3: F('MP3', 'mp3', 'audio/mpeg', 'as-is', 'mp3'),
  aac: F('AAC (ADTS)', 'aac', 'audio/aac', 'audio', 'aac'),
  ogg: F('Ogg (Opus, Vorbis, FLAC)', 'ogg', 'audio/ogg', 'as-is', 'ogg'),
  speex: F('Ogg Speex', 'ogg', 'audio/ogg', 'audio', 'ogg'),
  flac: F('FLAC', 'flac', 'audio/flac', 'as-is', 'flac'),
  m4a: F('M4A', 'm4a', 'audio/mp4', 'as-is', 'mov'),
  mp4: F('MP4', 'mp4', 'video/mp4', 'audio', 'mov'),
  mov: F('QuickTime', 'mov', 'video/quicktime', 'audio', 'mov'),
  webm: F('WebM', 'webm', 'video/webm', 'audio', 'matroska'),
  mkv: F('Matroska', 'mkv', 'video/x-matroska', 'audio', 'matroska'),
  asf: F('WMA/WMV (ASF)', 'wma', 'audio/x-ms-wma', 'audio', 'asf'),
  wavpack: F('WavPack', 'wv', 'audio/x-wavpack', 'audio', 'wv'),
} satisfies Record<string, MediaFormat>;

export type MediaFormatKey = keyof typeof MEDIA_FORMATS;

export const ALL_MEDIA_FORMATS: ReadonlySet<MediaFormatKey> = new Set(Object.keys(MEDIA_FORMATS) as MediaFormatKey[]);

/** The formats a service works: without ffmpeg, only those kept as they are (nothing renders the others). */
export const workedMediaFormats = (renders: boolean): ReadonlySet<MediaFormatKey> =>
  renders ? ALL_MEDIA_FORMATS : new Set([...ALL_MEDIA_FORMATS].filter((key) => MEDIA_FORMATS[key].kept === 'as-is'));

/** The formats' names, for a refusal. */
export const namesOf = (formats: ReadonlySet<MediaFormatKey>): string => [...formats].map((key) => MEDIA_FORMATS[key].name).join(', ');

const ascii = (b: Uint8Array, at: number, text: string) => b.length >= at + text.length && [...text].every((c, i) => b[at + i] === c.charCodeAt(0));
const latin1 = (b: Uint8Array, from: number, to: number) => Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1', from, Math.min(to, b.length));
const ASF_GUID = [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c];

/** An ID3v2 tag's length (header included), from its syncsafe size; 0 where none starts at `at`. */
function id3Length(b: Uint8Array, at: number): number {
  if (!ascii(b, at, 'ID3') || b.length < at + 10) return 0;
  const size = ((b[at + 6]! & 0x7f) << 21) | ((b[at + 7]! & 0x7f) << 14) | ((b[at + 8]! & 0x7f) << 7) | (b[at + 9]! & 0x7f);
  return 10 + size + (b[at + 5]! & 0x10 ? 10 : 0);
}

/** An MPEG audio frame (layers I–III) or an ADTS AAC frame at `at`: both start with 11 sync bits; ADTS has layer 0. */
function frameAt(b: Uint8Array, at: number): 'mp3' | 'aac' | undefined {
  if (b.length < at + 4 || b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return undefined;
  const layer = (b[at + 1]! >> 1) & 3;
  if (layer === 0) return (b[at + 1]! & 0xf6) === 0xf0 ? 'aac' : undefined;
  const [bitrate, sampleRate] = [b[at + 2]! >> 4, (b[at + 2]! >> 2) & 3];
  return bitrate !== 0xf && sampleRate !== 3 ? 'mp3' : undefined;
}

/** An Ogg stream's format, by the codec of its first packet. */
function oggFormat(b: Uint8Array): MediaFormatKey | undefined {
  if (b.length < 28) return undefined;
  const packet = 27 + b[26]!; // after the page header and its segment table
  if (ascii(b, packet, 'OpusHead') || ascii(b, packet, '\x01vorbis') || ascii(b, packet, '\x7FFLAC')) return 'ogg';
  if (ascii(b, packet, 'Speex   ')) return 'speex';
  return undefined;
}

/** The accepted format a file is, by its first bytes (4 KiB are enough, but an ID3 tag longer than them); undefined: not accepted. */
export function mediaFormatOf(b: Uint8Array): MediaFormatKey | undefined {
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return 'wav';
  if (ascii(b, 0, 'FORM') && (ascii(b, 8, 'AIFF') || ascii(b, 8, 'AIFC'))) return 'aiff';
  if (ascii(b, 0, 'OggS')) return oggFormat(b);
  if (ascii(b, 0, 'fLaC')) return 'flac';
  if (ascii(b, 0, 'wvpk')) return 'wavpack';
  if (ascii(b, 0, '\x1A\x45\xDF\xA3')) return latin1(b, 0, 64).includes('webm') ? 'webm' : 'mkv';
  if (ASF_GUID.every((byte, i) => b[i] === byte)) return 'asf';
  if (ascii(b, 4, 'ftyp')) {
    const brand = latin1(b, 8, 12);
    if (/^M4[ABP] /.test(brand)) return 'm4a';
    if (brand === 'qt  ') return 'mov';
    // 3GPP and HEIF/AVIF share the ISO container; the parser reads neither as media.
    return /^(3g|heic|heix|mif1|msf1|avif)/.test(brand) ? undefined : 'mp4';
  }
  // An ID3v2 tag, then what it tags (FLAC and ADTS AAC may carry one too).
  const tagged = id3Length(b, 0);
  if (tagged) {
    if (ascii(b, tagged, 'fLaC')) return 'flac';
    return frameAt(b, tagged) ?? 'mp3'; // the frame lies past what was read (a long tag): MPEG audio, as ID3 usually tags
  }
  return frameAt(b, 0);
}
