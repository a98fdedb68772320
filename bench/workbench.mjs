// The workbench under its people, beside the live-order load, and the memory of open tasks.
// Usage: npm run build && npm run bench:workbench [-- --workers 50 --seconds 60 --submit-spread 0 --save-every 5 --pace 2
//          --baseline-seconds 60 --floor-seconds 30 --open-tasks 1000 --open-concurrency 8 --cache N]
// The embedded service (`node dist/main.js`, its own dev server on a SQLite file, AI_ENGINE=operator
// ALIGN_ENGINE=operator: each paid transcription order gets an empty draft and opens its task at
// once; TASK_PART_SECONDS=600 (--part-seconds) so the 10-minute order is one task, not two parts;
// TASK_LEASE_MINUTES the default 120; --cache sets WORKER_MAX_CACHED_WORKFLOWS, else the SDK default).
// Before each phase the bench waits until the waiting tasks stop changing for 3 s (the tasks of the
// orders placed so far are open: no backlog carried into the next phase).
//   1 warm-up: orders placed one at a time, each until its task waits (order → task open);
//     --preplace orders placed (unmeasured) so that the workers find tasks;
//     --workers workers created (POST /ops/workers) and signed in at /work, each its own session.
//   2 placement alone (A): live transcription orders at --pace per second (open loop: each order
//     starts on its schedule, whether the one before has answered or not) for --baseline-seconds.
//   3 workbench: the same placement load, and the workers start spread over one autosave interval;
//     each claims its own waiting task (POST /work/tasks/:id/claim), autosaves every --save-every
//     seconds (JSON, X-CSRF-Token, the text growing each time) for --seconds, then submits
//     (`Speaker 1: ...`, which passes Submit's checks); with --submit-spread S, worker i holds its task
//     i/workers × S seconds longer, so the submits come over S seconds instead of at once. Placement and autosaves are also split by
//     what the workers were doing when each started: claiming, only autosaving, submitting.
//   4 placement alone again (B), as 2: A against B is the run's own noise.
//   5 floor: bench/workbenchFloor.mjs (bare Express in its own process) answering 204 to the same
//     save-shaped requests, on the same schedule (--workers clients every --save-every s) for --floor-seconds.
//   6 open tasks: the service process's RSS (/proc/<pid>/status VmRSS, median of 5 readings) before
//     and after --open-tasks more orders (--open-concurrency in flight), once /ops/tasks shows their tasks waiting.
// For phases 2–4 and 6 it also prints the CPU used (service, its dev server, the bench, the whole
// machine from /proc/stat), the service's event-loop lag and its own request histograms (/metrics).
// Prints one JSON line per measurement, then tables. Never part of `npm test`; asserts no time.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { measure, quantile, startService, stopChild, waitForOutput } from './lib.mjs';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '60' }, // each worker holds its task this long, autosaving
    'submit-spread': { type: 'string', default: '0' }, // worker i holds i/workers of this many seconds longer: submits spread over them
    'save-every': { type: 'string', default: '5' },
    pace: { type: 'string', default: '2' }, // live orders per second, in phases 2–4
    'baseline-seconds': { type: 'string', default: '60' },
    'floor-seconds': { type: 'string', default: '30' },
    preplace: { type: 'string', default: '' }, // default: workers + 10
    warmup: { type: 'string', default: '5' },
    'open-tasks': { type: 'string', default: '1000' },
    'open-concurrency': { type: 'string', default: '8' },
    'part-seconds': { type: 'string', default: '600' },
    cache: { type: 'string', default: '' }, // WORKER_MAX_CACHED_WORKFLOWS; default: the SDK's
  },
});
const WORKERS = Number(values.workers);
const HOLD_MS = Number(values.seconds) * 1000;
const SPREAD_MS = Number(values['submit-spread']) * 1000;
const EVERY_MS = Number(values['save-every']) * 1000;
const PACE = Number(values.pace);
const BASE_MS = Number(values['baseline-seconds']) * 1000;
const FLOOR_MS = Number(values['floor-seconds']) * 1000;
const PREPLACE = values.preplace === '' ? WORKERS + 10 : Number(values.preplace);
const WARMUP = Number(values.warmup);
const OPEN = Number(values['open-tasks']);
const OPEN_C = Number(values['open-concurrency']);
const PART_SECONDS = Number(values['part-seconds']);
const CACHE = values.cache;
const SKILLS = 'transcription:english,review:english';

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const sleepUntil = (t) => sleep(t - performance.now());
const now = () => performance.now();
const log = (line) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Percentiles of `samples` (ms) as one JSON row, printed. */
function summary(name, samples, extra = {}) {
  const sorted = [...samples].sort((a, b) => a - b);
  const q = (p) => (sorted.length ? +quantile(sorted, p).toFixed(1) : null);
  const row = {
    name,
    count: sorted.length,
    p50_ms: q(0.5),
    p95_ms: q(0.95),
    p99_ms: q(0.99),
    max_ms: sorted.length ? +sorted.at(-1).toFixed(1) : null,
    ...extra,
  };
  console.log(JSON.stringify(row));
  return row;
}

/** Counts of odd outcomes ("save 409": 3). */
const odd = {};
const note = (what) => {
  odd[what] = (odd[what] ?? 0) + 1;
};

/** `name=value` of each Set-Cookie. */
const cookiesOf = (res) =>
  new Map(
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)]),
  );
const csrfOf = (page) => {
  const m = /<input type="hidden" name="csrf" value="([^"]+)">/.exec(page);
  if (!m) throw new Error(`no csrf field in the page: ${page.slice(0, 300)}`);
  return m[1];
};

/**
 * Live orders at `perSecond`, open loop, until stop(): each starts at its time whether or not the
 * ones before have answered. Records latencies, failures and how late the bench's own timer was.
 */
function pacedOrders(order, perSecond) {
  const latencies = [];
  const starts = [];
  let failures = 0;
  let late = 0;
  let stopped = false;
  const inflight = new Set();
  const started = now();
  const loop = (async () => {
    for (let n = 0; !stopped; n++) {
      const due = started + (n * 1000) / perSecond;
      await sleepUntil(due);
      if (stopped) break;
      late = Math.max(late, now() - due);
      const call = (async () => {
        const t = now();
        try {
          await order();
          latencies.push(now() - t);
          starts.push(t);
        } catch (err) {
          failures += 1;
          note(`live order failed: ${String(err.message ?? err).slice(0, 120)}`);
        }
      })();
      inflight.add(call);
      void call.finally(() => inflight.delete(call));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      await Promise.all(inflight);
      return { latencies, starts, failures, late, seconds: (now() - started) / 1000 };
    },
  };
}

const rssKiB = async (pid) => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
/** Every descendant of `pid` (the embedded dev server is a child of the service). */
async function descendants(pid) {
  const kids = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean).map(Number);
  return [...kids, ...(await Promise.all(kids.map(descendants))).flat()];
}
/** Median of `n` readings a second apart, in MiB: the service process, and its children together. */
async function rssMiB(pid, n = 5) {
  const own = [];
  const kids = [];
  for (let i = 0; i < n; i++) {
    if (i) await sleep(1000);
    own.push(await rssKiB(pid));
    kids.push((await Promise.all((await descendants(pid)).map((p) => rssKiB(p).catch(() => 0)))).reduce((a, b) => a + b, 0));
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] / 1024;
  return { service: median(own), children: median(kids) };
}

/** CPU seconds (user + system) of `pid` so far. */
const cpuSeconds = async (pid) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (CLK_TCK 100)
};

/** The whole machine's busy and iowait CPU seconds so far (/proc/stat). */
const machineSeconds = async () => {
  const [, user, nice, system, idle, iowait, irq, softirq, steal] = (await readFile('/proc/stat', 'utf8')).split('\n')[0].trim().split(/\s+/).map(Number);
  return { busy: (user + nice + system + irq + softirq + steal) / 100, iowait: iowait / 100 };
};

/** HTTP latency histograms by "METHOD route" (summed over statuses): Map(le → cumulative count). */
function httpBuckets(text) {
  const out = new Map();
  for (const m of text.matchAll(/^http_request_duration_seconds_bucket\{([^}]*)\} (\S+)$/gm)) {
    const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    const key = `${labels.method} ${labels.route}`;
    const byLe = out.get(key) ?? new Map();
    byLe.set(labels.le, (byLe.get(labels.le) ?? 0) + Number(m[2]));
    out.set(key, byLe);
  }
  return out;
}
const gauge = (text, name) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1]);

const stops = [];
const rows = {};
const facts = {};
try {
  const service = await startService({
    concurrency: 16,
    env: {
      AI_ENGINE: 'operator',
      ALIGN_ENGINE: 'operator',
      TASK_PART_SECONDS: String(PART_SECONDS),
      TASK_LEASE_MINUTES: '120',
      // 50 sign-ins from one loopback address: the per-address sign-in limit would refuse them (0: off).
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '0',
      ...(CACHE ? { WORKER_MAX_CACHED_WORKFLOWS: CACHE } : {}),
    },
  });
  stops.push(() => service.stop());
  const { base, ops, order, pid } = service;
  facts.rssAtStart = await rssMiB(pid, 1);
  log(`service pid ${pid} at ${base}; RSS ${facts.rssAtStart.service.toFixed(0)} MiB (children ${facts.rssAtStart.children.toFixed(0)} MiB)`);
  const live = () => order('live');
  const waiting = async () => (await ops('GET', '/ops/tasks?status=waiting')).tasks;
  /** Until the waiting tasks stop changing for 3 s: the tasks of the orders placed so far are open. */
  const quiet = async (label) => {
    const t0 = now();
    let last = -1;
    let same = 0;
    while (same < 3 && now() - t0 < 180_000) {
      const n = (await waiting()).length;
      same = n === last ? same + 1 : 0;
      last = n;
      await sleep(1000);
    }
    log(`${label}: ${last} tasks waiting, quiet after ${((now() - t0) / 1000).toFixed(0)} s`);
    return last;
  };
  const children = await descendants(pid);
  /** A phase's CPU (service, its children, the bench itself), its event-loop lag and its HTTP histograms (from /metrics). */
  const phase = async () => {
    const text = await (await fetch(`${base}/metrics`)).text(); // also resets the lag histogram
    const cpu = {
      service: await cpuSeconds(pid),
      children: (await Promise.all(children.map((p) => cpuSeconds(p).catch(() => 0)))).reduce((a, b) => a + b, 0),
      bench: process.cpuUsage(),
      machine: await machineSeconds(),
    };
    const t = now();
    return async (name) => {
      const end = await (await fetch(`${base}/metrics`)).text();
      const wall = (now() - t) / 1000;
      const bench = process.cpuUsage(cpu.bench);
      const machine = await machineSeconds();
      const [hA, hB] = [httpBuckets(text), httpBuckets(end)];
      const server = {};
      for (const [key, byLe] of hB) {
        const before = hA.get(key);
        const count = byLe.get('+Inf') - (before?.get('+Inf') ?? 0);
        if (!count) continue;
        const within = (le) => byLe.get(le) - (before?.get(le) ?? 0);
        const p99 = [...byLe.keys()].find((le) => within(le) >= 0.99 * count);
        server[key] = { count, le_50ms: within('0.05'), p99_at_most_ms: p99 === '+Inf' ? 'over 30000' : Number(p99) * 1000 };
      }
      const row = {
        phase: name,
        seconds: +wall.toFixed(1),
        cores_used: {
          service: +(((await cpuSeconds(pid)) - cpu.service) / wall).toFixed(2),
          dev_server: +(((await Promise.all(children.map((p) => cpuSeconds(p).catch(() => 0)))).reduce((a, b) => a + b, 0) - cpu.children) / wall).toFixed(2),
          bench: +((bench.user + bench.system) / 1e6 / wall).toFixed(2),
          whole_machine: +((machine.busy - cpu.machine.busy) / wall).toFixed(2),
          iowait: +((machine.iowait - cpu.machine.iowait) / wall).toFixed(2),
        },
        service_event_loop_lag_ms: {
          p99: +(gauge(end, 'nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(1),
          max: +(gauge(end, 'nodejs_eventloop_lag_max_seconds') * 1000).toFixed(1),
        },
        server_side: server,
      };
      console.log(JSON.stringify(row));
      return row;
    };
  };
  const phases = {};

  // 1. Warm-up: order → task open, one at a time.
  const opened = [];
  for (let i = 0; i < WARMUP; i++) {
    const t = now();
    const { order_id: id } = await live();
    const placed = now();
    for (;;) {
      if ((await waiting()).some((task) => task.order_id === id)) break;
      if (now() - placed > 60_000) throw new Error(`order ${id}: no task after 60 s`);
      await sleep(50);
    }
    opened.push(now() - t);
  }
  rows.opened = summary('warm-up: live order placed → its task waiting (one at a time, polled every 50 ms)', opened);
  await measure(`pre-place ${PREPLACE} live orders (unmeasured warm-up)`, PREPLACE, 4, live);

  // Workers, each signed in with its own session.
  const people = [];
  const signIns = [];
  for (let i = 0; i < WORKERS; i++) {
    const created = await ops('POST', '/ops/workers', { name: `bench worker ${i + 1}`, skills: SKILLS });
    if (!created.sign_in_token) throw new Error(`POST /ops/workers: ${JSON.stringify(created)}`);
    const t = now();
    const form = await fetch(`${base}/work/sign-in`, { redirect: 'manual' });
    const signInCookie = cookiesOf(form).get('work_sign_in');
    const formCsrf = csrfOf(await form.text());
    const signedIn = await fetch(`${base}/work/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `work_sign_in=${signInCookie}` },
      body: new URLSearchParams({ csrf: formCsrf, sign_in_token: created.sign_in_token }),
    });
    await signedIn.arrayBuffer();
    const session = cookiesOf(signedIn).get('work_session');
    if (signedIn.status !== 303 || !session) throw new Error(`sign-in of worker ${created.worker_id}: ${signedIn.status}`);
    const cookie = `work_session=${session}`;
    const queue = await fetch(`${base}/work/queue`, { headers: { cookie }, redirect: 'manual' });
    const csrf = csrfOf(await queue.text());
    signIns.push(now() - t);
    people.push({ id: created.worker_id, cookie, csrf });
  }
  rows.signIn = summary('service: worker sign-in (GET form, POST token → 303, GET /work/queue)', signIns);

  // 2. Placement alone (A).
  await quiet('before placement alone (A)');
  log(`placement alone (A): ${PACE}/s for ${BASE_MS / 1000} s`);
  let done = await phase();
  let paced = pacedOrders(live, PACE);
  await sleep(BASE_MS);
  const alone = await paced.stop();
  phases.aloneA = await done('placement alone (A)');
  rows.aloneA = summary(`service: live order placement alone (A), ${PACE}/s`, alone.latencies, {
    failures: alone.failures,
    bench_timer_late_max_ms: +alone.late.toFixed(1),
  });

  // 3. The workbench beside the same placement load.
  await quiet('before the workbench');
  let free = (await waiting()).filter((t) => t.stage === 'work');
  for (let t0 = now(); free.length < WORKERS; free = (await waiting()).filter((t) => t.stage === 'work')) {
    if (now() - t0 > 120_000) throw new Error(`only ${free.length} waiting tasks for ${WORKERS} workers after 2 minutes`);
    await sleep(500);
  }
  facts.waitingAtWorkbench = free.length;
  log(
    `workbench: ${WORKERS} workers, ${free.length} waiting tasks, hold ${HOLD_MS / 1000} s (+ up to ${SPREAD_MS / 1000} s), autosave every ${EVERY_MS / 1000} s, placement ${PACE}/s`,
  );
  const claims = [];
  const claimNexts = [];
  const saves = [];
  const saveStarts = [];
  const submits = [];
  let claimsDone = 0;
  let submitsFrom = Infinity;
  let workerLate = 0;
  const words = (k) => Array.from({ length: 12 }, (_, j) => `word${k}x${j}`).join(' ');
  const one = async (person, i) => {
    const start = workStart + (i * EVERY_MS) / WORKERS; // spread over one autosave interval
    await sleepUntil(start);
    const headers = { cookie: person.cookie };
    let taskId = free[i].task_id;
    let t = now();
    const claimed = await fetch(`${base}/work/tasks/${encodeURIComponent(taskId)}/claim`, {
      method: 'POST',
      redirect: 'manual',
      headers,
      body: new URLSearchParams({ csrf: person.csrf }),
    });
    await claimed.arrayBuffer();
    claims.push(now() - t);
    claimsDone = Math.max(claimsDone, now());
    if (claimed.status !== 303 || !claimed.headers.get('location')?.endsWith(`/work/tasks/${encodeURIComponent(taskId)}`)) {
      note(`claim refused or failed: ${claimed.status} → ${claimed.headers.get('location')}`);
      t = now();
      const next = await fetch(`${base}/work/claim-next`, { method: 'POST', redirect: 'manual', headers, body: new URLSearchParams({ csrf: person.csrf }) });
      await next.arrayBuffer();
      claimNexts.push(now() - t);
      const m = /\/work\/tasks\/([^/?]+)$/.exec(next.headers.get('location') ?? '');
      if (next.status !== 303 || !m) return void note(`claim-next found nothing: ${next.status} → ${next.headers.get('location')}`);
      taskId = decodeURIComponent(m[1]);
    }
    const path = `${base}/work/tasks/${encodeURIComponent(taskId)}`;
    const hold = HOLD_MS + (i * SPREAD_MS) / WORKERS;
    let text = 'Speaker 1:';
    for (let k = 1; k * EVERY_MS < hold; k++) {
      const due = start + k * EVERY_MS;
      await sleepUntil(due);
      workerLate = Math.max(workerLate, now() - due);
      text += ` ${words(k)}`;
      t = now();
      const saved = await fetch(`${path}/save`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'x-csrf-token': person.csrf },
        body: JSON.stringify({ text }),
      });
      await saved.arrayBuffer();
      saves.push(now() - t);
      saveStarts.push(t);
      if (saved.status !== 204) note(`save ${saved.status}`);
    }
    await sleepUntil(start + hold);
    text += ' and that is the end.';
    t = now();
    submitsFrom = Math.min(submitsFrom, t);
    const submitted = await fetch(`${path}/submit`, { method: 'POST', redirect: 'manual', headers, body: new URLSearchParams({ csrf: person.csrf, text }) });
    await submitted.arrayBuffer();
    submits.push(now() - t);
    if (submitted.status !== 303 || !submitted.headers.get('location')?.endsWith('/work/queue'))
      note(`submit ${submitted.status} → ${submitted.headers.get('location')}`);
  };
  done = await phase();
  const workStart = now() + 100;
  paced = pacedOrders(live, PACE);
  await Promise.all(people.map(one));
  const during = await paced.stop();
  phases.workbench = await done('workbench + placement');
  rows.claim = summary('service: claim (POST /work/tasks/:id/claim → 303)', claims);
  if (claimNexts.length) rows.claimNext = summary('service: claim-next after a refused claim', claimNexts);
  rows.save = summary(`service: autosave (POST …/save JSON → 204), ${WORKERS} workers every ${EVERY_MS / 1000} s`, saves, {
    bench_timer_late_max_ms: +workerLate.toFixed(1),
  });
  rows.submit = summary('service: submit (POST …/submit → 303)', submits);
  rows.during = summary(`service: live order placement during the workbench, ${PACE}/s`, during.latencies, {
    failures: during.failures,
    bench_timer_late_max_ms: +during.late.toFixed(1),
  });
  // The same samples by what the workers were doing when each started: claiming, only autosaving, submitting.
  const windows = [
    ['claims', workStart, claimsDone],
    ['autosaves only', claimsDone, submitsFrom],
    ['submits', submitsFrom, Infinity],
  ];
  const pick = (latencies, starts, from, to) => latencies.filter((_, i) => starts[i] >= from && starts[i] < to);
  for (const [w, from, to] of windows) {
    rows[`during ${w}`] = summary(
      `  placement while ${w} (${((Math.min(to, now()) - from) / 1000).toFixed(0)} s)`,
      pick(during.latencies, during.starts, from, to),
    );
    rows[`save ${w}`] = summary(`  autosave while ${w}`, pick(saves, saveStarts, from, to));
  }

  // 4. Placement alone again (B).
  await quiet('before placement alone (B)');
  log(`placement alone (B): ${PACE}/s for ${BASE_MS / 1000} s`);
  done = await phase();
  paced = pacedOrders(live, PACE);
  await sleep(BASE_MS);
  const aloneB = await paced.stop();
  phases.aloneB = await done('placement alone (B)');
  rows.aloneB = summary(`service: live order placement alone (B), ${PACE}/s`, aloneB.latencies, {
    failures: aloneB.failures,
    bench_timer_late_max_ms: +aloneB.late.toFixed(1),
  });

  // 5. The floor: bare Express, the same save-shaped requests on the same schedule.
  const child = spawn(process.execPath, [new URL('./workbenchFloor.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
  stops.push(() => stopChild(child));
  const floorUrl = `http://127.0.0.1:${JSON.parse((await waitForOutput(child, 'listening', 'workbenchFloor')).trim().split('\n')[0]).listening}`;
  log(`floor: ${WORKERS} clients every ${EVERY_MS / 1000} s for ${FLOOR_MS / 1000} s at ${floorUrl}`);
  const floorSaves = [];
  const floorStart = now() + 100;
  await Promise.all(
    people.map(async (person, i) => {
      const start = floorStart + (i * EVERY_MS) / WORKERS;
      let text = 'Speaker 1:';
      for (let k = 1; k * EVERY_MS < FLOOR_MS; k++) {
        await sleepUntil(start + k * EVERY_MS);
        text += ` ${words(k)}`;
        const t = now();
        const saved = await fetch(`${floorUrl}/work/tasks/task-${i}-work/save`, {
          method: 'POST',
          headers: { cookie: person.cookie, 'content-type': 'application/json', 'x-csrf-token': person.csrf },
          body: JSON.stringify({ text }),
        });
        await saved.arrayBuffer();
        floorSaves.push(now() - t);
        if (saved.status !== 204) note(`floor save ${saved.status}`);
      }
    }),
  );
  rows.floor = summary('floor: bare Express, save-shaped JSON → 204, same schedule', floorSaves);

  // 6. The service's memory holding OPEN more open tasks (--open-tasks 0: skipped).
  if (OPEN > 0) {
    await quiet('before the open tasks');
    const waitingBefore = (await waiting()).length;
    const before = await rssMiB(pid);
    log(
      `open tasks: ${waitingBefore} waiting; RSS ${before.service.toFixed(0)} MiB (children ${before.children.toFixed(0)} MiB); placing ${OPEN} orders at ${OPEN_C} in flight`,
    );
    let peak = before.service;
    const sampler = setInterval(
      () =>
        void rssKiB(pid).then(
          (k) => {
            peak = Math.max(peak, k / 1024);
          },
          () => undefined,
        ),
      1000,
    );
    done = await phase();
    const placedAll = await measure(`place ${OPEN} live orders for open tasks`, OPEN, OPEN_C, live);
    const placedAt = now();
    let waitingAfter = 0;
    for (;;) {
      waitingAfter = (await waiting()).length;
      if (waitingAfter >= waitingBefore + OPEN) break;
      if (now() - placedAt > 180_000) {
        note(`open tasks: only ${waitingAfter - waitingBefore} of ${OPEN} tasks waiting 3 minutes after the last order`);
        break;
      }
      await sleep(2000);
    }
    const tasksOpenAfterMs = now() - placedAt;
    phases.open = await done(`${OPEN} orders at ${OPEN_C} in flight, until their tasks wait`);
    clearInterval(sampler);
    await sleep(5000);
    const after = await rssMiB(pid);
    Object.assign(facts, { waitingBefore, waitingAfter, before, after, peak, tasksOpenAfterMs, placedAll });
    console.log(
      JSON.stringify({
        name: `service RSS holding ${OPEN} more open tasks`,
        waiting_before: waitingBefore,
        waiting_after: waitingAfter,
        rss_before_mib: +before.service.toFixed(1),
        rss_after_mib: +after.service.toFixed(1),
        rss_peak_mib: +peak.toFixed(1),
        growth_mib: +(after.service - before.service).toFixed(1),
        children_before_mib: +before.children.toFixed(1),
        children_after_mib: +after.children.toFixed(1),
        tasks_waiting_after_last_order_ms: Math.round(tasksOpenAfterMs),
      }),
    );
  }

  // Tables.
  const cpu = cpus();
  const f = (x) => (x === null || x === undefined ? '–' : x);
  console.log(
    `\n${new Date().toISOString()} · ${cpu.length} × ${cpu[0]?.model} · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.version} · ${WORKERS} workers, hold ${HOLD_MS / 1000} s, autosave every ${EVERY_MS / 1000} s, ${PACE} orders/s\n`,
  );
  console.log('| measurement | n | p50 ms | p95 ms | p99 ms | max ms |\n|---|---|---|---|---|---|');
  for (const key of [
    'floor',
    'save',
    'save claims',
    'save autosaves only',
    'save submits',
    'claim',
    'claimNext',
    'submit',
    'aloneA',
    'during',
    'during claims',
    'during autosaves only',
    'during submits',
    'aloneB',
    'signIn',
    'opened',
  ]) {
    const r = rows[key];
    if (r) console.log(`| ${r.name} | ${r.count} | ${f(r.p50_ms)} | ${f(r.p95_ms)} | ${f(r.p99_ms)} | ${f(r.max_ms)} |`);
  }
  const x = (a, b) => `${(a / b).toFixed(2)}×`;
  const [a, d, b] = [rows.aloneA, rows.during, rows.aloneB];
  console.log('\n| comparison | p50 | p99 |\n|---|---|---|');
  console.log(`| autosave ÷ bare Express floor | ${x(rows.save.p50_ms, rows.floor.p50_ms)} | ${x(rows.save.p99_ms, rows.floor.p99_ms)} |`);
  console.log(`| placement during workbench ÷ alone (A) | ${x(d.p50_ms, a.p50_ms)} | ${x(d.p99_ms, a.p99_ms)} |`);
  console.log(`| placement during workbench ÷ alone (B) | ${x(d.p50_ms, b.p50_ms)} | ${x(d.p99_ms, b.p99_ms)} |`);
  console.log(`| placement alone B ÷ A (the run's noise) | ${x(b.p50_ms, a.p50_ms)} | ${x(b.p99_ms, a.p99_ms)} |`);
  console.log(
    '\n| phase | s | cores: service / dev server / bench / whole machine (iowait) | service event-loop lag p99 / max ms | server-side ≤ 50 ms, p99 ≤ (bucket): save · claim · submit · order |\n|---|---|---|---|---|',
  );
  for (const ph of Object.values(phases)) {
    const srv = (suffix) => {
      const [key, v] = Object.entries(ph.server_side).find(([k]) => k.startsWith('POST ') && k.endsWith(suffix)) ?? [];
      return key ? `${v.le_50ms}/${v.count}, ${v.p99_at_most_ms}` : '–';
    };
    console.log(
      `| ${ph.phase} | ${ph.seconds} | ${ph.cores_used.service} / ${ph.cores_used.dev_server} / ${ph.cores_used.bench} / ${ph.cores_used.whole_machine} (${ph.cores_used.iowait}) | ${ph.service_event_loop_lag_ms.p99} / ${ph.service_event_loop_lag_ms.max} | ${['/save', '/claim', '/submit', 'transcriptions'].map(srv).join(' · ')} |`,
    );
  }
  console.log(`\nGoal: autosave p99 ≤ 50 ms: ${rows.save.p99_ms} ms, ${rows.save.p99_ms <= 50 ? 'met' : 'NOT met'}.`);
  const lo = (k) => Math.min(a[k], b[k]);
  const hi = (k) => Math.max(a[k], b[k]);
  const within = (k) => d[k] <= hi(k) + (hi(k) - lo(k));
  console.log(
    `Placement: alone ${lo('p50_ms')}–${hi('p50_ms')} ms p50, ${lo('p99_ms')}–${hi('p99_ms')} ms p99; during ${d.p50_ms} ms p50, ${d.p99_ms} ms p99: ` +
      `${within('p50_ms') && within('p99_ms') ? 'within' : 'BEYOND'} the run's noise (during ≤ the worse of A and B plus their spread).`,
  );
  if (OPEN > 0) {
    const { waitingBefore, waitingAfter, before, after, peak, tasksOpenAfterMs, placedAll } = facts;
    console.log(`\n| service process (node dist/main.js: API + Temporal worker) | waiting tasks | RSS MiB | dev server (child) RSS MiB |\n|---|---|---|---|`);
    console.log(`| at start | 0 | ${facts.rssAtStart.service.toFixed(0)} | ${facts.rssAtStart.children.toFixed(0)} |`);
    console.log(`| before placing ${OPEN} orders | ${waitingBefore} | ${before.service.toFixed(0)} | ${before.children.toFixed(0)} |`);
    console.log(`| after, their tasks waiting | ${waitingAfter} | ${after.service.toFixed(0)} | ${after.children.toFixed(0)} |`);
    console.log(
      `| growth | +${waitingAfter - waitingBefore} | +${(after.service - before.service).toFixed(0)} (peak ${peak.toFixed(0)}) | +${(after.children - before.children).toFixed(0)} |`,
    );
    console.log(
      `\n${OPEN} orders placed at ${placedAll.per_second}/s (p50 ${placedAll.p50_ms} ms, p99 ${placedAll.p99_ms} ms, ${OPEN_C} in flight); all their tasks waiting ${(tasksOpenAfterMs / 1000).toFixed(1)} s after the last.`,
    );
  }
  console.log(`Placement failures: A ${alone.failures}, during ${during.failures}, B ${aloneB.failures}.`);
  console.log(Object.keys(odd).length ? `Odd outcomes: ${JSON.stringify(odd)}` : 'Odd outcomes: none (every claim won, every save 204, every submit 303).');
} finally {
  for (const stop of stops.reverse()) await stop().catch((err) => console.error(err));
}
