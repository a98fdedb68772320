// Issue 41: the children of `npm start` (the Temporal dev server, the local speech engine, the
// sandbox's file readers) do not outlive it. Started as the quick start does (node dist/main.js on
// its own data and ports), killed by SIGKILL alone as the OOM killer does: every child is gone
// within seconds, and the next start on the same data and ports answers, no process killed by
// anyone but the kernel and the service. Without setpriv (SETPRIV=none) the readers and the engine
// still go (they watch their parent) and the next start stops the dev server the run left behind.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEngineInstalled } from '../../src/engines/localEngine.js';
import { close, listen, waitFor } from '../helpers/net.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { processInfo } from '../../src/runtime/tiedChild.js';
import { descendants, gone, isDevServer, isEngine, isReader, isSpawner, running, type Seen } from '../helpers/processes.js';
import { exited, serviceEnv, startMain } from '../helpers/serviceProcess.js';

const ENGINE_INSTALLED = localEngineInstalled(process.env.ENGINES_DIR ?? '.engines');

describe.each([
  ['with setpriv', {}],
  ['without setpriv (SETPRIV=none)', { SETPRIV: 'none' }],
])('children of npm start, %s', (_name, extra: NodeJS.ProcessEnv) => {
  const tied = !extra.SETPRIV;
  let dataDir: string;
  let media: MediaServer;
  let env: NodeJS.ProcessEnv;
  let port: number;
  const started: ChildProcess[] = [];
  const seen: Seen[] = [];

  beforeAll(async () => {
    ({ env, dataDir, port } = await serviceEnv(extra));
    media = await startMediaServer();
  });
  afterAll(async () => {
    // Only if an assertion failed: what this test started must not outlive it.
    for (const child of started) child.kill('SIGKILL');
    for (const p of seen.filter(running)) process.kill(p.pid, 'SIGKILL');
    await media?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('go with it when it is killed (SIGKILL alone), and the next start answers', { timeout: 420_000 }, async () => {
    const first = await startMain(env, started);
    const token = /api_token: (\S+)/.exec(first.output())?.[1];
    expect(token).toBeDefined();
    const children = descendants(first.child.pid!);
    seen.push(...children);
    expect(children.filter(isDevServer)).toHaveLength(1);
    expect(children.filter(isEngine)).toHaveLength(ENGINE_INSTALLED ? 1 : 0);
    expect(children.filter(isReader).length).toBeGreaterThanOrEqual(2); // the API's warm readers: documents and media
    // Started by its spawner, not forked from it (issue 56): all but the dev server.
    const [spawner, ...more] = children.filter(isSpawner);
    expect(more).toHaveLength(0);
    expect(processInfo(spawner!.pid)?.ppid).toBe(first.child.pid);
    for (const child of children.filter((c) => isReader(c) || isEngine(c))) expect(processInfo(child.pid)?.ppid).toBe(spawner!.pid);

    first.child.kill('SIGKILL');
    await exited(first.child);
    if (tied) {
      await waitFor(() => children.every(gone), 'every child to go with its parent', 5_000);
    } else {
      // The readers see their channel close, the spawner its IPC channel; the engine sees its parent change (once a second).
      await waitFor(() => children.filter((p) => !isDevServer(p)).every(gone), 'the readers and the engine to go', 5_000);
    }
    // Without setpriv nothing ties the dev server to its parent: it runs on, holding the port and
    // the database file, until it writes a warning (the worker's polls cut) into its closed pipe.
    const leftRunning = children.filter(isDevServer).some(running);

    const second = await startMain(env, started);
    if (leftRunning) {
      // The pid file in the data dir named it: this start stopped it before starting its own.
      expect(second.output()).toContain("stopping a previous run's Temporal dev server");
    }
    expect(children.every(gone)).toBe(true);
    expect(second.output()).not.toContain('First start');
    seen.push(...descendants(second.child.pid!));
    const base = `http://localhost:${port}`;
    const languages = await fetch(`${base}/api/v4/languages`);
    expect(languages.status).toBe(200);
    const quote = await fetch(`${base}/api/v4/transcriptions`, {
      method: 'POST',
      body: new URLSearchParams({ api_token: token!, mode: 'test', url: media.audio(120), language: 'english' }),
    }).then((r) => r.json());
    expect(quote).toMatchObject({ mode: 'test', status: 'success', order_total: 2.5 });
    if (tied) {
      // A spawner killed outright takes its children along; the service serves on, and the next
      // quote's media reader starts through a new spawner (the engine is started again meanwhile).
      const before = descendants(second.child.pid!);
      process.kill(before.find(isSpawner)!.pid, 'SIGKILL');
      await waitFor(() => before.filter((p) => !isDevServer(p)).every(gone), 'the spawner and its children to go', 5_000);
      const again = await fetch(`${base}/api/v4/transcriptions`, {
        method: 'POST',
        body: new URLSearchParams({ api_token: token!, mode: 'test', url: media.audio(90), language: 'english' }),
      }).then((r) => r.json());
      expect(again).toMatchObject({ mode: 'test', status: 'success' });
      expect(descendants(second.child.pid!).filter(isSpawner)).toHaveLength(1);
    }

    // Stopped in order, it leaves nothing behind either.
    const secondChildren = descendants(second.child.pid!);
    second.child.kill('SIGINT');
    expect(await exited(second.child)).toBe(0);
    await waitFor(() => secondChildren.every(gone), 'the children of a service stopped in order to go', 5_000);
  });
});

// What no caller handled, in the running service (src/main.ts): a rejection is logged with its
// order and counted, and the service serves on; an exception stops it in order, exit code 1, its
// children with it. The faults are set off from outside by a module loaded before main.js.
describe('faults no caller handled', () => {
  const FAULTS = `data:text/javascript,${encodeURIComponent(
    "let n = 0; process.on('SIGUSR2', () => { if (n++ === 0) Promise.reject(Object.assign(new Error('a rejection nobody awaited'), { orderId: 41 })); else throw new Error('a throw nobody caught'); });",
  )}`;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;
  const started: ChildProcess[] = [];

  beforeAll(async () => {
    ({ env, dataDir, port } = await serviceEnv({ AI_ENGINE: 'operator' }));
  });
  afterAll(async () => {
    for (const child of started) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('logs and counts an unhandled rejection and serves on; stops in order on an uncaught exception', { timeout: 300_000 }, async () => {
    const service = await startMain(env, started, ['--import', FAULTS]);
    const base = `http://localhost:${port}`;
    service.child.kill('SIGUSR2');
    const line = await waitFor(
      () =>
        service
          .output()
          .split('\n')
          .find((l) => l.includes('"msg":"unhandled rejection (serving on)"')),
      'the rejection to be logged',
    );
    expect(JSON.parse(line)).toMatchObject({ level: 'error', orderId: 41, workflowId: 'order-41', error: { message: 'a rejection nobody awaited' } });
    expect((await fetch(`${base}/api/v4/languages`)).status).toBe(200);
    expect(await fetch(`${base}/metrics`).then((r) => r.text())).toMatch(/^unhandled_rejections_total 1$/m);

    const children = descendants(service.child.pid!);
    service.child.kill('SIGUSR2');
    expect(await exited(service.child)).toBe(1);
    const lines = service
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'fatal', msg: 'uncaught exception: stopping', error: expect.objectContaining({ message: 'a throw nobody caught' }) }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'stopping', signal: 'uncaughtException' }));
    await waitFor(() => children.every(gone), 'the children to go', 5_000);
  });
});

// A start that fails stops what started beside it (src/main.ts starts the database, the dev server
// and the engine at once): here the dev server's port is taken, and the engine, started meanwhile,
// goes with the spawner and the readers; the process exits 1 naming why.
describe('a start that fails', () => {
  let dataDir: string;
  const blocker = createServer();
  const started: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of started) child.kill('SIGKILL');
    await close(blocker);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("exits 1 naming the dev server's taken port, and leaves none of its children running", { timeout: 180_000 }, async () => {
    const taken = new URL(await listen(blocker)).port;
    let env: NodeJS.ProcessEnv;
    ({ env, dataDir } = await serviceEnv({ TEMPORAL_DEV_PORT: taken }));
    const starting = startMain(env, started);
    const child = started[0]!;
    // Every process seen under it while it starts and stops.
    const seen = new Map<number, Seen>();
    const look = setInterval(() => descendants(child.pid!).forEach((p) => seen.set(p.pid, p)), 50);
    await expect(starting).rejects.toThrow(/order-service failed to start: Temporal dev server exited .*address already in use/s);
    clearInterval(look);
    expect(await exited(child)).toBe(1);
    expect([...seen.values()].some(isEngine)).toBe(ENGINE_INSTALLED);
    await waitFor(() => [...seen.values()].every(gone), 'every child of the failed start to go', 10_000);
  });
});
