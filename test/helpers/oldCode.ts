// The workflow code of an earlier commit, for the upgrade tests: an order placed by it, finished
// by the current code. Its src/ comes from git into a folder inside the checkout (so that it resolves
// this checkout's node_modules) and is bundled as a worker would bundle it.
import { execSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { NativeConnection, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createActivities } from '../../src/activities/index.js';
import { engineTaskQueue } from '../../src/contracts/orders.js';
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

/**
 * Runs `work` while a worker of the old `code` serves the service's task queue (with today's
 * activities), then stops it. `engines`: today's activities serve the engine queue meanwhile too
 * (else engine work waits for the new code's worker).
 */
export async function withOldWorker<T>(service: TestService, code: string, work: () => Promise<T>, opts: { engines?: boolean } = {}): Promise<T> {
  const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  try {
    const common = {
      connection,
      namespace: 'default',
      activities: createActivities(service.activityDeps),
      dataConverter: payloadDataConverter(service.payloadKeys),
    };
    const worker = await Worker.create({ ...common, taskQueue: service.taskQueue, workflowBundle: { code } });
    if (!opts.engines) return await worker.runUntil(work);
    const engines = await Worker.create({ ...common, taskQueue: engineTaskQueue(service.taskQueue) });
    return await engines.runUntil(worker.runUntil(work));
  } finally {
    await connection.close();
  }
}
