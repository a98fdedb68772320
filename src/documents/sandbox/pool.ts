// A pool of child processes that open customers' files, so that no file can stall or bloat the
// process that serves HTTP and runs the workers (docs/decisions/customer-files-in-child-processes.md: child processes, measured
// against worker threads). Document readers run at a lower CPU priority; a watchdog reads a child's
// CPU time and resident memory from the OS and kills it (SIGKILL) past the limits; the job gets
// the refusal, and a fresh child takes the place of the dead one. Jobs over the pool's capacity
// wait a short while, then are answered 503 (the service's capacity, not the caller's excess).
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { ServiceBusyError } from '../../contracts/failures.js';
import { log } from '../../log.js';
import { channelServer, type FramedChannel } from '../../runtime/childChannel.js';
import { compiledScript } from '../../runtime/compiledScript.js';
import { spawnChild, type SpawnedChild } from '../../runtime/spawner/index.js';
import { refusal, DocumentRefusedError, type DocumentLimits } from '../limits.js';
import { reviveError, type BlockSource, type JobBlock, type JobRead, type JobReply, type JobRequest, type JobStep } from './protocol.js';

export interface PoolOptions {
  /** What the pool opens, in the plural (logs, the 503) and the singular (refusals). */
  name: string;
  noun: string;
  /** Children at once. */
  children: number;
  /** Jobs one child runs at once (1: a job over the limits is the only one its child's death fails). */
  jobsPerChild: number;
  /** How long a job waits for a free place before the 503. */
  queueWaitMs: number;
  /**
   * Limits of each child: CPU time per job (or, with several jobs at once, per busy stretch; or,
   * for a job that reports its steps (JobStep: OCR's pages), per step), memory.
   */
  limits: Pick<DocumentLimits, 'cpuMs' | 'memoryMb'>;
  /** A child is replaced after this many jobs (whatever a reader leaves behind is dropped with it). */
  recycleAfterJobs?: number;
  /** The readers a child loads before its first job, so that loading them is not charged to a file. */
  preload: 'documents' | 'media' | 'ocr';
  /** CPU priority of the children (nice, 0–19): CPU-bound readers yield to the process serving HTTP. */
  nice: number;
}

/** The job's child died for another job's sake (a shared child killed at its limits): retry it alone. */
export class ChildLostError extends Error {}

/** The job's child went with the spawner (runtime/spawner/): not the file's doing. */
class SpawnerEndedError extends ChildLostError {}

const WATCH_MS = 25;
/** Wall-clock backstop: a job that is neither working nor finishing (stuck in a wait) is ended too. */
const WALL_FACTOR = 6;
const CLOCK_TICKS_PER_SECOND = 100;
const HAS_PROC = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

interface Job {
  id: number;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  /** The input stream's failure: the answer if the child cannot answer from what it got. */
  inputError?: Error;
  /** Where the child's reads of a file read by ranges are answered from. */
  blocks?: BlockSource;
}

interface Worker {
  /** Set once the spawner has started it. */
  child?: SpawnedChild;
  /** Set once it has connected (before its readers are loaded). */
  channel?: FramedChannel;
  jobs: Map<number, Job>;
  served: number;
  watchdog?: NodeJS.Timeout;
  dead: boolean;
  /** Settles once the child has loaded its readers. */
  ready: Promise<void>;
  /** Starts the CPU and wall-clock count of the child's one job again (its next step began). */
  restartClock?: () => void;
}

/** The block a BlockSource gave, checked to hold bytes [start, end) of the file; else the reason. */
function holding(block: unknown, { start, end }: JobRead['read']): { at: number; bytes: Uint8Array } {
  const wanted = `bytes ${start}-${end - 1} of the file could not be had`;
  const { at, bytes } = (block ?? {}) as { at?: unknown; bytes?: unknown };
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0 || !(bytes instanceof Uint8Array)) {
    throw new Error(`${wanted}: the block source answered ${block === undefined ? 'nothing' : 'no block ({ at, bytes })'}`);
  }
  if (at > start || at + bytes.length < end) throw new Error(`${wanted}: the block source answered bytes ${at}-${at + bytes.length - 1}`);
  return { at, bytes };
}

/** CPU time (user + system) and resident set of a process, from /proc. */
function usage(pid: number): { cpuMs: number; rssMb: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state is field 3, utime 14, stime 15, rss 24 (in pages of 4 KiB).
    const ticks = Number(fields[11]) + Number(fields[12]);
    const rssPages = Number(fields[21]);
    return { cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND, rssMb: (rssPages * 4096) / 1024 ** 2 };
  } catch {
    return undefined;
  }
}

export class ChildPool {
  private readonly workers: Worker[] = [];
  private readonly waiting: Array<() => void> = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PoolOptions) {}

  /**
   * Runs `request` in a child; with `input`, the stream's chunks follow the request (a media file
   * as it downloads), or the child asks the BlockSource for the parts it reads (a media file read
   * by ranges). Settles with the child's answer, a refusal, or the input's own error.
   */
  async run(request: Omit<JobRequest, 'id'>, input?: Readable | BlockSource): Promise<unknown> {
    try {
      return await this.runOnce(request, input);
    } catch (err) {
      // Its child went with a spawner that died: once more in a new one, where the input can be
      // read again (bytes in the request, or a file read by ranges; a stream is half read).
      if (!(err instanceof SpawnerEndedError) || (input && !('block' in input))) throw err;
      return this.runOnce(request, input);
    }
  }

  private async runOnce(request: Omit<JobRequest, 'id'>, input?: Readable | BlockSource): Promise<unknown> {
    const id = this.nextId++;
    let settled!: Promise<unknown>;
    // The job takes its place in the child at once (no other job can take it while it starts).
    const worker = await this.place((w) => {
      settled = new Promise<unknown>((resolve, reject) => {
        const settle = () => {
          w.jobs.delete(id);
          if (w.jobs.size === 0) this.idle(w);
          this.waiting.shift()?.();
        };
        w.jobs.set(id, {
          id,
          resolve: (value) => {
            settle();
            resolve(value);
          },
          reject: (err) => {
            settle();
            reject(err);
          },
        });
      });
    });
    // A child killed while it starts (a failed start, the service stopping) never becomes ready:
    // its job's refusal is the answer then.
    await Promise.race([worker.ready, settled]);
    const job = worker.jobs.get(id);
    if (job) {
      if (!worker.watchdog) this.busy(worker);
      if (input && 'block' in input) job.blocks = input;
      worker.channel!.send({ ...request, id } satisfies JobRequest);
      if (input && !('block' in input)) void this.feed(worker, id, input);
    }
    return settled;
  }

  /**
   * A child's JobRead: the block from the job's source, or, when it cannot be had, the reason kept
   * as the job's answer. Whatever the source does (throws, rejects, resolves nothing or bytes that
   * do not hold the read), this job alone fails, with the reason; nothing rejects unhandled (issue 41).
   */
  private async answerRead(worker: Worker, { id, read }: JobRead): Promise<void> {
    const job = worker.jobs.get(id);
    if (!job?.blocks) return;
    let answer: JobBlock;
    try {
      const { at, bytes } = holding(await job.blocks.block(read.start, read.end), read);
      answer = { id, seq: read.seq, at, chunk: bytes };
    } catch (err) {
      job.inputError = err instanceof Error ? err : new Error(String(err));
      answer = { id, seq: read.seq, failed: true };
    }
    if (!worker.dead && worker.jobs.has(id)) worker.channel!.send(answer);
  }

  /** Starts a child ahead of the first job, so that no customer waits for one to start. */
  warm(): void {
    if (!this.closed && this.workers.length === 0) this.spawn();
  }

  /** Stops every child (on shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.workers.splice(0)) this.kill(w, new ChildLostError('the service is stopping'));
  }

  private async feed(worker: Worker, id: number, input: Readable): Promise<void> {
    const send = (message: object) =>
      new Promise<void>((done) => {
        if (worker.dead || !worker.jobs.has(id)) return done();
        worker.channel!.send(message, () => done());
      });
    try {
      for await (const chunk of input) {
        if (worker.dead || !worker.jobs.has(id)) break; // answered already: the rest is not needed
        await send({ id, chunk: new Uint8Array(chunk as Buffer) });
      }
      await send({ id, end: true });
    } catch (err) {
      // The child answers from what it got (a header read before the cut is enough); failing
      // that, the download's own failure (too large, cut off, late) is the answer.
      const job = worker.jobs.get(id);
      if (job) job.inputError = err as Error;
      await send({ id, end: true });
    } finally {
      input.destroy();
    }
  }

  /** A place in a child: a free one, a new one, or after a short wait; else 503. */
  private async place(take: (w: Worker) => void): Promise<Worker> {
    if (this.closed) throw new ChildLostError('the service is stopping');
    const deadline = Date.now() + this.options.queueWaitMs;
    for (;;) {
      const free =
        this.workers.find((w) => !w.dead && w.jobs.size < this.options.jobsPerChild && !this.retiring(w)) ??
        (this.workers.length < this.options.children ? this.spawn() : undefined);
      if (free) {
        take(free);
        return free;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new ServiceBusyError(`the service is reading many ${this.options.name} at once; retry in a few seconds`, 2);
      }
      await new Promise<void>((resume) => {
        const timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(wake), 1);
          resume();
        }, left);
        const wake = () => {
          clearTimeout(timer);
          resume();
        };
        this.waiting.push(wake);
      });
    }
  }

  private retiring(w: Worker): boolean {
    const limit = this.options.recycleAfterJobs;
    if (limit === undefined || w.served < limit) return false;
    if (w.jobs.size === 0) this.kill(w, new ChildLostError('recycled'));
    return true;
  }

  /** A new child, in the pool at once; it starts (through the spawner) and connects meanwhile. */
  private spawn(): Worker {
    let isReady = false;
    let started: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      started = () => {
        isReady = true;
        resolve();
      };
    });
    const worker: Worker = { jobs: new Map(), served: 0, dead: false, ready };
    this.workers.push(worker);
    this.start(worker, started, () => isReady).catch((err: Error) => {
      started();
      this.kill(worker, new Error(`a file reader could not start: ${err.message}`));
    });
    return worker;
  }

  private async start(worker: Worker, started: () => void, isReady: () => boolean): Promise<void> {
    const memoryMb = this.options.limits.memoryMb;
    const server = await channelServer();
    const expected = server.expect();
    // The heap limit makes V8 fail early and cleanly; the watchdog bounds all of the memory.
    // The spawner ties it to itself, and itself to this process (runtime/spawner/).
    const child = await spawnChild(
      process.execPath,
      [
        `--max-old-space-size=${Math.max(32, Math.floor(memoryMb * 0.75))}`,
        compiledScript(import.meta.url, 'child.js'),
        this.options.preload,
        server.name,
        expected.token,
      ],
      { output: 'inherit', nice: this.options.nice },
    );
    worker.child = child;
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      expected.cancel();
      const wasReady = isReady();
      started();
      if (worker.dead) return;
      if (child.lostWithSpawner) return this.kill(worker, new SpawnerEndedError('the spawner ended'));
      // Not the file's fault: the service's own failure (a 500), e.g. dist/ not built.
      if (!wasReady) return this.kill(worker, new Error(`a file reader exited before it was ready (code ${code}, signal ${signal})`));
      // V8 out of heap aborts the process; anything else is a crash of the reader.
      const outOfMemory = signal === 'SIGABRT' || signal === 'SIGTRAP' || code === 134;
      this.kill(worker, outOfMemory ? refusal.memory(this.options.limits, this.options.noun) : refusal.crashed(), { code, signal });
    });
    if (worker.dead) return void child.kill('SIGKILL');
    const channel = await expected.connected;
    if (worker.dead) return channel.close();
    worker.channel = channel;
    channel.on('message', (reply: JobReply | JobStep | JobRead | { ready: true }) => {
      if ('ready' in reply) return started();
      if ('step' in reply) return worker.jobs.has(reply.id) ? worker.restartClock?.() : undefined;
      if ('read' in reply) {
        // Sending the answer is all that is left to fail: the job gets that failure.
        return void this.answerRead(worker, reply).catch((err: Error) => worker.jobs.get(reply.id)?.reject(err));
      }
      const job = worker.jobs.get(reply.id);
      if (!job) return;
      worker.served++;
      if ('error' in reply) job.reject(job.inputError ?? reviveError(reply.error));
      else job.resolve(reply.ok);
    });
  }

  /**
   * Watches a child while it has jobs. One job per child: the job's own CPU time (without /proc,
   * wall-clock time stands in), and a wall-clock backstop for a job that neither works nor ends.
   * Jobs sharing a child (media probes, waiting on the network): the child's CPU time over the
   * last two CPU limits of wall-clock time, so that steady traffic is never mistaken for one file.
   * A job alone in its child that reports steps (OCR's pages) has both counts restarted at each.
   */
  private busy(w: Worker): void {
    const { cpuMs, memoryMb } = this.options.limits;
    const shared = this.options.jobsPerChild > 1;
    let since = Date.now();
    const samples: Array<{ at: number; cpuMs: number }> = [];
    const over = (reason: Error, detail: object) => this.kill(w, reason, detail);
    const start = () => {
      samples.length = 0;
      const first = usage(w.child?.pid ?? -1);
      if (first && HAS_PROC) samples.push({ at: since, cpuMs: first.cpuMs });
    };
    start();
    if (!shared)
      w.restartClock = () => {
        since = Date.now();
        start();
      };
    w.watchdog = setInterval(() => {
      const at = Date.now();
      const now = usage(w.child?.pid ?? -1);
      if (now && now.rssMb > memoryMb) return over(refusal.memory(this.options.limits, this.options.noun), { rssMb: Math.round(now.rssMb) });
      if (now && HAS_PROC) {
        samples.push({ at, cpuMs: now.cpuMs });
        while (shared && samples[0]!.at < at - 2 * cpuMs) samples.shift();
      }
      const spent = now && HAS_PROC ? now.cpuMs - samples[0]!.cpuMs : shared ? 0 : at - since;
      if (spent > cpuMs) return over(refusal.time(this.options.limits, this.options.noun), { cpuMs: Math.round(spent) });
      if (!shared && at - since > cpuMs * WALL_FACTOR) over(refusal.time(this.options.limits, this.options.noun), { wallMs: at - since });
    }, WATCH_MS);
    w.watchdog.unref();
  }

  private idle(w: Worker): void {
    clearInterval(w.watchdog);
    w.watchdog = undefined;
    w.restartClock = undefined;
  }

  /** Ends a child at once; its job is refused with `reason` (or, with others beside it, lost). */
  private kill(w: Worker, reason: Error, detail: object = {}): void {
    if (w.dead) return;
    w.dead = true;
    clearInterval(w.watchdog);
    w.child?.kill('SIGKILL');
    w.channel?.close();
    const at = this.workers.indexOf(w);
    if (at >= 0) this.workers.splice(at, 1);
    const jobs = [...w.jobs.values()];
    w.jobs.clear();
    if (reason instanceof DocumentRefusedError) {
      log('a file reader was stopped at its limits', { pool: this.options.name, reason: reason.reason, jobs: jobs.length, ...detail });
    }
    const alone = jobs.length === 1;
    for (const job of jobs) job.reject(alone || !(reason instanceof DocumentRefusedError) ? reason : new ChildLostError(reason.message));
    this.waiting.shift()?.();
  }
}
