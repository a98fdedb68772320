// The workflow code of an earlier commit, for the upgrade tests: an order placed by it, finished
// by the current code. Its src/ comes from git into a folder inside the checkout (so that it resolves
// this checkout's node_modules) and is bundled as a worker would bundle it.
import { execSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { NativeConnection, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createActivities } from '../../src/activities/index.js';
import { payloadDataConverter } from '../../src/temporal/payloadCodec.js';
import type { TestService } from './service.js';

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

/** `commit`'s workflow code, bundled; `remove()` deletes its sources. */
export async function oldWorkflowCode(commit: string): Promise<{ code: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(process.cwd(), '.old-code-'));
  try {
    execSync(`git archive ${commit} src | tar -x -C ${JSON.stringify(dir)}`);
    const { code } = await bundleWorkflowCode({ workflowsPath: join(dir, 'src/workflows/index.ts'), logger: quiet });
    return { code, remove: () => rm(dir, { recursive: true, force: true }) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Runs `work` while a worker of the old `code` serves the service's task queue (with today's activities), then stops it. */
export async function withOldWorker<T>(service: TestService, code: string, work: () => Promise<T>): Promise<T> {
  const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  try {
    const worker = await Worker.create({
      connection,
      namespace: 'default',
      taskQueue: service.taskQueue,
      activities: createActivities(service.activityDeps),
      workflowBundle: { code },
      dataConverter: payloadDataConverter(service.payloadKeys),
    });
    return await worker.runUntil(work);
  } finally {
    await connection.close();
  }
}
