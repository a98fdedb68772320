// In the child: a media file's duration read by ranges. music-metadata parses through a Blob-like
// file whose parts are asked of the parent (JobRead), which fetches them through the guarded
// client as it decides (src/net/probe.ts); the child keeps each block it gets, so the parser's
// many small reads cost one request each only where nothing holds them yet.
import { checkedSeconds, isMovie, noteFormat, type Stated } from '../mediaChecks.js';
import { BlockList, indexBoxLength, movieHeaderDuration, oggDuration, statesDuration } from '../mediaDuration.js';
import { NotMediaError, type JobBlock, type JobRead, type MediaFormat, type RangedMediaInput } from './protocol.js';

/** The ID3v1 tag and an APE footer sit in the last 160 bytes. */
const TRAILING_TAG_BYTES = 160;

export class RemoteFile {
  readonly blocks = new BlockList();
  /** Set once the parser has stated what is needed: further reads fail, and the parse ends. */
  stopped = false;
  /** Set at the parser's first read of the file's start. */
  private parsing = false;
  private readonly waiting = new Map<number, { resolve: (block: JobBlock) => void }>();
  private seq = 0;

  constructor(
    private readonly id: number,
    readonly size: number,
    readonly type: string,
    /** Sends a read to the parent (the child's channel). */
    private readonly askParent: (read: JobRead) => void,
  ) {}

  /** The parent's answer to one of this file's reads. */
  answer(block: JobBlock): void {
    this.waiting.get(block.seq)?.resolve(block);
    this.waiting.delete(block.seq);
  }

  /** What BlobTokenizer calls: a part of the file, whose bytes come when asked for. */
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> } {
    return {
      arrayBuffer: async () => {
        const bytes = await this.bytes(start, Math.min(end, this.size));
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
      },
    };
  }

  private held(start: number, end: number): Uint8Array | undefined {
    const block = this.blocks.covering(start, end);
    return block?.bytes.subarray(start - block.at, end - block.at);
  }

  private async bytes(start: number, end: number): Promise<Uint8Array> {
    if (this.stopped) throw new Error('the duration is known: no more reads');
    // music-metadata looks for trailing tags (ID3v1, APEv2) before it parses anything: a duration
    // never depends on them, so until the parser reads the file's start that look costs no request.
    if (start === 0) this.parsing = true;
    if (!this.parsing && start >= this.size - TRAILING_TAG_BYTES) return new Uint8Array(end - start);
    const found = this.held(start, end) ?? (await this.ask(start, end));
    // An MP4's index read box by box would cost a request per box: it is asked for whole.
    const index = end - start === 8 ? indexBoxLength(found) : undefined;
    if (index !== undefined && !this.held(start, Math.min(start + index, this.size))) await this.ask(start, Math.min(start + index, this.size));
    return found;
  }

  /** The last `length` bytes of the file, fetched if not held (an Ogg stream's last page). */
  tail(length: number): Promise<Uint8Array> {
    const start = Math.max(0, this.size - length);
    return this.held(start, this.size) ? Promise.resolve(this.held(start, this.size)!) : this.ask(start, this.size);
  }

  private async ask(start: number, end: number): Promise<Uint8Array> {
    const seq = ++this.seq;
    const block = await new Promise<JobBlock>((resolve) => {
      this.waiting.set(seq, { resolve });
      this.askParent({ id: this.id, read: { seq, start, end } });
    });
    // The parent keeps why (a server that stopped answering ranges: the file is streamed instead).
    if (block.failed || !block.chunk || block.at === undefined) throw new NotMediaError('the file could not be read by ranges');
    this.blocks.add({ at: block.at, bytes: block.chunk });
    const held = this.held(start, end);
    if (!held) throw new NotMediaError('the parent answered another part of the file');
    return held;
  }
}

/** An Ogg page is at most 64 KiB: the last one starts within this much of the end. */
const OGG_TAIL_BYTES = 65_536 + 282;

/** The container and duration of a media file read by ranges; no duration: the file must be scanned whole. */
export async function rangedMediaDuration(file: RemoteFile, { mimeType }: RangedMediaInput): Promise<MediaFormat> {
  const [{ parseFromTokenizer }, { fromBlob }] = await Promise.all([import('music-metadata'), import('strtok3')]);
  const seen: Stated = {};
  let stated = false;
  // Parsers read on past a stated duration (clusters, tags): once it is stated, reading stops.
  const observer = ({ tag }: { tag: { type: string; id: string; value: unknown } }) => {
    if (tag.type !== 'format') return;
    noteFormat(seen, tag);
    if (tag.id === 'duration' && statesDuration(seen.container) && seen.seconds !== undefined && !stated) {
      stated = true;
      file.stopped = true;
    }
  };
  let format;
  try {
    const tokenizer = fromBlob(file as unknown as Blob, { fileInfo: { size: file.size, ...(mimeType ? { mimeType } : {}) } });
    ({ format } = await parseFromTokenizer(tokenizer, { duration: false, skipCovers: true, observer: observer as never }));
  } catch {
    if (stated) return { container: seen.container, duration: checkedSeconds(seen, file.blocks.all, file.size) };
    throw new NotMediaError('the file is not a recognised audio or video file');
  }
  if (format.duration === undefined && format.container === 'Ogg') {
    file.stopped = false;
    await file.tail(OGG_TAIL_BYTES);
  }
  const blocks = file.blocks.all;
  const seconds =
    format.duration ??
    (format.container === 'Ogg' ? oggDuration(blocks, file.size, format.codec, format.sampleRate) : undefined) ??
    (isMovie(format.container) ? movieHeaderDuration(blocks) : undefined);
  const read = { container: format.container, codec: format.codec, sampleRate: format.sampleRate, channels: format.numberOfChannels, seconds };
  return { container: format.container, duration: checkedSeconds(read, blocks, file.size) };
}
