// A human order's placement beside its floor, with customers arriving at a steady pace (an open
// loop: each order starts on its schedule whether the one before has answered or not), and what one
// human order costs Temporal behind its placement.
// Usage: npm run build && [DATABASE_URL=…] npm run bench:placement [-- --seconds 20 --block-seconds 5 --saturate-seconds 10 --engines]
// One dev server (SQLite file, like `npm start`) serves the floors and the service (`node dist/main.js`
// with TEMPORAL_ADDRESS on it), on the same cores:
//   1. the floors saturated (concurrency 8 for --saturate-seconds): bare Update-with-Start whose
//      update runs one no-op activity, and one no-op local activity (bench/floorWorkflows.mjs, worker
//      in its own process); half the first's rate is the pace of what follows;
//   2. at that pace, the floor with an activity and live human transcription orders (each opening its
//      draft and task behind its placement) in turns of --block-seconds, until each had --seconds:
//      a slower stretch of the machine falls on both alike;
//   3. live human transcription orders saturated, beside the floors' saturated rates;
//   4. the Temporal work behind one order until its task waits for a person: workflow tasks,
//      activities, local activities and child workflows, from the histories of the order's workflow
//      and its children.
// Engines are off (AI_ENGINE=operator: the draft is empty at once) unless --engines. The service
// runs on PGlite (as `npm start`), or with DATABASE_URL set on a database of its own there.
// With --profile-only (and BENCH_PROFILE=<dir>, where the service writes its CPU profiles) only the
// floors' saturated rate and then live human orders at half of it for --seconds are run, so that
// the profiles hold the paced load and what runs behind it: `node bench/profileParts.mjs <dir>/*`.
// Never part of `npm test`.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchDatabase, cpuOfParts, quantile, startFloors, startService } from './lib.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    'block-seconds': { type: 'string', default: '5' },
    'saturate-seconds': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    engines: { type: 'boolean', default: false },
    'profile-only': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const BLOCK = Number(values['block-seconds']);
const SATURATE = Number(values['saturate-seconds']);
const C = Number(values.concurrency);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The processes whose CPU each phase reports per order: the service (API and workers), Temporal's dev server, the floors' worker. */
const PARTS = { service: /dist\/main\.js/, temporal: /start-dev/, floorWorker: /floorWorker\.mjs/ };

/** The CPU each part spent since `before` (cpuOfParts), ms. */
const cpuSince = (before) => {
  const after = cpuOfParts(PARTS);
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
};

/** The whole machine's idle, steal and total ticks so far (/proc/stat): their growth over a stream's turns is its share. */
function machineTicks() {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return { idle: f[3], steal: f[7] ?? 0, total: f.reduce((a, b) => a + b, 0) };
}

function summary(name, latencies, seconds, failures, cpu, ticks) {
  const sorted = [...latencies].sort((a, b) => a - b);
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
    cpu_ms_per_order: Object.fromEntries(Object.entries(cpu).map(([k, ms]) => [k, +(ms / sorted.length).toFixed(2)])),
    // The machine's own pace: time the hypervisor gave to others (steal), and what was left idle.
    ...(ticks && { machine_steal_pct: +((100 * ticks.steal) / ticks.total).toFixed(1), machine_idle_pct: +((100 * ticks.idle) / ticks.total).toFixed(1) }),
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
  return summary(name, latencies, (performance.now() - started) / 1000, 0, cpuSince(cpuBefore));
}

/** Open loop: one start every 1/rate s for `seconds`, each on its schedule; latencies from the schedule, into `into`. */
async function paced(rate, seconds, once, into) {
  const cpuBefore = cpuOfParts(PARTS);
  const ticksBefore = machineTicks();
  const count = Math.round(rate * seconds);
  const t0 = performance.now() + 50;
  const inFlight = [];
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      once(i).then(
        () => into.latencies.push(performance.now() - due),
        () => (into.failures += 1),
      ),
    );
  }
  await Promise.all(inFlight);
  const cpu = cpuSince(cpuBefore);
  for (const [k, ms] of Object.entries(cpu)) into.cpu[k] = (into.cpu[k] ?? 0) + ms;
  const ticks = machineTicks();
  for (const k of ['idle', 'steal', 'total']) into.ticks[k] += ticks[k] - ticksBefore[k];
}

/**
 * The streams at `rate` in turns of BLOCK s (a pause of a second between turns, for the work each
 * left behind), until each had SECONDS: the machine's slower stretches fall on all of them.
 */
async function inTurns(rate, streams) {
  const runs = streams.map(() => ({ latencies: [], failures: 0, cpu: {}, ticks: { idle: 0, steal: 0, total: 0 } }));
  for (let done = 0; done < SECONDS; done += BLOCK) {
    for (const [i, { once }] of streams.entries()) {
      await paced(rate, Math.min(BLOCK, SECONDS - done), once, runs[i]);
      await sleep(1000);
    }
  }
  return streams.map(({ name }, i) => summary(name, runs[i].latencies, SECONDS, runs[i].failures, runs[i].cpu, runs[i].ticks));
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
  if (values['profile-only']) {
    const run = { latencies: [], failures: 0, cpu: {}, ticks: { idle: 0, steal: 0, total: 0 } };
    const before = placed.length;
    await paced(rate, SECONDS, live, run);
    summary(`service at ${rate.toFixed(1)}/s: live human transcription order (profiled)`, run.latencies, SECONDS, run.failures, run.cpu, run.ticks);
    console.log(JSON.stringify({ orders_in_profile: placed.length, paced: placed.length - before, service_event_loop_lag_ms: await eventLoopLag(service) }));
  } else {
    const first = placed.length;
    await eventLoopLag(service); // prom-client measures the lag between two reads: this one starts the window
    const [bare, human] = await inTurns(rate, [
      { name: `floor at ${rate.toFixed(1)}/s: bare Update-with-Start + no-op activity`, once: uws('activity') },
      { name: `service at ${rate.toFixed(1)}/s: live human transcription order`, once: live },
    ]);
    // How long the service's main thread kept a ready callback waiting (both streams' turns).
    console.log(JSON.stringify({ service_event_loop_lag_ms_while_paced: await eventLoopLag(service) }));
    const paced_ids = placed.slice(first);
    await settle();
    const liveSaturated = await saturated('service, saturated: live human transcription order', live);

    // What one order costs Temporal until its task waits (a few orders from the paced run, settled before the saturated run).
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
    console.log(`\n| at ${rate.toFixed(1)} orders/s, open loop, in turns of ${BLOCK} s | p50 ms | p95 ms | p99 ms | failures |\n|---|---|---|---|---|`);
    for (const r of [bare, human]) console.log(`| ${r.name} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} | ${r.failures} |`);
    console.log(`\nhuman order / floor: p50 ${x(human.p50_ms, bare.p50_ms)} (goal ≤ 1.1×), p99 ${x(human.p99_ms, bare.p99_ms)} (goal ≤ 1.25×)`);
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
  }
} finally {
  for (const stop of stops.reverse()) await stop().catch((err) => console.error(String(err)));
}
