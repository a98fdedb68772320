// The service side by side with its floor, in one run, on one Temporal dev server and the same cores.
// Usage: npm run build && npm run bench [-- --concurrency 1 --count 100 --fast-count 500 --product-count 50]
// One dev server (SQLite file, like `npm start`) serves both the floors and the service:
//   floor 1  bare Express (bench/bareExpress.mjs, own process) answering a test quote's JSON;
//   floor 2  bare Update-with-Start whose update runs one no-op activity;
//   floor 3  the same with one no-op local activity (bench/floorWorkflows.mjs, worker in its own
//            process: bench/floorWorker.mjs);
//   service  test quote, live order (transcription, then every other product from its example
//            request in the OpenAPI document), complete → callback, listing a page
//            (`node dist/main.js` with TEMPORAL_ADDRESS on the same dev server).
// Prints one JSON line per measurement, then a table with the ratios. Never part of `npm test`.
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { measure, productExamples, startBareExpress, startFloors, startService } from './lib.mjs';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1' },
    count: { type: 'string', default: '100' }, // Temporal-bound operations (floors 2–3, live, complete)
    'fast-count': { type: 'string', default: '500' }, // HTTP-only operations (floor 1, quote, listing)
    'product-count': { type: 'string', default: '50' }, // live orders of each product
    warmup: { type: 'string', default: '10' },
  },
});
const C = Number(values.concurrency);
const COUNT = Number(values.count);
const FAST = Number(values['fast-count']);
const PER_PRODUCT = Number(values['product-count']);
const WARMUP = Number(values.warmup);

const stops = [];
const rows = {};
const run = async (key, name, count, once) => {
  for (let i = 0; i < WARMUP; i++) await once(-1 - i);
  rows[key] = await measure(name, count, C, once);
};

try {
  const { dev, uws } = await startFloors(stops);
  console.error(`dev server ${dev.address}, concurrency ${C}, count ${COUNT}, fast-count ${FAST}`);

  // The service, against the same dev server; the speech engines stay out (operator only).
  const service = await startService({ concurrency: C, temporalAddress: dev.address, env: { AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator' } });
  stops.push(() => service.stop());
  const quote = await service.order('test');

  // Floor 1: bare Express answering the same JSON.
  const express = await startBareExpress(quote);
  stops.push(() => express.stop());
  const bare = () =>
    fetch(`${express.url}/api/v4/transcriptions`, {
      method: 'POST',
      body: new URLSearchParams({ api_token: service.token, mode: 'test', url: `${service.mediaUrl}/a.wav`, language: 'english' }),
    }).then(async (r) => {
      await r.json();
      if (r.status !== 200) throw new Error(String(r.status));
    });

  // Floors 2–3: bare Update-with-Start (startFloors: the worker in its own process, the client here).

  const { order, ops, complete, receiverUrl, base, token } = service;
  await run('express', 'floor: bare Express, same JSON', FAST, bare);
  await run('quote', 'service: test quote (price + media probe)', FAST, () => order('test'));
  await run('uwsActivity', 'floor: bare Update-with-Start + no-op activity', COUNT, uws('activity'));
  await run('uwsLocal', 'floor: bare Update-with-Start + no-op local activity', COUNT, uws('local'));
  const ids = [];
  await run('live', 'service: live order, transcriptions (Update-with-Start + charge)', COUNT, async (i) => {
    const { order_id: id } = await order('live', { callback_url: receiverUrl });
    if (i >= 0) ids.push(id);
  });
  // A live order of every product, from its example in the OpenAPI document (files on the bench's media server).
  const { orderAt, mediaUrl } = service;
  for (const [product, fields] of Object.entries(productExamples(mediaUrl))) {
    if (product === 'transcriptions') continue; // the row above
    await run(`live ${product}`, `service: live order, ${product}`, PER_PRODUCT, () => orderAt(product, fields));
  }
  const { key } = await ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: benchmark transcript.'));
  rows.complete = await measure('service: operator complete → callback received', ids.length, C, (i) => complete(ids[i], key));
  const page = await fetch(`${base}/api/v4/orders?api_token=${token}&mode=live`).then((r) => r.json());
  await run('list', `service: list a page (GET /api/v4/orders, live, ${page.orders.length} orders)`, FAST, () =>
    fetch(`${base}/api/v4/orders?api_token=${token}&mode=live`).then(async (r) => {
      await r.json();
      if (r.status !== 200) throw new Error(String(r.status));
    }),
  );

  const x = (a, b) => `${(a / b).toFixed(2)}×`;
  const ratio = (name, svc, floor, target) => ({
    name,
    throughput: x(rows[svc].per_second, rows[floor].per_second),
    p50: x(rows[svc].p50_ms, rows[floor].p50_ms),
    target,
  });
  const ratios = [
    ratio('test quote / bare Express', 'quote', 'express', 'throughput ≥ 0.5×'),
    ratio('live order / bare UwS + activity', 'live', 'uwsActivity', 'throughput ≥ 1.0×, p50 ≤ 1.0×'),
    ratio('live order / bare UwS + local activity', 'live', 'uwsLocal', '—'),
    ...Object.keys(rows)
      .filter((k) => k.startsWith('live '))
      .map((k) => ratio(`${k} / bare UwS + activity`, k, 'uwsActivity', 'throughput ≥ 1.0×, p50 ≤ 1.0×')),
  ];
  for (const r of ratios) console.log(JSON.stringify({ ratio: r.name, concurrency: C, throughput: r.throughput, p50: r.p50 }));
  const cpu = cpus();
  console.log(
    `\n${new Date().toISOString()} · ${cpu.length} × ${cpu[0]?.model} · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.version} · concurrency ${C}\n`,
  );
  console.log('| operation | n | per s | p50 ms | p95 ms |\n|---|---|---|---|---|');
  for (const r of Object.values(rows)) console.log(`| ${r.name} | ${r.count} | ${r.per_second} | ${r.p50_ms} | ${r.p95_ms} |`);
  console.log('\n| ratio | throughput | p50 | target |\n|---|---|---|---|');
  for (const r of ratios) console.log(`| ${r.name} | ${r.throughput} | ${r.p50} | ${r.target} |`);
} finally {
  for (const stop of stops.reverse()) await stop().catch((err) => console.error(err));
}
