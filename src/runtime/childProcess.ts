// Child processes the embedded stack runs (the Temporal dev server, the local speech engine).
import type { ChildProcess } from 'node:child_process';

/** SIGTERM, then SIGKILL after 10 s; resolves once the child has exited. */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
