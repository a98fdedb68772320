// Child processes that die with this one (issue 41). A process killed by SIGKILL alone (the OOM
// killer) runs no handler: its children lived on, holding their ports and files, and the next
// start could not take them. On Linux the kernel signals a child when its parent dies
// (PR_SET_PDEATHSIG), which util-linux's `setpriv --pdeathsig KILL` sets before it execs the
// command (kept across exec of a binary that is not setuid). The "parent" is the *thread* that
// spawned: Node spawns on the calling JS thread, so spawn these from the main thread (a worker
// thread's children would die with that thread).
// Where setpriv is missing (not Linux, an old util-linux, SETPRIV=none), children watch their
// parent themselves where they can (the sandbox's IPC channel, the engine's ppid), and a pid file
// lets the next start stop a previous run's orphan before it starts its own (`stopOrphan`).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { log } from '../log.js';

/** undefined: not looked up yet; null: none here. */
let setpriv: string | null | undefined;

/** The setpriv that sets a parent-death signal here (SETPRIV names another; `none` leaves it out), or null. */
function setprivCommand(): string | null {
  if (setpriv === undefined) {
    const command = process.env.SETPRIV ?? 'setpriv';
    const works =
      process.platform === 'linux' && command !== 'none' && spawnSync(command, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0;
    setpriv = works ? command : null;
  }
  return setpriv;
}

export interface TiedCommand {
  command: string;
  args: string[];
  /** Whether the kernel kills the child with this process (false: setpriv is missing; see the fallbacks above). */
  tied: boolean;
}

/**
 * What to spawn so that the child is killed (SIGKILL) when this process dies, however it dies:
 * `setpriv --pdeathsig KILL -- command ...args`. setpriv execs the command, so the child's pid (for
 * kill, setPriority, /proc) is the command's, also with `detached: true` (a process group or session
 * of its own keeps the signal). For fork(): `fork(script, argv, { execPath: command, execArgv: args })`
 * with `tiedCommand(process.execPath, execArgv)`.
 */
export function tiedCommand(command: string, args: readonly string[] = []): TiedCommand {
  const wrapper = setprivCommand();
  return wrapper ? { command: wrapper, args: ['--pdeathsig', 'KILL', '--', command, ...args], tied: true } : { command, args: [...args], tied: false };
}

/** Of a running process (from /proc): its parent, state, start time (clock ticks since boot) and arguments; undefined when gone or unreadable. */
export function processInfo(pid: number): { ppid: number; state: string; startTime: number; args: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // After the name (which may hold spaces and parentheses): state is field 3, ppid 4, starttime 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
    return { ppid: Number(fields[1]), state: fields[0]!, startTime: Number(fields[19]), args };
  } catch {
    return undefined;
  }
}

/** Gone: no such process, a zombie, or another process under the same pid. */
const gone = (pid: number, startTime: number) => {
  const now = processInfo(pid);
  return !now || now.state === 'Z' || now.startTime !== startTime;
};

/** Sends `sig`; a process gone meanwhile (or not ours to signal) is for the wait after it to tell. */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* see the wait */
  }
}

async function waitGone(pid: number, startTime: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!gone(pid, startTime)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** Records a child (its pid and its parent's: this process, or its spawner) in `file`, for `stopOrphan` at the next start. */
export async function writePidFile(file: string, pid: number, parent = process.pid): Promise<void> {
  await writeFile(file, `${JSON.stringify({ pid, parent })}\n`);
}

/** Removes `file` once its child was stopped in order (only while it still names `pid`). */
export async function removePidFile(file: string, pid: number): Promise<void> {
  if ((await readPidFile(file))?.pid === pid) await rm(file, { force: true });
}

async function readPidFile(file: string): Promise<{ pid?: unknown; parent?: unknown } | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as { pid?: unknown; parent?: unknown };
  } catch {
    return undefined; // none, or unreadable: nothing to go by
  }
}

/**
 * Stops the child a previous run recorded in `file` (writePidFile) if it outlived that run: it still
 * runs with every one of `marks` among its arguments (/proc/<pid>/cmdline: not another process that
 * took the pid) and its parent is no longer the run that started it. SIGTERM, then SIGKILL after 10
 * s. A child whose starter still runs (another service on the same data) is left alone. Resolves
 * with the pid stopped, or undefined; rejects if it would not go.
 */
export async function stopOrphan(file: string, marks: readonly string[], what: string): Promise<number | undefined> {
  const { pid, parent } = (await readPidFile(file)) ?? {};
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 1 || pid === process.pid) return undefined;
  const found = processInfo(pid);
  if (!found || found.state === 'Z' || !marks.every((mark) => found.args.includes(mark)) || found.ppid === parent) return undefined;
  log(`stopping a previous run's ${what}`, { orphanPid: pid, pidFile: file });
  signal(pid, 'SIGTERM');
  if (!(await waitGone(pid, found.startTime, 10_000))) {
    signal(pid, 'SIGKILL');
    if (!(await waitGone(pid, found.startTime, 5_000))) throw new Error(`a previous run's ${what} (pid ${pid}, ${file}) would not stop`);
  }
  await rm(file, { force: true });
  return pid;
}
