// The spawner: a small Node process the service starts first (index.ts) and asks to start its
// children (ffmpeg, the file readers, the speech engine, Apertium). Node 20 starts a child with a
// plain fork(), which copies the page tables of the process that spawns, synchronously on its
// thread: about 8 ms for the service at 700 MB, in the middle of answering HTTP. This process is a
// few tens of MB, so its forks are short, and they happen off the service's thread
// (docs/decisions/children-through-a-spawner.md).
// Every child is tied to this process (setpriv --pdeathsig KILL): if it dies, they die; it is tied
// to the service the same way, and leaves when the service's channel closes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { tiedCommand } from '../tiedChild.js';
import type { SpawnerMessage, SpawnerRequest, SpawnRequest } from './protocol.js';

const children = new Map<number, ChildProcess>();

/** Whether util-linux's chrt sets SCHED_IDLE here; without it an idle child runs at its nice alone. */
let chrtWorks: boolean | undefined;
const idlePolicy = (): string[] =>
  (chrtWorks ??= spawnSync('chrt', ['--idle', '0', 'true'], { stdio: 'ignore' }).status === 0) ? ['chrt', '--idle', '0'] : [];
const send = (message: SpawnerMessage) => {
  if (process.connected) process.send!(message);
};

function start(request: SpawnRequest): void {
  const { id } = request;
  // Its policy and nice are set by the programs that exec it, so that they hold from its first instruction.
  const [command, ...args] = [
    ...(request.idle ? idlePolicy() : []),
    ...(request.nice ? ['nice', '-n', String(request.nice)] : []),
    request.command,
    ...request.args,
  ];
  const tied = tiedCommand(command!, args);
  let child: ChildProcess;
  try {
    child = spawn(tied.command, tied.args, {
      detached: request.detached ?? false,
      env: request.env ?? process.env,
      stdio: ['ignore', request.output, request.output],
    });
  } catch (err) {
    return send({ type: 'failed', id, message: (err as Error).message });
  }
  children.set(id, child);
  child.once('spawn', () => {
    send({ type: 'spawned', id, pid: child.pid! });
  });
  child.once('error', (err) => {
    // An error before 'spawn' (ENOENT, EACCES) means it never ran: no 'close' follows for the service.
    if (child.pid === undefined) {
      children.delete(id);
      send({ type: 'failed', id, message: err.message });
    }
  });
  child.stdout?.on('data', (chunk: Buffer) => send({ type: 'output', id, fd: 1, chunk }));
  child.stderr?.on('data', (chunk: Buffer) => send({ type: 'output', id, fd: 2, chunk }));
  // 'close': after its output, so that the service has all of it before the exit.
  child.once('close', (code, signal) => {
    children.delete(id);
    send({ type: 'exit', id, code, signal });
  });
}

process.on('message', (request: SpawnerRequest) => {
  if (request.type === 'spawn') return start(request);
  const child = children.get(request.id);
  if (!child?.pid) return;
  try {
    process.kill(request.group ? -child.pid : child.pid, request.signal);
  } catch {
    /* gone already */
  }
});
// The service is gone (or let go of this spawner): so are the children, with this process.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
