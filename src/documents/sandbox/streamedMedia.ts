// In the child: a media file's duration as it streams in (a server that ignores ranges, or a file
// read whole). Beside the parser, the file is watched as it passes: its head, an MP4's index
// (whole), and, when the whole file is scanned, an MP3's frames and an Ogg stream's pages, so that
// a stated duration is checked against what the data says (mediaChecks.ts) and, where the data
// makes it impossible, counted instead.
import type { PassThrough } from 'node:stream';
import { checkedSeconds, isMovie, MovieIndexWatch, noteFormat, type Stated } from '../mediaChecks.js';
import { MpegFrameCount, OggPageCount } from '../frameCounts.js';
import { statesDuration } from '../mediaDuration.js';
import { NotMediaError, STATED_IN_HEADER, type MediaFormat, type MediaInput } from './protocol.js';

/** The head kept for the checks: a WAV's or an AIFF's chunks, an MP3's first frame, an Ogg's first pages. */
const HEAD_BYTES = 64 * 1024;

/** What passes of one streamed file. */
export class StreamWatch {
  private head: Buffer[] = [];
  seen = 0;
  readonly index = new MovieIndexWatch();
  private readonly frames?: MpegFrameCount;
  private readonly pages?: OggPageCount;
  /** Called on every chunk (the index may complete with it). */
  onChunk?: () => void;

  constructor(scanWholeFile: boolean) {
    if (scanWholeFile) [this.frames, this.pages] = [new MpegFrameCount(), new OggPageCount()];
  }

  push(chunk: Uint8Array): void {
    if (this.seen < HEAD_BYTES) this.head.push(Buffer.from(chunk.subarray(0, HEAD_BYTES - this.seen)));
    this.seen += chunk.length;
    if (!this.index.done) this.index.push(chunk);
    this.frames?.push(chunk);
    this.pages?.push(chunk);
    this.onChunk?.();
  }

  get blocks() {
    return [{ at: 0, bytes: Buffer.concat(this.head) }];
  }

  /** What the frames or pages counted say, for a file scanned whole. */
  counted({ container, codec, sampleRate }: Stated): number | undefined {
    if (container === 'MPEG') return this.frames?.seconds || undefined;
    if (container === 'Ogg') return this.pages?.seconds(codec === 'Opus' ? 48_000 : sampleRate);
    return undefined;
  }
}

/**
 * The duration of a media stream. Without `scanWholeFile`, the answer comes as soon as it is
 * known (a header's statement, checked; an MP4's once its index has passed), through `answer`,
 * as STATED_IN_HEADER: the rest of the file is not needed. A statement the data makes impossible
 * is answered with no duration: the file is then scanned whole.
 */
export async function streamedMediaDuration(
  input: PassThrough,
  watch: StreamWatch,
  { mimeType, size, scanWholeFile }: MediaInput,
  answer: (format: MediaFormat) => void,
): Promise<MediaFormat | undefined> {
  const { parseStream } = await import('music-metadata');
  const seen: Stated = {};
  let answered = false;
  const tryAnswer = () => {
    if (answered || scanWholeFile || seen.seconds === undefined || !statesDuration(seen.container)) return;
    if (isMovie(seen.container) && !watch.index.done) return; // its index is still to pass
    answered = true;
    answer({ container: STATED_IN_HEADER, duration: checkedSeconds(seen, watch.blocks, size, watch.index.seconds) });
    input.destroy();
  };
  watch.onChunk = tryAnswer;
  const observer = ({ tag }: { tag: { type: string; id: string; value: unknown } }) => {
    if (tag.type !== 'format') return;
    noteFormat(seen, tag);
    tryAnswer();
  };
  try {
    const { format } = await parseStream(input, { mimeType, size }, { duration: scanWholeFile, skipCovers: true, observer: observer as never });
    if (answered) return undefined;
    const read: Stated = { container: format.container, codec: format.codec, sampleRate: format.sampleRate, channels: format.numberOfChannels };
    const counted = watch.counted(read);
    read.seconds = Math.max(format.duration ?? 0, counted ?? 0, watch.index.seconds ?? 0) || undefined;
    // Read whole, the file's size is what passed.
    return { container: format.container, duration: checkedSeconds(read, watch.blocks, scanWholeFile ? watch.seen : size, watch.index.seconds) };
  } catch {
    if (answered) return undefined;
    throw new NotMediaError('the file is not a recognised audio or video file');
  }
}
