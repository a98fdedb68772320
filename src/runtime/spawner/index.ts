// The service's side of its spawner (process.ts): `spawnChild` starts a child through it and
// answers a handle that behaves as a ChildProcess does for what the service uses (pid, stdout,
// stderr, kill, 'exit' and 'close'). `startSpawner` at the top of main.ts starts it while the
// service is still small; a spawner that dies takes its children with it (their exits are
// reported as SIGKILL) and the next spawn starts a new one.
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { log } from '../../log.js';
import { compiledScript } from '../compiledScript.js';
import { tiedCommand } from '../tiedChild.js';
import type { SpawnerMessage, SpawnerRequest } from './protocol.js';

/** The spawner ended before the child started (it never ran): spawnChild tries once more on a new spawner. */
export class SpawnerLostError extends Error {}

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  detached?: boolean;
  nice?: number;
  /** Under SCHED_IDLE: work nobody waits on now, on CPU time nothing else wants. */
  idle?: boolean;
  /** 'pipe' (default): stdout and stderr as streams; 'inherit': the service's own. */
  output?: 'pipe' | 'inherit';
}

/** A child started by the spawner. Events: 'exit' (code, signal), then 'close' (code, signal) once its output has ended. */
export class SpawnedChild extends EventEmitter {
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** It went with its spawner (SIGKILL from the kernel), not by its own doing. */
  lostWithSpawner = false;
  private ended = false;
  readonly stdout: PassThrough | null;
  readonly stderr: PassThrough | null;

  constructor(
    readonly pid: number,
    /** The spawner's pid: the child's parent. */
    readonly parentPid: number,
    private readonly request: (message: SpawnerRequest) => void,
    private readonly id: number,
    piped: boolean,
  ) {
    super();
    this.stdout = piped ? new PassThrough() : null;
    this.stderr = piped ? new PassThrough() : null;
  }

  /** Signals the child (with `group`, its process group: a detached child's pipeline). False once it has exited. */
  kill(signal: NodeJS.Signals = 'SIGTERM', group = false): boolean {
    if (this.ended) return false;
    this.request({ type: 'kill', id: this.id, signal, group });
    return true;
  }

  /** @internal */
  output(fd: 1 | 2, chunk: Uint8Array): void {
    (fd === 1 ? this.stdout : this.stderr)?.write(chunk);
  }

  /** @internal */
  exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.ended) return;
    this.ended = true;
    // The spawner's 'spawned' and 'exit' can arrive in one read, emitted in one tick: the caller
    // awaiting spawnChild has not heard of this child yet. It hears the exit a turn later.
    setImmediate(() => {
      this.exitCode = code;
      this.signalCode = signal;
      this.emit('exit', code, signal);
      const streams = [this.stdout, this.stderr].filter((s): s is PassThrough => s !== null);
      let open = streams.length;
      if (open === 0) return void this.emit('close', code, signal);
      for (const stream of streams) {
        stream.once('end', () => {
          if (--open === 0) this.emit('close', code, signal);
        });
        stream.end();
        if (stream.listenerCount('data') === 0) stream.resume(); // nobody reading: 'end' still comes
      }
    });
  }
}

interface Pending {
  resolve: (child: SpawnedChild) => void;
  reject: (err: Error) => void;
  piped: boolean;
}

/** One running spawner: its process and the children it started for this service. */
class Spawner {
  private readonly process: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly children = new Map<number, SpawnedChild>();
  private nextId = 1;
  readonly ready: Promise<void>;
  gone = false;

  constructor(onGone: (spawner: Spawner) => void) {
    // Tied to the service (setpriv): a service killed outright takes the spawner, and so its children, along.
    const node = tiedCommand(process.execPath, ['--max-old-space-size=64']);
    this.process = fork(compiledScript(import.meta.url, 'process.js'), [], {
      serialization: 'advanced',
      execPath: node.command,
      execArgv: node.args,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let started: () => void = () => undefined;
    let failed: (err: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    this.ready.catch(() => undefined); // a spawn waiting on it reports it
    this.process.on('message', (message: SpawnerMessage) => {
      if (message.type === 'ready') return started();
      if (message.type === 'spawned') {
        const pending = this.pending.get(message.id);
        if (!pending) return;
        this.pending.delete(message.id);
        const child = new SpawnedChild(message.pid, this.process.pid!, (m) => this.send(m), message.id, pending.piped);
        this.children.set(message.id, child);
        this.holdOpen();
        return pending.resolve(child);
      }
      if (message.type === 'failed') {
        const pending = this.pending.get(message.id);
        this.pending.delete(message.id);
        this.holdOpen();
        return pending?.reject(new Error(message.message));
      }
      const child = this.children.get(message.id);
      if (message.type === 'output') return child?.output(message.fd, message.chunk);
      this.children.delete(message.id);
      this.holdOpen();
      child?.exited(message.code, message.signal);
    });
    const lost = (why: string) => {
      if (this.gone) return;
      this.gone = true;
      failed(new Error(`the spawner could not start: ${why}`));
      onGone(this);
      if (this.children.size || this.pending.size) log('the spawner ended, and its children with it', { why, children: this.children.size });
      for (const pending of this.pending.values()) pending.reject(new SpawnerLostError(`the spawner ended (${why}) before the child started`));
      this.pending.clear();
      // setpriv tied them to the spawner: the kernel has killed them.
      for (const child of this.children.values()) {
        child.lostWithSpawner = true;
        child.exited(null, 'SIGKILL');
      }
      this.children.clear();
    };
    this.process.on('exit', (code, signal) => lost(signal ?? `exit ${code}`));
    this.process.on('error', (err) => lost(err.message));
    this.holdOpen();
  }

  async spawn(command: string, args: readonly string[], options: SpawnOptions): Promise<SpawnedChild> {
    const id = this.nextId++;
    const piped = (options.output ?? 'pipe') === 'pipe';
    // Pending from now: a spawner that ends before it is ready rejects this start (lost, above).
    const started = new Promise<SpawnedChild>((resolve, reject) => this.pending.set(id, { resolve, reject, piped }));
    this.holdOpen();
    await this.ready.catch(() => undefined);
    this.send({
      type: 'spawn',
      id,
      command,
      args: [...args],
      output: piped ? 'pipe' : 'inherit',
      ...(options.env && { env: definedOnly(options.env) }),
      ...(options.detached && { detached: true }),
      ...(options.nice && { nice: options.nice }),
      ...(options.idle && { idle: true }),
    });
    return started;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Ends the spawner (and so its children). */
  stop(): void {
    this.process.kill('SIGKILL');
  }

  private send(message: SpawnerRequest): void {
    if (!this.gone && this.process.connected) this.process.send(message);
  }

  /** The spawner's channel keeps the service's event loop alive only while a child runs or starts. */
  private holdOpen(): void {
    const busy = this.children.size > 0 || this.pending.size > 0;
    const channel = this.process.channel as { ref(): void; unref(): void } | undefined;
    if (busy) {
      this.process.ref();
      channel?.ref();
    } else {
      this.process.unref();
      channel?.unref();
    }
  }
}

const definedOnly = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));

let current: Spawner | undefined;

/** Starts the spawner if none runs: call it first thing, while this process is small (its one fork is short then). */
export function startSpawner(): void {
  current ??= new Spawner((gone) => {
    if (current === gone) current = undefined;
  });
}

/** Starts `command` through the spawner, tied to it (and so to this process); rejects if it cannot start. */
export async function spawnChild(command: string, args: readonly string[], options: SpawnOptions = {}): Promise<SpawnedChild> {
  for (let attempt = 1; ; attempt++) {
    startSpawner();
    try {
      return await current!.spawn(command, args, options);
    } catch (err) {
      // A spawner that died (and whose end this process had not heard of yet) started nothing.
      if (!(err instanceof SpawnerLostError) || attempt === 2) throw err;
    }
  }
}

/** The spawner's pid (tests: the parent of every child), starting it if none runs. */
export async function spawnerPid(): Promise<number> {
  startSpawner();
  const spawner = current!;
  await spawner.ready;
  return spawner.pid!;
}

/** Ends the spawner and its children (shutdown); the next spawn starts another. */
export function stopSpawner(): void {
  current?.stop();
  current = undefined;
}
