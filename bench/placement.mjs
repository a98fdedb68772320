// A human order's placement beside its floor, with customers arriving at a steady pace (an open
// loop: each order starts on its schedule whether the one before has answered or not), and what one
// human order costs Temporal behind its placement.
// Usage: npm run build && [DATABASE_URL=…] npm run bench:placement [-- --seconds 20 --saturate-seconds 10 --engines]
// One dev server (SQLite file, like `npm start`) serves the floors and the service (`node dist/main.js`
// with TEMPORAL_ADDRESS on it), on the same cores:
//   1. the floors saturated (concurrency 8 for --saturate-seconds): bare Update-with-Start whose
//      update runs one no-op activity, and one no-op local activity (bench/floorWorkflows.mjs, worker
//      in its own process); half the first's rate is the pace of what follows;
//   2. at that pace for --seconds each: the floor with an activity, live human transcription orders
//      (each opening its draft and task behind its placement), the floor again (the run's noise);
//   3. live human transcription orders saturated, beside the floors' saturated rates;
//   4. the Temporal work behind one order until its task waits for a person: workflow tasks,
//      activities, local activities and child workflows, from the histories of the order's workflow
//      and its children.
// Engines are off (AI_ENGINE=operator: the draft is empty at once) unless --engines. The service
// runs on PGlite (as `npm start`), or with DATABASE_URL set on a database of its own there.
// Never part of `npm test`.
import { parseArgs } from 'node:util';
import { benchDatabase, cpuOfParts, quantile, startFloors, startService } from './lib.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    'saturate-seconds': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    engines: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const SATURATE = Number(values['saturate-seconds']);
const C = Number(values.concurrency);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The processes whose CPU each phase reports per order: the service (API and workers), Temporal's dev server, the floors' worker. */
const PARTS = { service: /dist\/main\.js/, temporal: /start-dev/, floorWorker: /floorWorker\.mjs/ };

function summary(name, latencies, seconds, failures = 0, cpuBefore) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const cpuAfter = cpuOfParts(PARTS);
  const row = {
    name,
    count: sorted.length,
    failures,
    per_second: +(sorted.length / seconds).toFixed(1),
    p50_ms: +quantile(sorted, 0.5).toFixed(1),
    p95_ms: +quantile(sorted, 0.95).toFixed(1),
    p99_ms: +quantile(sorted, 0.99).toFixed(1),
    max_ms: +sorted.at(-1).toFixed(1),
    // CPU ms per order of each process (10 ms ticks): where the cores went.
    cpu_ms_per_order: Object.fromEntries(Object.keys(cpuAfter).map((k) => [k, +((cpuAfter[k] - cpuBefore[k]) / sorted.length).toFixed(2)])),
  };
  console.log(JSON.stringify(row));
  return row;
}

/** Closed loop: `C` at a time for `seconds`. */
async function saturated(name, once) {
  const latencies = [];
  const cpuBefore = cpuOfParts(PARTS);
  const until = performance.now() + SATURATE * 1000;
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await once(i++);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return summary(name, latencies, (performance.now() - started) / 1000, 0, cpuBefore);
}

/** Open loop: one start every 1/rate s for `seconds`, each on its schedule; latencies from the schedule. */
async function paced(name, rate, once) {
  const latencies = [];
  let failures = 0;
  const cpuBefore = cpuOfParts(PARTS);
  const count = Math.round(rate * SECONDS);
  const t0 = performance.now() + 50;
  const inFlight = [];
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      once(i).then(
        () => latencies.push(performance.now() - due),
        () => (failures += 1),
      ),
    );
  }
  await Promise.all(inFlight);
  return summary(name, latencies, SECONDS, failures, cpuBefore);
}

/** The service's event-loop lag since the last read of its /metrics (prom-client resets it then): p50, p99, max in ms. */
async function eventLoopLag(service) {
  const text = await fetch(`${service.base}/metrics`).then((r) => r.text());
  const ms = (name) => +(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) * 1000).toFixed(1);
  return { p50: ms('nodejs_eventloop_lag_p50_seconds'), p99: ms('nodejs_eventloop_lag_p99_seconds'), max: ms('nodejs_eventloop_lag_max_seconds') };
}

/** Workflow tasks, activities, local activities and children in one workflow's history so far. */
async function temporalWork(client, workflowId) {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const count = (attribute) => events.filter((e) => e[attribute]).length;
  // Local activities leave a marker (their payloads are encrypted: the marker's name tells).
  const localActivities = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
  const children = events
    .filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)
    .map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes.workflowId);
  return {
    workflowTasks: count('workflowTaskCompletedEventAttributes'),
    activities: count('activityTaskScheduledEventAttributes'),
    localActivities,
    children,
    events: events.length,
  };
}

const stops = [];
try {
  const { dev, client, uws } = await startFloors(stops);
  const env = values.engines ? {} : { AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator', DIARIZER: 'none' };
  if (process.env.DATABASE_URL) {
    const database = await benchDatabase('bench_placement');
    await database.fresh();
    stops.push(() => database.drop());
    env.DATABASE_URL = database.url;
  }
  console.error(`database: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`);
  const service = await startService({
    concurrency: C,
    temporalAddress: dev.address,
    env,
    nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROFILE] : [],
  });
  stops.push(() => service.stop());

  const placed = [];
  const live = async () => {
    const { order_id: id } = await service.order('live');
    placed.push(id);
  };
  /** Until no task has opened for 3 s: the orders before have their work in the queue, nothing inherited. */
  const settle = async () => {
    let last = -1;
    for (;;) {
      const { tasks } = await service.ops('GET', '/ops/tasks?status=waiting');
      if (tasks.length === last) return;
      last = tasks.length;
      await sleep(3000);
    }
  };

  // Warm-up, unmeasured.
  for (let i = 0; i < 20; i++) await Promise.all([uws('activity')(), uws('local')(), live()]);
  await settle();

  const floorActivity = await saturated('floor, saturated: bare Update-with-Start + no-op activity', uws('activity'));
  const floorLocal = await saturated('floor, saturated: bare Update-with-Start + no-op local activity', uws('local'));
  const rate = floorActivity.per_second / 2;
  console.error(`pace: ${rate.toFixed(1)} orders/s (half the floor's saturated rate), ${SECONDS} s each`);
  const bareA = await paced(`floor at ${rate.toFixed(1)}/s: bare Update-with-Start + no-op activity (A)`, rate, uws('activity'));
  await settle();
  const first = placed.length;
  await eventLoopLag(service); // prom-client measures the lag between two reads: this one starts the window
  const human = await paced(`service at ${rate.toFixed(1)}/s: live human transcription order`, rate, live);
  // How long the service's main thread kept a ready callback waiting during the paced orders.
  console.log(JSON.stringify({ service_event_loop_lag_ms_while_paced: await eventLoopLag(service) }));
  const paced_ids = placed.slice(first);
  await settle();
  const bareB = await paced(`floor at ${rate.toFixed(1)}/s: bare Update-with-Start + no-op activity (B)`, rate, uws('activity'));
  const liveSaturated = await saturated('service, saturated: live human transcription order', live);
  await settle();

  // What one order costs Temporal until its task waits (a few orders from the paced run, their work settled).
  const works = [];
  for (const id of paced_ids.slice(0, 5)) {
    const order = await temporalWork(client, `order-${id}`);
    const children = await Promise.all(order.children.map((wid) => temporalWork(client, wid)));
    works.push({
      workflowTasks: order.workflowTasks + children.reduce((s, c) => s + c.workflowTasks, 0),
      activities: order.activities + children.reduce((s, c) => s + c.activities, 0),
      localActivities: order.localActivities + children.reduce((s, c) => s + c.localActivities, 0),
      children: order.children.length,
      events: order.events + children.reduce((s, c) => s + c.events, 0),
    });
  }
  console.log(JSON.stringify({ temporal_work_per_order_until_its_task_waits: works }));

  const x = (a, b) => `${(a / b).toFixed(2)}×`;
  const bare = { p50_ms: Math.min(bareA.p50_ms, bareB.p50_ms), p99_ms: Math.min(bareA.p99_ms, bareB.p99_ms) };
  console.log(`\n| at ${rate.toFixed(1)} orders/s, open loop | p50 ms | p95 ms | p99 ms | failures |\n|---|---|---|---|---|`);
  for (const r of [bareA, human, bareB]) console.log(`| ${r.name} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} | ${r.failures} |`);
  console.log(
    `\nhuman order / floor (the better of A and B): p50 ${x(human.p50_ms, bare.p50_ms)} (goal ≤ 1.1×), p99 ${x(human.p99_ms, bare.p99_ms)} (goal ≤ 1.25×)`,
  );
  console.log(`\n| saturated, concurrency ${C} | per s | p50 ms |\n|---|---|---|`);
  for (const r of [floorActivity, floorLocal, liveSaturated]) console.log(`| ${r.name} | ${r.per_second} | ${r.p50_ms} |`);
  console.log(
    `\nhuman order saturated / floor with an activity: ${x(liveSaturated.per_second, floorActivity.per_second)}; / floor with a local activity: ${x(liveSaturated.per_second, floorLocal.per_second)}`,
  );
  const w = works[0];
  if (w)
    console.log(
      `one order until its task waits: ${w.workflowTasks} workflow tasks, ${w.activities} activities, ${w.localActivities} local activities, ${w.children} child workflows, ${w.events} history events`,
    );
} finally {
  for (const stop of stops.reverse()) await stop().catch((err) => console.error(String(err)));
}
