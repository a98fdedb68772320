// A message channel between the service and a child the spawner started (the file readers of
// src/documents/sandbox/): Node's own IPC channel exists only between a parent and the child it
// forked, and the readers' parent is now the spawner. The service listens on one abstract Unix
// socket (Linux: a name, no file); a child connects with the one-time token it was started with
// (its argv), and from then on each side sends values framed as Node's 'advanced' IPC does: a
// 4-byte length, then v8.serialize.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { deserialize, serialize } from 'node:v8';

/** Frames above this are a broken or hostile peer, not a message. */
const MAX_FRAME = 2 ** 31 - 1;

/** Events: 'message' (value), 'close'. */
export class FramedChannel extends EventEmitter {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private closed = false;
  /**
   * Messages that came while nobody listened: a read late under load holds a child's token and its
   * "ready" together, and the channel's owner listens only a turn after the token was taken.
   */
  private held: unknown[] = [];

  constructor(private readonly socket: Socket) {
    super();
    this.on('newListener', (event) => {
      if (event === 'message' && this.held.length) queueMicrotask(() => this.release());
    });
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.closed = true;
      this.emit('close');
    });
  }

  /** Sends `value`; `done` once the bytes are handed to the kernel (or the channel has closed). */
  send(value: unknown, done?: (err?: Error | null) => void): void {
    if (this.closed) return void done?.(new Error('the channel is closed'));
    const body = serialize(value);
    const head = Buffer.allocUnsafe(4);
    head.writeUInt32BE(body.length);
    // One write of both, without copying the body (a media file's chunks pass here).
    this.socket.cork();
    this.socket.write(head);
    this.socket.write(body, done);
    this.socket.uncork();
  }

  /** Closes the channel (the child then exits). */
  close(): void {
    this.socket.destroy();
  }

  ref(): void {
    this.socket.ref();
  }

  unref(): void {
    this.socket.unref();
  }

  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 4) {
      const head = this.chunks[0]!.length >= 4 ? this.chunks[0]! : this.flatten();
      const size = head.readUInt32BE(0);
      if (size > MAX_FRAME) return this.close();
      if (this.buffered < 4 + size) return;
      const all = this.flatten();
      const frame = all.subarray(4, 4 + size);
      const rest = all.subarray(4 + size);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
      let value: unknown;
      try {
        value = deserialize(frame);
      } catch {
        return this.close();
      }
      this.deliver(value);
    }
  }

  private deliver(value: unknown): void {
    if (this.held.length || this.listenerCount('message') === 0) this.held.push(value);
    else this.emit('message', value);
  }

  private release(): void {
    while (this.held.length && this.listenerCount('message') > 0) this.emit('message', this.held.shift());
  }

  private flatten(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!;
  }
}

/** Where children connect: one per service process, listening from its first use. */
class ChannelServer {
  /** The socket's name (its address is a NUL, then the name: argv cannot carry the NUL). */
  readonly name = `order-service-${process.pid}-${randomBytes(8).toString('hex')}`;
  private readonly server: Server;
  private readonly expected = new Map<string, (channel: FramedChannel) => void>();
  readonly listening: Promise<void>;

  constructor() {
    this.server = createServer((socket) => {
      // The first frame is the token; a peer that sends another or none is closed.
      const channel = new FramedChannel(socket);
      const timer = setTimeout(() => channel.close(), 10_000);
      channel.once('message', (token: unknown) => {
        clearTimeout(timer);
        const accept = typeof token === 'string' ? this.expected.get(token) : undefined;
        if (!accept) return channel.close();
        this.expected.delete(token as string);
        accept(channel);
      });
    });
    this.server.unref();
    this.listening = new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(`\0${this.name}`, () => resolve());
    });
  }

  /** A token for one child, and its channel once that child connects with it. */
  expect(): { token: string; connected: Promise<FramedChannel>; cancel(): void } {
    const token = randomBytes(18).toString('base64url');
    let cancel: () => void = () => undefined;
    const connected = new Promise<FramedChannel>((resolve, reject) => {
      this.expected.set(token, resolve);
      cancel = () => {
        if (this.expected.delete(token)) reject(new Error('the child did not connect'));
      };
    });
    connected.catch(() => undefined); // a caller that cancels is not waiting on it
    return { token, connected, cancel };
  }
}

let server: ChannelServer | undefined;

/** The service's channel server (started on first use). */
export async function channelServer(): Promise<ChannelServer> {
  server ??= new ChannelServer();
  await server.listening;
  return server;
}

/** In a child: the channel to the service's socket `name` (argv), announced with `token`. */
export function connectToParent(name: string, token: string): Promise<FramedChannel> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(`\0${name}`);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      const channel = new FramedChannel(socket);
      channel.send(token);
      resolve(channel);
    });
  });
}
