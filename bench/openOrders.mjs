// Many open orders on one worker with a bounded workflow cache: the process's memory while they
// pile up, and any of them still completes (replayed from its history) with its callback delivered.
// Usage: npm run build && npm run bench:open [-- --orders 2000 --cache 200 --concurrency 8 --complete 100]
// The embedded stack (`node dist/main.js`: PGlite, worker and API in one process, its own dev
// server) with WORKER_MAX_CACHED_WORKFLOWS=<cache>. Never part of `npm test`.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { measure, startService } from './lib.mjs';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '2000' }, cache: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '8' }, complete: { type: 'string', default: '100' },
  },
});
const ORDERS = Number(values.orders);
const CACHE = Number(values.cache);
const C = Number(values.concurrency);
const COMPLETE = Math.min(Number(values.complete), ORDERS);

const service = await startService({
  concurrency: C, env: { AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator', WORKER_MAX_CACHED_WORKFLOWS: String(CACHE) },
});
const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${service.pid}/status`, 'utf8'))[1]) / 1024;
try {
  const { order, ops, complete, receiverUrl } = service;
  const samples = [{ open: 0, rss: rssMiB() }];
  const ids = [];
  await measure(`place ${ORDERS} live orders, cache ${CACHE}`, ORDERS, C, async () => {
    ids.push((await order('live', { callback_url: receiverUrl })).order_id);
    if (ids.length % Math.max(1, Math.floor(ORDERS / 10)) === 0) samples.push({ open: ids.length, rss: rssMiB() });
  });
  samples.push({ open: ids.length, rss: rssMiB() });
  // The oldest orders left the cache long ago: completing them replays their histories.
  const { key } = await ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: benchmark transcript.'));
  const oldest = [...ids].sort((a, b) => a - b).slice(0, COMPLETE);
  const done = await measure(`complete ${COMPLETE} of the oldest → callback`, COMPLETE, C, (i) => complete(oldest[i], key));
  samples.push({ open: ids.length - COMPLETE, rss: rssMiB() });
  const pending = await ops('GET', '/ops/orders/pending');
  console.log(`\nopen orders listed by order-ops pending: ${pending.orders.length} (placed ${ORDERS}, completed ${COMPLETE})`);
  console.log('\n| open orders | RSS of the worker process (MiB) |\n|---|---|');
  for (const s of samples) console.log(`| ${s.open} | ${s.rss.toFixed(0)} |`);
  console.log(`\ncompleting an evicted order → callback received: p50 ${done.p50_ms} ms, p95 ${done.p95_ms} ms`);
} finally {
  await service.stop();
}
