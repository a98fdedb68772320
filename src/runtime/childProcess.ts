// Child processes the embedded stack runs (the Temporal dev server, the local speech engine).
import type { Readable } from 'node:stream';
import { removePidFile, writePidFile } from './tiedChild.js';

/** What watchChild needs of a child: a ChildProcess, or one the spawner started (spawner/index.ts). */
export interface RunningChild {
  readonly pid?: number | undefined;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null) => void): unknown;
  once(event: 'error', listener: (err: Error) => void): unknown;
}

/** A started child, watched: what it printed last, why it ended, and how to stop it. */
export interface WatchedChild {
  /** Its last 4,000 characters of output (stdout and stderr). */
  output(): string;
  /** Why it is not running (its exit code, or the error that kept it from starting); undefined while it runs. */
  ended(): string | undefined;
  /** SIGTERM, then SIGKILL after 10 s; its pid file removed. */
  stop(): Promise<void>;
}

/**
 * Watches a child spawned with piped output; with `pidFile`, records it there for the next start
 * (tiedChild.ts), with `parent` as the process that started it (this one, or the spawner).
 */
export async function watchChild(child: RunningChild, pidFile?: string, parent = process.pid): Promise<WatchedChild> {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // A child that could not start emits 'error', not 'exit' (and unheard, the error would be thrown).
  let failed: Error | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (err) => {
      failed = err;
      resolve(null);
    });
  });
  if (pidFile && child.pid) await writePidFile(pidFile, child.pid, parent);
  return {
    output: () => output,
    ended: () => failed?.message ?? (child.exitCode !== null ? String(child.exitCode) : undefined),
    async stop() {
      await stopChild(child, exited);
      if (pidFile && child.pid) await removePidFile(pidFile, child.pid);
    },
  };
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the child has exited. */
async function stopChild(child: RunningChild, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
