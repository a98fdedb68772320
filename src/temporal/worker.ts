import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { engineTaskQueue } from '../contracts/orders.js';
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
  /** Engine activities at once; an engine uses the cores itself (default 1). */
  engineConcurrency?: number;
}

export interface OrderWorkers { run(): Promise<void>; shutdown(): void }

/** The order workflows and their activities, and engine work on a task queue of its own. */
export async function createOrderWorkers(opts: WorkerOptions): Promise<OrderWorkers> {
  const activities = createActivities(opts.deps);
  const orders = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: workflowsPath() }),
  });
  const engines = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: engineTaskQueue(opts.taskQueue),
    activities: { fulfilByEngine: activities.fulfilByEngine },
    maxConcurrentActivityTaskExecutions: opts.engineConcurrency ?? 1,
    // Heartbeats carry progress that operators watch: send them within seconds, not the default 30.
    maxHeartbeatThrottleInterval: '2 seconds',
    defaultHeartbeatThrottleInterval: '2 seconds',
  });
  return {
    run: async () => { await Promise.all([orders.run(), engines.run()]); },
    shutdown: () => { orders.shutdown(); engines.shutdown(); },
  };
}
