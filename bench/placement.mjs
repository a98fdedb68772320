// A human order's placement beside its floor, with customers arriving at a steady pace (an open
// loop: each order starts on its schedule whether the one before has answered or not), and what one
// human order costs Temporal behind its placement.
// Usage: npm run build && [DATABASE_URL=…] npm run bench:placement [-- --seconds 20 --block-seconds 5 --saturate-seconds 10 --engines --media long|short]
//        npm run build && [DATABASE_URL=…] npm run bench:placement -- --sequential [--seconds 20 --saturate-seconds 10 --settle-seconds 5 --engines --media long|short]
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
// With --sequential the phases run one after the other instead of in turns, each from a cold start
// (the phase before has had every request answered, the orders' tasks have opened, then
// --settle-seconds, then until the service, Temporal and the floors' worker together use under a
// tenth of a core over a second, for at most 30 s): the floors saturated (the pace, as above), the
// floor with an activity at that pace for --seconds, live human orders at that pace for --seconds,
// live human orders saturated.
// Each row also gives the service's main thread's CPU per order (/proc/<pid>/task/<pid>/stat), the
// service's event-loop delay over the phase (p50/p99/max of prom-client's monitorEventLoopDelay on
// /metrics, reset at each scrape; sampled every 10 ms, so an idle loop reads about 10 ms) and the
// machine's idle and steal share. In turns the two streams' delays are one window: the
// service_event_loop_lag_ms_while_paced line.
// --media long (the default) orders a 10-minute WAV, --media short a 60-second one: both 8 kHz,
// 8-bit unsigned mono PCM, served with a strong ETag by the bench's media server (lib.mjs).
// Engines are off (AI_ENGINE=operator: the draft is empty at once) unless --engines. The service
// runs on PGlite (as `npm start`), or with DATABASE_URL set on a database of its own there.
// With --profile-only (and BENCH_PROFILE=<dir>, where the service writes its CPU profiles) only the
// floors' saturated rate and then live human orders at half of it for --seconds are run, so that
// the profiles hold the paced load and what runs behind it: `node bench/profileParts.mjs <dir>/*`.
// Never part of `npm test`.
import { parseArgs } from 'node:util';
import { benchDatabase, cpuMs, cpuOfParts, machineTicks, quantile, startFloors, startService } from './lib.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    'block-seconds': { type: 'string', default: '5' },
    'saturate-seconds': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    engines: { type: 'boolean', default: false },
    'profile-only': { type: 'boolean', default: false },
    sequential: { type: 'boolean', default: false },
    'settle-seconds': { type: 'string', default: '5' },
    media: { type: 'string', default: 'long' },
  },
});
if (!['long', 'short'].includes(values.media)) throw new Error(`--media is long (a 10-minute WAV) or short (a 60-second one), not ${values.media}`);
const SECONDS = Number(values.seconds);
const BLOCK = Number(values['block-seconds']);
const SATURATE = Number(values['saturate-seconds']);
const C = Number(values.concurrency);
const SETTLE = Number(values['settle-seconds']);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The processes whose CPU each phase reports per order: the service (API and workers), Temporal's dev server, the floors' worker. */
const PARTS = { service: /dist\/main\.js/, temporal: /start-dev/, floorWorker: /floorWorker\.mjs/ };

/** The CPU each part spent since `before` (cpuOfParts), ms. */
const cpuSince = (before) => {
  const after = cpuOfParts(PARTS);
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
};

const ticksSince = (before) => {
  const now = machineTicks();
  return { idle: now.idle - before.idle, steal: now.steal - before.steal, total: now.total - before.total };
};

/** The service's process (`node dist/main.js`), once started: its pid and base URL. */
let service;

/** CPU ms so far of the service's main thread. */
const mainThreadMs = () => cpuMs(service.pid, service.pid);

/**
 * Starts a phase's window on the service's event loop (the /metrics scrape resets prom-client's
 * histogram); `end()` reads the delay over the phase.
 */
async function lagWindow() {
  await eventLoopLag(service);
  return { end: () => eventLoopLag(service) };
}

const round = (ms) => (ms === undefined ? null : +ms.toFixed(1));

/**
 * One JSON row. `cpu`: each part's CPU ms; `ticks`: the machine's /proc/stat ticks over the phase;
 * `main`: the service's main thread's CPU ms and its event-loop delay (or a note where it has none of its own); `extra` is added.
 */
function summary(name, latencies, seconds, failures, cpu, ticks, main, extra) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const row = {
    name,
    count: sorted.length,
    failures,
    per_second: +(sorted.length / seconds).toFixed(1),
    p50_ms: round(quantile(sorted, 0.5)),
    p95_ms: round(quantile(sorted, 0.95)),
    p99_ms: round(quantile(sorted, 0.99)),
    max_ms: round(sorted.at(-1)),
    // CPU ms per order of each process (10 ms ticks): where the cores went.
    cpu_ms_per_order: Object.fromEntries(Object.entries(cpu).map(([k, ms]) => [k, +(ms / sorted.length).toFixed(2)])),
    // The service's main thread alone (its API, the workers' workflow and activity code on it), and how long it kept a ready callback waiting.
    ...(main && { service_main_thread_cpu_ms_per_order: +(main.ms / sorted.length).toFixed(2), service_event_loop_delay_ms: main.lag }),
    // The machine's own pace: time the hypervisor gave to others (steal), and what was left idle.
    ...(ticks && { machine_steal_pct: +((100 * ticks.steal) / ticks.total).toFixed(1), machine_idle_pct: +((100 * ticks.idle) / ticks.total).toFixed(1) }),
    ...extra,
  };
  console.log(JSON.stringify(row));
  return row;
}

/** Closed loop: `C` at a time for `seconds`. */
async function saturated(name, once, extra) {
  const latencies = [];
  const lag = await lagWindow();
  const mainBefore = mainThreadMs();
  const ticksBefore = machineTicks();
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
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSince(cpuBefore);
  const ticks = ticksSince(ticksBefore);
  const main = { ms: mainThreadMs() - mainBefore, lag: await lag.end() };
  return summary(name, latencies, seconds, 0, cpu, ticks, main, extra);
}

/** Open loop: one start every 1/rate s for `seconds`, each on its schedule; latencies from the schedule, into `into`. */
async function paced(rate, seconds, once, into) {
  const cpuBefore = cpuOfParts(PARTS);
  const ticksBefore = machineTicks();
  const mainBefore = mainThreadMs();
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
  into.mainMs = (into.mainMs ?? 0) + mainThreadMs() - mainBefore;
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
  const main = (run) => ({ ms: run.mainMs, lag: 'both streams in one window: service_event_loop_lag_ms_while_paced' });
  return streams.map(({ name }, i) => summary(name, runs[i].latencies, SECONDS, runs[i].failures, runs[i].cpu, runs[i].ticks, main(runs[i])));
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
  console.error(`database: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; media: ${values.media === 'short' ? 'a 60-second' : 'a 10-minute'} WAV`);
  service = await startService({
    concurrency: C,
    temporalAddress: dev.address,
    env,
    nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROFILE] : [],
  });
  stops.push(() => service.stop());

  const placed = [];
  // The 60-second WAV is at /short.wav on the bench's media server, the 10-minute one at any other path.
  const extra = values.media === 'short' ? { url: `${service.mediaUrl}/short.wav` } : {};
  const orderName = `live human transcription order${values.media === 'short' ? ' (60-s WAV)' : ''}`;
  const live = async () => {
    const { order_id: id } = await service.order('live', extra);
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

  let settledAt = placed.length;
  /**
   * Before a sequential phase (the one before has had all its requests answered: its loop awaited
   * them): until the orders placed since the last cold start have their tasks open (settle), then
   * SETTLE s, then until the service (and its children), Temporal and the floors' worker together
   * used under 100 ms of CPU in a second, for at most 30 s. Returns the seconds it waited.
   */
  const coldStart = async () => {
    const started = performance.now();
    if (placed.length > settledAt) await settle();
    settledAt = placed.length;
    await sleep(SETTLE * 1000);
    const busy = () => cpuOfParts(PARTS);
    let used;
    for (let i = 0; i < 30; i++) {
      const before = busy();
      await sleep(1000);
      const cpu = cpuSince(before);
      used = cpu.service + cpu.temporal + cpu.floorWorker;
      if (used < 100) break;
    }
    if (used >= 100) console.error(`cold start: still ${used} ms of CPU a second after 30 s, going on`);
    return +((performance.now() - started) / 1000).toFixed(1);
  };
  const sequential = values.sequential;

  const floorActivity = await saturated(
    'floor, saturated: bare Update-with-Start + no-op activity',
    uws('activity'),
    sequential && { cold_start_wait_s: await coldStart() },
  );
  const floorLocal = await saturated(
    'floor, saturated: bare Update-with-Start + no-op local activity',
    uws('local'),
    sequential && { cold_start_wait_s: await coldStart() },
  );
  const rate = floorActivity.per_second / 2;
  console.error(`pace: ${rate.toFixed(1)} orders/s (half the floor's saturated rate), ${SECONDS} s each`);
  /** The Temporal work behind each of a few orders until its task waits: its workflow's and its children's histories. */
  const temporalWorkOf = async (ids) => {
    const works = [];
    for (const id of ids.slice(0, 5)) {
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
    return works;
  };
  const x = (a, b) => `${(a / b).toFixed(2)}×`;
  const printSaturated = (liveSaturated) => {
    console.log(`\n| saturated, concurrency ${C} | per s | p50 ms |\n|---|---|---|`);
    for (const r of [floorActivity, floorLocal, liveSaturated]) console.log(`| ${r.name} | ${r.per_second} | ${r.p50_ms} |`);
    console.log(
      `\nhuman order saturated / floor with an activity: ${x(liveSaturated.per_second, floorActivity.per_second)}; / floor with a local activity: ${x(liveSaturated.per_second, floorLocal.per_second)}`,
    );
  };
  const printWork = ([w]) => {
    if (w)
      console.log(
        `one order until its task waits: ${w.workflowTasks} workflow tasks, ${w.activities} activities, ${w.localActivities} local activities, ${w.children} child workflows, ${w.events} history events`,
      );
  };

  if (values['profile-only']) {
    const run = { latencies: [], failures: 0, cpu: {}, ticks: { idle: 0, steal: 0, total: 0 } };
    const before = placed.length;
    await paced(rate, SECONDS, live, run);
    const main = { ms: run.mainMs, lag: 'the service_event_loop_lag_ms line' };
    summary(`service at ${rate.toFixed(1)}/s: ${orderName} (profiled)`, run.latencies, SECONDS, run.failures, run.cpu, run.ticks, main);
    console.log(JSON.stringify({ orders_in_profile: placed.length, paced: placed.length - before, service_event_loop_lag_ms: await eventLoopLag(service) }));
  } else if (sequential) {
    /** One stream at `rate` for SECONDS from a cold start, alone: its row. */
    const alone = async (name, once) => {
      const wait = await coldStart();
      const run = { latencies: [], failures: 0, cpu: {}, ticks: { idle: 0, steal: 0, total: 0 } };
      const lag = await lagWindow();
      await paced(rate, SECONDS, once, run);
      const main = { ms: run.mainMs, lag: await lag.end() };
      return summary(name, run.latencies, SECONDS, run.failures, run.cpu, run.ticks, main, { cold_start_wait_s: wait });
    };
    const bare = await alone(`floor at ${rate.toFixed(1)}/s: bare Update-with-Start + no-op activity`, uws('activity'));
    const first = placed.length;
    const human = await alone(`service at ${rate.toFixed(1)}/s: ${orderName}`, live);
    const pacedIds = placed.slice(first);
    const liveSaturated = await saturated(`service, saturated: ${orderName}`, live, { cold_start_wait_s: await coldStart() });
    const works = await temporalWorkOf(pacedIds);

    console.log(
      `\n| one phase after another, each from a cold start (${SETTLE} s settle) | count | per s | p50 ms | p95 ms | p99 ms | max ms | failures | service main thread CPU ms/order | service event-loop delay p99 ms | machine idle % |\n|---|---|---|---|---|---|---|---|---|---|---|`,
    );
    for (const r of [floorActivity, floorLocal, bare, human, liveSaturated])
      console.log(
        `| ${r.name} | ${r.count} | ${r.per_second} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} | ${r.max_ms} | ${r.failures} | ${r.service_main_thread_cpu_ms_per_order} | ${r.service_event_loop_delay_ms.p99} | ${r.machine_idle_pct} |`,
      );
    console.log(`\n(event-loop delay: prom-client's monitorEventLoopDelay over the phase, sampled every 10 ms: an idle loop reads about 10 ms)`);
    console.log(
      `\nhuman order / floor at ${rate.toFixed(1)}/s: p50 ${x(human.p50_ms, bare.p50_ms)} (goal ≤ 1.1×), p99 ${x(human.p99_ms, bare.p99_ms)} (goal ≤ 1.25×)`,
    );
    printSaturated(liveSaturated);
    printWork(works);
  } else {
    const first = placed.length;
    await eventLoopLag(service); // prom-client measures the lag between two reads: this one starts the window
    const [bare, human] = await inTurns(rate, [
      { name: `floor at ${rate.toFixed(1)}/s: bare Update-with-Start + no-op activity`, once: uws('activity') },
      { name: `service at ${rate.toFixed(1)}/s: ${orderName}`, once: live },
    ]);
    // How long the service's main thread kept a ready callback waiting (both streams' turns).
    console.log(JSON.stringify({ service_event_loop_lag_ms_while_paced: await eventLoopLag(service) }));
    const pacedIds = placed.slice(first);
    await settle();
    const liveSaturated = await saturated(`service, saturated: ${orderName}`, live);

    // What one order costs Temporal until its task waits (a few orders from the paced run, settled before the saturated run).
    const works = await temporalWorkOf(pacedIds);

    console.log(`\n| at ${rate.toFixed(1)} orders/s, open loop, in turns of ${BLOCK} s | p50 ms | p95 ms | p99 ms | failures |\n|---|---|---|---|---|`);
    for (const r of [bare, human]) console.log(`| ${r.name} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} | ${r.failures} |`);
    console.log(`\nhuman order / floor: p50 ${x(human.p50_ms, bare.p50_ms)} (goal ≤ 1.1×), p99 ${x(human.p99_ms, bare.p99_ms)} (goal ≤ 1.25×)`);
    printSaturated(liveSaturated);
    printWork(works);
  }
} finally {
  for (const stop of stops.reverse()) await stop().catch((err) => console.error(String(err)));
}
