// The pid file a start reads to stop a previous run's orphan (src/runtime/tiedChild.ts): it stops
// only the process it names, still running what it ran, whose starter is gone; never a process
// that took the pid since, nor one whose starter still runs. Real processes (`sleep`).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processInfo, removePidFile, stopOrphan, tiedCommand, writePidFile } from '../../src/runtime/tiedChild.js';

const onLinux = process.platform === 'linux';

describe.runIf(onLinux)('a previous run’s child, by its pid file', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  const sleeper = (seconds: string) => {
    const child = spawn('sleep', [seconds], { stdio: 'ignore' });
    children.push(child);
    return child;
  };
  const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tied-child-'));
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('is stopped when its starter is gone and it still runs what it ran', async () => {
    const child = sleeper('301');
    const file = join(dir, 'orphan.pid');
    // As if recorded by a run that died: its parent now is another process (here, this one).
    await writeFile(file, JSON.stringify({ pid: child.pid, parent: 999_999 }));
    const exited = new Promise((r) => child.once('exit', (_code, signal) => r(signal)));
    expect(await stopOrphan(file, ['sleep', '301'], 'sleeper')).toBe(child.pid);
    expect(await exited).toBe('SIGTERM');
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is left alone when its starter still runs, or when the pid is another process now', async () => {
    const child = sleeper('302');
    const file = join(dir, 'alive.pid');
    await writePidFile(file, child.pid!); // this process, alive, is its starter
    expect(await stopOrphan(file, ['sleep', '302'], 'sleeper')).toBeUndefined();
    await writeFile(file, JSON.stringify({ pid: child.pid, parent: 999_999 }));
    expect(await stopOrphan(file, ['sleep', '9999'], 'sleeper')).toBeUndefined(); // not what was recorded
    expect(running(child)).toBe(true);
    await removePidFile(file, child.pid!);
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is nothing when the file is missing or unreadable', async () => {
    expect(await stopOrphan(join(dir, 'none.pid'), ['x'], 'nothing')).toBeUndefined();
    await writeFile(join(dir, 'bad.pid'), 'not json');
    expect(await stopOrphan(join(dir, 'bad.pid'), ['x'], 'nothing')).toBeUndefined();
  });

  it('runs a tied command under the same pid, as the command itself', async () => {
    const tied = tiedCommand('sleep', ['303']);
    const child = spawn(tied.command, tied.args, { stdio: 'ignore' });
    children.push(child);
    await expect.poll(() => processInfo(child.pid!)?.args).toEqual(['sleep', '303']);
  });
});
