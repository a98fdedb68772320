// The worker of bench/floor.mjs's bare Update-with-Start floors, in its own process like the
// service's: bundles bench/floorWorkflows.mjs and polls BENCH_TASK_QUEUE on BENCH_TEMPORAL_ADDRESS
// with default worker options. Prints {"running":true} once polling.
import { fileURLToPath } from 'node:url';
import { NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';

Runtime.install({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn: console.error, error: console.error } });
const workflowBundle = await bundleWorkflowCode({
  workflowsPath: fileURLToPath(new URL('./floorWorkflows.mjs', import.meta.url)),
  logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
});
const connection = await NativeConnection.connect({ address: process.env.BENCH_TEMPORAL_ADDRESS });
const worker = await Worker.create({
  connection,
  namespace: 'default',
  taskQueue: process.env.BENCH_TASK_QUEUE,
  workflowBundle,
  activities: { noop: async () => undefined },
});
process.on('SIGINT', () => worker.shutdown());
const running = worker.run();
console.log(JSON.stringify({ running: true }));
await running;
await connection.close();
