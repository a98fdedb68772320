// An account with a million orders on PostgreSQL: listing pages (first, middle by cursor, last) and
// retrieval by id through the HTTP API, with p99 latencies.
// Usage: npm run build && DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
//          npm run bench:million [-- --orders 1000000 --count 1000]
// Makes (and afterwards drops) the database `order_bench_million` on that server, starts the service
// on it (`node dist/main.js`, its own dev server; `--split` runs one `api` and one `worker` process
// through scripts/cluster.mjs instead), creates one account and seeds its orders with
// bench/seed-orders.sql in one statement. Never part of `npm test`.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { request } from 'undici';
import { benchDatabase, measure, startBareExpress, startService } from './lib.mjs';
import { fixedPlanOf } from '../dist/contracts/orders.js';
import { productOf } from '../dist/products/registry.js';
import { orderPlan } from '../dist/products/shared.js';

const { values } = parseArgs({
  options: { orders: { type: 'string', default: '1000000' }, count: { type: 'string', default: '1000' }, split: { type: 'boolean', default: false } },
});
const ORDERS = Number(values.orders);
const COUNT = Number(values.count);
const database = await benchDatabase('order_bench_million');
await database.fresh();

const service = await startService({
  concurrency: 1,
  ...(values.split ? { cluster: { apis: 1, workers: 1 } } : {}),
  env: { DATABASE_URL: database.url, AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator' },
});
const db = new pg.Client({ connectionString: database.url });
try {
  await db.connect();
  let t = performance.now();
  // The plan the registry gives the seeded orders' parameters (those of seed-orders.sql).
  const params = { language: 'english', text_format: 'clean_verbatim', timestamping: 'not_required', turnaround_time: '5_days', number_of_speakers: '1_or_2' };
  const seededPlan = fixedPlanOf(orderPlan(productOf('transcription'), params));
  await db.query(await readFile(new URL('./seed-orders.sql', import.meta.url), 'utf8'), [service.accountId, ORDERS, JSON.stringify(seededPlan)]);
  await db.query('ANALYZE orders');
  console.error(`seeded ${ORDERS} orders in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const {
    rows: [range],
  } = await db.query('SELECT min(id)::int AS min, max(id)::int AS max, count(*)::int AS n FROM orders WHERE account_id = $1', [service.accountId]);
  if (range.n !== ORDERS) throw new Error(`expected ${ORDERS} orders, found ${range.n}`);

  const { base, token } = service;
  // undici's request over one kept-alive connection: a lighter client than fetch, so the bench's
  // own allocations and pauses add less to the service's tail than they would.
  const getFrom = (origin) => async (path) => {
    const res = await request(`${origin}${path}${path.includes('?') ? '&' : '?'}api_token=${token}`);
    const body = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(body)}`);
    return body;
  };
  const get = getFrom(base);
  // The cursor is what next_page_url carries; pages deep in the list are reached by it.
  const first = await get('/api/v4/orders?mode=live');
  const cursorOf = (url) => new URL(url).searchParams.get('cursor');
  const cursorBefore = (id) =>
    cursorOf(first.next_page_url.replace(/cursor=[^&]+/, `cursor=${Buffer.from(JSON.stringify({ before: id })).toString('base64url')}`));
  const middle = cursorBefore(Math.floor((range.min + range.max) / 2));
  const last = cursorBefore(range.min + 10);
  const lastPage = await get(`/api/v4/orders?mode=live&cursor=${last}`);
  if (lastPage.next_page_url !== null || lastPage.orders.length !== 10) throw new Error('the last page is not the last');

  const rows = [];
  const warm = async (fn) => {
    for (let i = 0; i < 20; i++) await fn(i);
  };
  const run = async (name, fn) => {
    await warm(fn);
    rows.push(await measure(name, COUNT, 1, fn));
  };
  await run('list: first page (20)', () => get('/api/v4/orders?mode=live'));
  await run('list: middle page by cursor (20)', () => get(`/api/v4/orders?mode=live&cursor=${middle}`));
  await run('list: last page (10)', () => get(`/api/v4/orders?mode=live&cursor=${last}`));
  await run('list: first page (100)', () => get('/api/v4/orders?mode=live&per_page=100'));
  await run('get by id (random)', () => get(`/api/v4/orders/${range.min + Math.floor(Math.random() * ORDERS)}?mode=live`));
  // The floor: bare Express in its own process answering the same JSON, through the same client.
  for (const [name, json] of [
    ['page (20)', first],
    ['order', await get(`/api/v4/orders/${range.max}?mode=live`)],
  ]) {
    const floor = await startBareExpress(json);
    try {
      const getFloor = getFrom(floor.url);
      await run(`floor: bare Express, same ${name} JSON`, () => getFloor('/api/v4/orders?mode=live'));
    } finally {
      await floor.stop();
    }
  }

  const { rows: plan } = await db.query('EXPLAIN (ANALYZE, FORMAT TEXT) SELECT * FROM orders WHERE account_id = $1 AND id < $2 ORDER BY id DESC LIMIT 21', [
    service.accountId,
    Math.floor((range.min + range.max) / 2),
  ]);
  console.log(`\n${ORDERS} orders · the middle page's plan:\n${plan.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);
  console.log('| operation | n | per s | p50 ms | p95 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.count} | ${r.per_second} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} | ${r.max_ms} |`);
} finally {
  await db.end().catch(() => undefined);
  await service.stop();
  await database.drop();
}
