// Many open orders held by one worker process with a bounded workflow cache: the worker's memory
// while they pile up, and any of them still completes (replayed from its history) with its
// callback delivered.
// Usage: npm run build && DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
//          npm run bench:open [-- --orders 100000 --cache 500 --concurrency 16 --complete 200]
// One `api` and one `worker` process (scripts/cluster.mjs) on PostgreSQL (it makes and drops the
// database `order_bench_open`) with WORKER_MAX_CACHED_WORKFLOWS=<cache>, against a dev server this
// script starts as `npm start` does (startServiceDevServer: a SQLite file with WAL). Orders are
// placed through the HTTP API; the worker's RSS is read from /proc every tenth of the way. Then
// <complete> orders spread evenly over the whole range (the oldest first, so all but the newest few
// left the cache long ago) are completed by the operator, each until its callback arrives. Never
// part of `npm test`.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startServiceDevServer } from '../dist/temporal/devServer.js';
import { benchDatabase, freePort, measure, startService } from './lib.mjs';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '100000' },
    cache: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '16' },
    complete: { type: 'string', default: '200' },
  },
});
const ORDERS = Number(values.orders);
const CACHE = Number(values.cache);
const C = Number(values.concurrency);
const COMPLETE = Math.min(Number(values.complete), ORDERS);

const database = await benchDatabase('order_bench_open');
await database.fresh();
const tmp = await mkdtemp(join(tmpdir(), 'order-open-'));
const dev = await startServiceDevServer({
  cliPath: process.env.TEMPORAL_CLI_PATH ?? new URL('../.temporal/bin/temporal', import.meta.url).pathname,
  port: await freePort(),
  dbFile: join(tmp, 'temporal.db'),
  namespace: 'default',
});
const service = await startService({
  concurrency: C,
  temporalAddress: dev.address,
  cluster: { apis: 1, workers: 1 },
  balance: ORDERS * 12.5 + 1000, // $12.50 an order
  env: { DATABASE_URL: database.url, AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator', WORKER_MAX_CACHED_WORKFLOWS: String(CACHE) },
});
const db = new pg.Client({ connectionString: database.url });
const rssMiB = async (pid) => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
try {
  await db.connect();
  const { order, ops, complete, receiverUrl, pids } = service;
  const worker = pids['worker-1'];
  const api = pids['api-1'];
  const started = performance.now();
  const samples = [];
  const sample = async (open) => {
    const row = { open, worker: await rssMiB(worker), api: await rssMiB(api), minutes: (performance.now() - started) / 60_000 };
    samples.push(row);
    console.error(`open ${open}: worker RSS ${row.worker.toFixed(0)} MiB, api RSS ${row.api.toFixed(0)} MiB, ${row.minutes.toFixed(1)} min`);
  };
  await sample(0);
  const ids = [];
  const tenth = Math.max(1, Math.floor(ORDERS / 10));
  const placed = await measure(`place ${ORDERS} live orders, cache ${CACHE}`, ORDERS, C, async () => {
    ids.push((await order('live', { callback_url: receiverUrl })).order_id);
    if (ids.length % tenth === 0) await sample(ids.length);
  });
  const {
    rows: [{ open }],
  } = await db.query("SELECT count(*)::int AS open FROM orders WHERE status = 'paid'");
  if (open !== ORDERS) throw new Error(`expected ${ORDERS} open orders, found ${open}`);

  // Spread over the whole range, oldest first: all but the newest few were evicted long ago.
  ids.sort((a, b) => a - b);
  const chosen = Array.from({ length: COMPLETE }, (_, i) => ids[Math.floor((i * ids.length) / COMPLETE)]);
  const { key } = await ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: benchmark transcript.'));
  const done = await measure(`complete ${COMPLETE} orders spread over all ${ORDERS} → callback`, COMPLETE, Math.min(C, 8), (i) => complete(chosen[i], key));
  await sample(ORDERS - COMPLETE);
  const {
    rows: [after],
  } = await db.query("SELECT count(*) FILTER (WHERE status = 'paid')::int AS open, count(*) FILTER (WHERE status = 'finished')::int AS finished FROM orders");
  if (after.finished !== COMPLETE) throw new Error(`expected ${COMPLETE} completed orders, found ${after.finished}`);

  console.log(
    `\n${ORDERS} live orders placed at ${placed.per_second}/s (p50 ${placed.p50_ms} ms), cache ${CACHE}; ${after.open} still open, ${after.finished} completed with their callbacks`,
  );
  console.log('\n| open orders | minutes | worker RSS (MiB) | api RSS (MiB) |\n|---|---|---|---|');
  for (const s of samples) console.log(`| ${s.open} | ${s.minutes.toFixed(1)} | ${s.worker.toFixed(0)} | ${s.api.toFixed(0)} |`);
  console.log(
    `\ncompleting an order (${COMPLETE} spread over the range) → callback received: p50 ${done.p50_ms} ms, p95 ${done.p95_ms} ms, max ${done.max_ms} ms`,
  );
} finally {
  await db.end().catch(() => undefined);
  await service.stop();
  await dev.stop();
  await rm(tmp, { recursive: true, force: true });
  await database.drop();
}
