// A role (`node dist/main.js worker|api`) as its own process sharing a test service's PostgreSQL
// database, task queue and keys, so tests can kill it with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { inject } from 'vitest';
import type { TestService } from './service.js';
import { waitFor } from './net.js';
import { requireLeg } from './legs.js';
import { formatPayloadKeys } from '../../src/temporal/payloadCodec.js';

/** The environment of a role process sharing `service`'s database, task queue and keys. */
export function roleProcessEnv(service: TestService): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: service.database.url,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: service.taskQueue,
    SECRET_KEY: service.secretKey.toString('hex'),
    OPS_TOKEN: service.opsToken,
    DATA_DIR: service.dataDir,
    // The service's payload keys: what its client encrypts, this process must read, and the reverse.
    PAYLOAD_KEYS: formatPayloadKeys(service.payloadKeys),
    CALLBACK_RETRY_MIN_MS: '10',
    CALLBACK_RETRY_MAX_MS: '50',
    QUALITY_CHECK_PROBABILITY: '0',
    // The tests' media and callback servers are on loopback, which customer URLs may not reach by default.
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    // These tests kill workers: no engine child process to leave behind.
    AI_ENGINE: 'operator',
    ALIGN_ENGINE: 'operator',
  };
}

/** `node dist/main.js <role>`, ready once it logged `started`. */
export async function startRoleProcess(
  service: TestService,
  role: 'api' | 'worker',
  children: ChildProcess[],
  env: NodeJS.ProcessEnv = {},
): Promise<ChildProcess> {
  requireLeg('workerProcess', `An ${role} process of its own`);
  const child = spawn(process.execPath, ['dist/main.js', role], { env: { ...roleProcessEnv(service), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  await waitFor(() => out.includes('"msg":"started"') || (child.exitCode !== null && Promise.reject(new Error(out))), `the ${role} process`, 60_000);
  return child;
}

export const startWorkerProcess = (service: TestService, children: ChildProcess[]): Promise<ChildProcess> => startRoleProcess(service, 'worker', children);

export interface SupervisedWorker {
  /** Worker processes that died of SIGKILL (a crash point, or `crash()`). */
  readonly crashes: number;
  /** Kills the running worker with SIGKILL; the supervisor starts the next. */
  crash(): void;
  stop(): Promise<void>;
}

/**
 * Keeps one worker process alive as systemd or Kubernetes would, restarting it whenever it dies.
 * `envFor(n)` gives the n-th start's extra environment (crash points, say).
 */
export function superviseWorker(service: TestService, children: ChildProcess[], envFor: (start: number) => NodeJS.ProcessEnv = () => ({})): SupervisedWorker {
  requireLeg('workerProcess', 'A supervised worker process');
  let stopped = false;
  let current: ChildProcess | undefined;
  let crashes = 0;
  const exited = (child: ChildProcess) =>
    new Promise<NodeJS.Signals | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode);
      else child.once('exit', (_code, signal) => resolve(signal));
    });
  const loop = (async () => {
    for (let start = 0; !stopped; start++) {
      current = undefined;
      try {
        current = await startRoleProcess(service, 'worker', children, envFor(start));
        if (stopped) current.kill('SIGTERM');
      } catch {
        crashes++; // died before it said it had started: a crash point hit at once
        continue;
      }
      // Counted whenever it happened: a crash right after a callback can land just as the test stops
      // the supervisor (stop() sends SIGTERM, never SIGKILL).
      if ((await exited(current)) === 'SIGKILL') crashes++;
    }
  })();
  return {
    get crashes() {
      return crashes;
    },
    crash: () => void current?.kill('SIGKILL'),
    async stop() {
      stopped = true;
      current?.kill('SIGTERM');
      await loop;
    },
  };
}
