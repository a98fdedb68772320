// Child processes the embedded stack runs (the Temporal dev server, the local speech engine).
import type { ChildProcess } from 'node:child_process';
import { removePidFile, writePidFile } from './tiedChild.js';

/** A started child, watched: what it printed last, why it ended, and how to stop it. */
export interface WatchedChild {
  /** Its last 4,000 characters of output (stdout and stderr). */
  output(): string;
  /** Why it is not running (its exit code, or the error that kept it from starting); undefined while it runs. */
  ended(): string | undefined;
  /** SIGTERM, then SIGKILL after 10 s; its pid file removed. */
  stop(): Promise<void>;
}

/** Watches a child spawned with piped output; with `pidFile`, records it there for the next start (tiedChild.ts). */
export async function watchChild(child: ChildProcess, pidFile?: string): Promise<WatchedChild> {
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
  if (pidFile && child.pid) await writePidFile(pidFile, child.pid);
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
async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
