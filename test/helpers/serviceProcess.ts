// The service as `npm start` runs it (after building): `node dist/main.js` in a process of its own,
// with its own data directory, Temporal dev server and ports, and the local engine where npm install
// put it. What a crash of the process would show, a test in this process cannot hide.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from './net.js';

/** A fresh data directory and free ports for `node dist/main.js`, loopback media allowed, `overrides` on top. */
export async function serviceEnv(overrides: NodeJS.ProcessEnv = {}): Promise<{ env: NodeJS.ProcessEnv; dataDir: string; port: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'order-service-process-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    TEMPORAL_DEV_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    ENGINE_PORT: String(await freePort()),
    CALLBACK_RETRY_MIN_MS: '10',
    CALLBACK_RETRY_MAX_MS: '100',
    QUALITY_CHECK_PROBABILITY: '0',
    // The tests' media and callback servers are on loopback, which customer URLs may not reach by default.
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    ...overrides,
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  return { env, dataDir, port };
}

/**
 * `node [nodeArgs] dist/main.js` on `env` (several starts may share one data directory); resolves
 * once it printed its banner, rejects with its output if it exits first. Pushed onto `started`
 * at once, for the caller to kill whatever a failed test left running.
 */
export async function startMain(env: NodeJS.ProcessEnv, started: ChildProcess[] = [], nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, 'dist/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await waitFor(() => /"msg":"started"/.test(output) || (child.exitCode !== null && Promise.reject(new Error(output))), 'the service to start', 180_000);
  return { child, output: () => output };
}

/** The child's exit code, once it has exited. */
export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  /** The first account's API token, as the first start prints it. */
  apiToken: string;
  env: NodeJS.ProcessEnv;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGINT, then its exit code; the data directory removed. */
  stop(): Promise<number | null>;
}

/** Starts the service once on a fresh data directory (serviceEnv with `overrides`). */
export async function startServiceProcess(overrides: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
  const { env, dataDir, port } = await serviceEnv(overrides);
  const started: ChildProcess[] = [];
  let main: Awaited<ReturnType<typeof startMain>>;
  try {
    main = await startMain(env, started);
  } catch (err) {
    started[0]?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const { child, output } = main;
  const stop = async () => {
    const done = exited(child);
    child.kill('SIGINT');
    const code = await done;
    await rm(dataDir, { recursive: true, force: true });
    return code;
  };
  const apiToken = /api_token: (\S+)/.exec(output())?.[1];
  if (!apiToken) throw new Error(`the first start printed no api_token:\n${output()}`);
  return { child, baseUrl: `http://127.0.0.1:${port}`, apiToken, env, output, stop };
}
