import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type State as WorkerState } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import { draftTaskQueue, engineTaskQueue } from '../contracts/orders.js';
import { createActivities, type ActivityDeps } from '../activities/index.js';
import { heartbeatInterceptors } from './heartbeats.js';
import { orderLoggerSinks } from './runtime.js';
import { bundleOrderWorkflows } from './workflowBundle.js';

/** The workflow code: the bundle `npm run build` made in dist/, else the source, bundled at start. */
async function workflowCode(): Promise<{ codePath: string } | { code: string }> {
  const bundle = fileURLToPath(new URL('../workflow-bundle.js', import.meta.url));
  if (existsSync(bundle)) return { codePath: bundle };
  const js = fileURLToPath(new URL('../workflows/index.js', import.meta.url));
  return { code: await bundleOrderWorkflows(existsSync(js) ? js : fileURLToPath(new URL('../workflows/index.ts', import.meta.url))) };
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
  /** Drafts at once, on their own queue (default 1). */
  draftConcurrency?: number;
  /** maxCachedWorkflows and maxConcurrentWorkflowTaskExecutions of the order worker (WORKER_MAX_…). */
  tuning?: { maxCachedWorkflows?: number; maxConcurrentWorkflowTaskExecutions?: number };
  /** The payload codec (src/temporal/payloadCodec.ts): workflow inputs, results and heartbeats encrypted. */
  dataConverter: DataConverter;
}

export interface OrderWorkers {
  /** Runs the workers until they are shut down; called again, the same run. */
  run(): Promise<void>;
  /**
   * Stops polling and drains the workers (running activities finish), then resolves once run()
   * ended. Idempotent: a worker already stopping (the SDK's own signal handling, a second call) is left alone.
   */
  shutdown(): Promise<void>;
  /** RUNNING when every worker polls; otherwise the first other state (the readiness check, /readyz). */
  state(): WorkerState;
}

/** Shuts a worker down unless it is already past RUNNING (Worker.shutdown() throws then). */
function shutdownOnce(worker: Worker): void {
  if (worker.getState() === 'RUNNING') worker.shutdown();
}

/** The order workflows and their activities, and engine work and drafts on task queues of their own. */
export async function createOrderWorkers(opts: WorkerOptions): Promise<OrderWorkers> {
  const activities = createActivities(opts.deps);
  const orders = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities,
    interceptors: heartbeatInterceptors,
    // wf.log lines carry the order's orderId and accountId (src/temporal/runtime.ts).
    sinks: orderLoggerSinks(),
    dataConverter: opts.dataConverter,
    ...opts.tuning,
    workflowBundle: opts.workflowBundle ?? (await workflowCode()),
  });
  /** Engine work on a queue of its own, `concurrency` at a time. */
  const engineWorker = (taskQueue: string, engineActivities: Partial<typeof activities>, concurrency = 1) =>
    Worker.create({
      connection: opts.connection,
      namespace: opts.namespace,
      taskQueue,
      activities: engineActivities,
      dataConverter: opts.dataConverter,
      maxConcurrentActivityTaskExecutions: concurrency,
      // Heartbeats carry progress that operators watch: send them within seconds, not the default 30.
      maxHeartbeatThrottleInterval: '2 seconds',
      defaultHeartbeatThrottleInterval: '2 seconds',
    });
  const engines = await engineWorker(
    engineTaskQueue(opts.taskQueue),
    {
      fulfilByEngine: activities.fulfilByEngine,
      // Drafts of orders placed before they had their own queue (patch draftsQueue) are asked for here.
      openWork: activities.openWork,
      timeWork: activities.timeWork,
      timeTypedWords: activities.timeTypedWords,
      checkSuppliedTranscript: activities.checkSuppliedTranscript,
    },
    opts.engineConcurrency,
  );
  const drafts = await engineWorker(draftTaskQueue(opts.taskQueue), { openWork: activities.openWork }, opts.draftConcurrency);
  const workers = [orders, engines, drafts];
  let running: Promise<void> | undefined;
  const run = () => (running ??= Promise.all(workers.map((w) => w.run())).then(() => undefined));
  return {
    run,
    shutdown: async () => {
      if (!running) return;
      workers.forEach(shutdownOnce);
      await running;
    },
    state: () => workers.map((w) => w.getState()).find((state) => state !== 'RUNNING') ?? 'RUNNING',
  };
}
