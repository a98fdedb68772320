// A worker role as its own process (`node dist/main.js worker`) sharing a test service's
// PostgreSQL database and task queue, so tests can kill it with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { inject } from 'vitest';
import type { TestService } from './service.js';
import { waitFor } from './net.js';

export async function startWorkerProcess(service: TestService, children: ChildProcess[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/main.js', 'worker'], {
    env: {
      ...process.env, DATABASE_URL: service.database.url, TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TASK_QUEUE: service.taskQueue,
      SECRET_KEY: service.secretKey.toString('hex'), OPS_TOKEN: 'unused', DATA_DIR: service.dataDir,
      CALLBACK_RETRY_MIN_MS: '10', CALLBACK_RETRY_MAX_MS: '50', QUALITY_CHECK_PROBABILITY: '0',
      // These tests kill workers: no engine child process to leave behind.
      AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  await waitFor(() => out.includes('"msg":"started"') || (child.exitCode !== null && Promise.reject(new Error(out))), 'the worker process', 60_000);
  return child;
}
