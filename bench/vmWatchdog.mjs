// What the Temporal SDK's per-call `vm` watchdog costs (issue 56). The SDK (1.24, reusable V8
// context) calls into a workflow's context with `script.runInContext(context, { timeout })` three to
// five times per activation (activate, tryUnblockConditions, concludeActivation, …), and Node starts
// a watchdog thread for every call with a timeout. This measures one call with and without a timeout
// on a context like the SDK's, on the workflow thread's side (a worker thread, as the SDK runs them).
// Usage: node bench/vmWatchdog.mjs [-- --calls 20000]. Never part of `npm test`.
import { parseArgs } from 'node:util';
import vm from 'node:vm';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

if (isMainThread) {
  const { values } = parseArgs({ options: { calls: { type: 'string', default: '20000' } } });
  const calls = Number(values.calls);
  const result = await new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { calls } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  console.log(JSON.stringify(result));
  const per = (result.withTimeoutUs - result.withoutTimeoutUs).toFixed(1);
  console.log(
    `a call with the SDK's 5 s timeout: ${result.withTimeoutUs.toFixed(1)} µs, without: ${result.withoutTimeoutUs.toFixed(2)} µs; the watchdog: ${per} µs a call`,
  );
} else {
  const context = vm.createContext({});
  vm.runInContext('globalThis.step = () => { let x = 0; for (let i = 0; i < 10; i++) x += i; return x; }', context);
  const script = new vm.Script('step()');
  const time = (options) => {
    for (let i = 0; i < 2000; i++) script.runInContext(context, options); // warm-up
    const started = process.hrtime.bigint();
    for (let i = 0; i < workerData.calls; i++) script.runInContext(context, options);
    return Number(process.hrtime.bigint() - started) / 1000 / workerData.calls;
  };
  const withoutTimeoutUs = time({});
  const withTimeoutUs = time({ timeout: 5000, displayErrors: true });
  parentPort.postMessage({ calls: workerData.calls, withTimeoutUs, withoutTimeoutUs });
}
