// Scale-out, measured in one run on the same cores: live orders and complete → callback on
//   1. the embedded single process (`npm start`: PGlite, its own dev server),
//   2. one api and one worker process on PostgreSQL (scripts/cluster.mjs with CLUSTER_APIS=1, CLUSTER_WORKERS=1),
//   3. the cluster: two api and two worker processes on PostgreSQL (`npm run start:cluster`),
// each against a Temporal dev server of its own (SQLite file). Orders go to the APIs in turn.
// Usage: npm run build && DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
//          npm run bench:cluster [-- --count 200 --concurrency 8]
// Makes and drops the database `order_bench_cluster` on that server. Never part of `npm test`.
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { benchDatabase, measure, startService } from './lib.mjs';

const { values } = parseArgs({ options: { count: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '8' } } });
const COUNT = Number(values.count);
const C = Number(values.concurrency);
const database = await benchDatabase('order_bench_cluster');

const setups = [
  { name: 'embedded (1 process, PGlite)', options: {} },
  { name: '1 api + 1 worker, PostgreSQL', options: { cluster: { apis: 1, workers: 1 } }, postgres: true },
  { name: '2 api + 2 worker, PostgreSQL', options: { cluster: { apis: 2, workers: 2 } }, postgres: true },
];
const results = [];
try {
  for (const setup of setups) {
    if (setup.postgres) await database.fresh();
    const env = { AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator', ...(setup.postgres ? { DATABASE_URL: database.url } : {}) };
    const service = await startService({ concurrency: C, env, ...setup.options });
    try {
      const { order, ops, complete, receiverUrl } = service;
      for (let i = 0; i < 10; i++) await order('live', { callback_url: receiverUrl });
      const ids = [];
      const live = await measure(`${setup.name}: live order`, COUNT, C, async () => ids.push((await order('live', { callback_url: receiverUrl })).order_id));
      const { key } = await ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: benchmark transcript.'));
      const done = await measure(`${setup.name}: complete → callback`, ids.length, C, (i) => complete(ids[i], key));
      results.push({ setup: setup.name, live, done });
    } finally {
      await service.stop();
    }
  }
} finally {
  await database.drop();
}

const cpu = cpus();
console.log(
  `\n${new Date().toISOString()} · ${cpu.length} × ${cpu[0]?.model} · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.version} · concurrency ${C}, ${COUNT} orders\n`,
);
console.log('| setup | live orders/s | p50 ms | p95 ms | vs embedded | complete → callback /s | p50 ms |\n|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.setup} | ${r.live.per_second} | ${r.live.p50_ms} | ${r.live.p95_ms} | ${(r.live.per_second / results[0].live.per_second).toFixed(2)}× | ${r.done.per_second} | ${r.done.p50_ms} |`,
  );
}
