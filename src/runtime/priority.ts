// CPU priorities of the service's children. The work behind an order (the speech engine's drafts
// and transcriptions, ffmpeg on kept media) runs in the background: nice 19 under SCHED_IDLE, so
// that it takes the cores the placement of orders and the pages leave idle, and yields them at
// once when orders arrive (issues 45, 56; docs/decisions/background-cpu-priority.md). Readers of
// customer files a request waits for stay higher (src/documents/sandbox/).
import { spawnSync } from 'node:child_process';

export const BACKGROUND_NICE = 19;

/** undefined: not looked up yet; null: SCHED_IDLE cannot be set here (not Linux, no chrt). */
let chrt: string | null | undefined;

/**
 * util-linux's `chrt --idle 0`, which execs the command under SCHED_IDLE: a task of the normal
 * policy waking on its core preempts it at once (nice 19 alone lets it finish its slice first), and
 * the scheduler counts its core as idle when it places a waking task.
 */
function idleSchedulerPrefix(): string[] {
  if (chrt === undefined) {
    const works = process.platform === 'linux' && spawnSync('chrt', ['--idle', '0', 'true'], { stdio: 'ignore' }).status === 0;
    chrt = works ? 'chrt' : null;
  }
  return chrt ? [chrt, '--idle', '0'] : [];
}

/**
 * The words that run a command after them in the background: `chrt --idle 0` where it works, then
 * `nice -n 19`. Looked up by the spawner (its forks are small), not by the service.
 */
export function inBackground(): string[] {
  return [...idleSchedulerPrefix(), 'nice', '-n', String(BACKGROUND_NICE)];
}
