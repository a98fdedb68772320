// Order placement benchmark against the embedded stack (`node dist/main.js`), on loopback.
// Usage: npm run build && npm run bench [-- --orders 200 --concurrency 10]
// BENCH_TEMPORAL_ADDRESS=host:port runs against that Temporal instead of the embedded dev server.
// Measures test-mode pricing (media probe included), live orders (Update-with-Start + charge),
// and complete → callback delivery. Results go in docs/benchmarks.md. Side by side with the
// floor (bare Express, bare Update-with-Start): bench/floor.mjs.
import { parseArgs } from 'node:util';
import { measure, startService } from './lib.mjs';

const { values } = parseArgs({ options: { orders: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '10' } } });
const ORDERS = Number(values.orders);
const CONCURRENCY = Number(values.concurrency);

const service = await startService({ concurrency: CONCURRENCY, temporalAddress: process.env.BENCH_TEMPORAL_ADDRESS });
try {
  const { order, ops, complete, receiverUrl } = service;
  await order('test'); // warm-up
  await measure('test-mode order (price + media probe)', ORDERS, CONCURRENCY, () => order('test'));
  const ids = [];
  await measure('live order (Update-with-Start + charge)', ORDERS, CONCURRENCY, async () => ids.push((await order('live', { callback_url: receiverUrl })).order_id));
  const { key } = await ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: benchmark transcript.'));
  await measure('complete → callback delivered', ids.length, CONCURRENCY, (i) => complete(ids[i], key));
} finally {
  await service.stop();
}
