import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities/index.js';

/** The workflow entry point: compiled JavaScript in dist/, TypeScript when run from src/ (tests). */
export function workflowsPath(): string {
  const js = fileURLToPath(new URL('../workflows/index.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
}

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** A prebuilt workflow bundle (tests build one per run); otherwise the source is bundled. */
  workflowBundle?: { codePath: string };
}

export function createOrderWorker(opts: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: createActivities(opts.deps),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: workflowsPath() }),
  });
}
