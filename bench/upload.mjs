// A 2 GB resumable upload (issue 52) through the service beside its floor, and what the service
// answers others meanwhile.
// Usage: npm run build && npm run bench:upload [-- --runs 3 --size-mb 2048 --chunk-mb 8 --idle-seconds 15 --rate 10]
// The file (--size-mb of random bytes) is written once to the temp directory and deleted at the end.
// Two servers on the same disk (the temp directory), the same Node:
//   - the service as `npm start` runs it (`node dist/main.js`: PGlite, the embedded Temporal dev
//     server; AI_ENGINE=operator ALIGN_ENGINE=operator DIARIZER=none, so no engine process), its
//     tus endpoint /api/v4/uploads, by API token;
//   - the floor: a bare @tus/server with @tus/file-store on Node's http server (bench/bareTus.mjs).
// One client (bench/uploadClient.mjs, a process of its own, undici) for both: the creation, then
// PATCHes of --chunk-mb streamed from the file, one at a time; throughput from the creation to the
// last 204 (MB = 2^20 bytes). A warm-up upload of --warmup-mb to each first, unmeasured. Each run:
// --idle-seconds with no upload, then one upload to each server, which first alternating from run to
// run. Throughout, quotes (POST /api/v4/transcriptions mode=test of a 30-second WAV from a loopback
// media server with a strong ETag) and order reads (GET /api/v4/orders/:id) at --rate a second each,
// open loop (each on its schedule, its latency from the schedule); the service's resident memory
// (VmRSS of its process, /proc) read every 50 ms; the CPU of each process, the machine's idle share
// (/proc/stat: the machine is shared) and the service's event-loop delay (its /metrics) per phase.
// With BENCH_PROFILE=<dir>, the service and the floor write CPU profiles there when they stop
// (`node bench/profileParts.mjs <dir>/*`); BENCH_SERVICE_NODE_ARGS (space-separated) go to the
// service's node only (`--trace-gc`, V8's heap sizes). Never part of `npm test`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, readFileSync, rmSync, statfsSync, writeSync, closeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuMs, listen, machineTicks, quantile, startService, stopChild, waitForOutput, wav } from './lib.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'size-mb': { type: 'string', default: '2048' },
    'chunk-mb': { type: 'string', default: '8' },
    'warmup-mb': { type: 'string', default: '256' },
    'idle-seconds': { type: 'string', default: '15' },
    rate: { type: 'string', default: '10' },
  },
});
const RUNS = Number(values.runs);
const MB = 1024 * 1024;
const SIZE = Number(values['size-mb']) * MB;
const RATE = Number(values.rate);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** VmRSS of `pid` in MB (/proc/<pid>/status). */
const rssMb = (pid) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** Writes `bytes` of random data to `path`, 8 MB at a time. */
function writeFile(path, bytes) {
  const fd = openSync(path, 'w');
  try {
    for (let done = 0; done < bytes; done += 8 * MB) writeSync(fd, randomBytes(Math.min(8 * MB, bytes - done)));
  } finally {
    closeSync(fd);
  }
}

/** Runs `once()` every 1/rate s until `stop()` says so; latencies from each call's schedule. */
function paced(once) {
  const run = { latencies: [], failures: 0, errors: new Set() };
  let stopped = false;
  const done = (async () => {
    const inFlight = [];
    const t0 = performance.now();
    for (let i = 0; !stopped; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      if (stopped) break;
      inFlight.push(
        once().then(
          () => run.latencies.push(performance.now() - due),
          (err) => {
            run.failures += 1;
            run.errors.add(String(err).slice(0, 200));
          },
        ),
      );
    }
    await Promise.all(inFlight);
    return run;
  })();
  return {
    stop: () => {
      stopped = true;
      return done;
    },
  };
}

function stats(latencies) {
  const s = [...latencies].sort((a, b) => a - b);
  if (s.length === 0) return { count: 0 };
  return {
    count: s.length,
    p50_ms: +quantile(s, 0.5).toFixed(1),
    p95_ms: +quantile(s, 0.95).toFixed(1),
    p99_ms: +quantile(s, 0.99).toFixed(1),
    max_ms: +s.at(-1).toFixed(1),
  };
}

const stops = [];
const file = join(tmpdir(), `order-bench-upload-${process.pid}.bin`);
try {
  // The source file, and at most one upload of it at a time on each side (each terminated after its run).
  const { bavail, bsize } = statfsSync(tmpdir());
  if (bavail * bsize < 2.5 * SIZE) throw new Error(`${tmpdir()} has ${((bavail * bsize) / MB).toFixed(0)} MB free; this bench needs ${(2.5 * SIZE) / MB}`);
  stops.push(async () => rmSync(file, { force: true }));
  let t = performance.now();
  writeFile(file, SIZE);
  console.error(`wrote ${SIZE / MB} MB of random bytes to ${file} in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const profileDir = process.env.BENCH_PROFILE;
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const serviceNodeArgs = process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const service = await startService({
    concurrency: 2,
    env: { AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator', DIARIZER: 'none' },
    nodeArgs: [...nodeArgs, ...serviceNodeArgs],
  });
  stops.push(() => service.stop());

  const bareDir = await mkdtemp(join(tmpdir(), 'order-bench-tus-'));
  stops.push(() => rm(bareDir, { recursive: true, force: true }));
  const bareChild = spawn(process.execPath, [...nodeArgs, new URL('./bareTus.mjs', import.meta.url).pathname], {
    env: { ...process.env, BENCH_TUS_DIR: bareDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  stops.push(() => stopChild(bareChild));
  const { listening } = JSON.parse((await waitForOutput(bareChild, 'listening', 'bareTus')).trim().split('\n')[0]);

  // A static file server, as media hosts are: a 30-second WAV with a strong ETag, 304 to a matching If-None-Match.
  const short = { body: wav(30), etag: '"bench-upload-30"' };
  const media = await listen((req, res) => {
    if (req.headers['if-none-match'] === short.etag) return void res.writeHead(304, { etag: short.etag }).end();
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': short.body.length, etag: short.etag }).end(short.body);
  });
  stops.push(async () => media.server.close());
  const shortUrl = `${media.url}/short.wav`;

  const sides = {
    bare: { name: 'bare @tus/server + @tus/file-store (floor)', endpoint: `http://127.0.0.1:${listening}/files` },
    service: { name: 'service: /api/v4/uploads', endpoint: `${service.base}/api/v4/uploads`, token: service.token },
  };

  const { order_id: orderId } = await service.order('live', { url: shortUrl });
  const quote = () => service.order('test', { url: shortUrl });
  const read = async () => {
    const r = await fetch(`${service.base}/api/v4/orders/${orderId}?mode=live&api_token=${service.token}`);
    const body = await r.text();
    if (r.status !== 200) throw new Error(`GET /api/v4/orders/${orderId}: ${r.status} ${body.slice(0, 200)}`);
  };

  /**
   * From the service's /metrics: its event-loop delay since the last read (prom-client resets it then: p50,
   * p99, max in ms) and its garbage collections so far (count and seconds by kind: minor, major, incremental).
   */
  async function serviceMetrics() {
    const text = await fetch(`${service.base}/metrics`).then((r) => r.text());
    const ms = (name) => +(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) * 1000).toFixed(1);
    const gc = {};
    for (const [, what, kind, value] of text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} (\S+)$/gm))
      (gc[kind] ??= { sum: 0, count: 0 })[what] = Number(value);
    return {
      lag: { p50: ms('nodejs_eventloop_lag_p50_seconds'), p99: ms('nodejs_eventloop_lag_p99_seconds'), max: ms('nodejs_eventloop_lag_max_seconds') },
      gc,
    };
  }

  /**
   * One phase: quotes and reads at RATE each until `work()` resolves, the service's RSS read every 50 ms,
   * the CPU of the service's and the floor's processes, the machine's idle share and the service's event-loop delay.
   */
  async function phase(work) {
    const { gc: gcBefore } = await serviceMetrics(); // starts the event-loop delay's window
    const from = process.hrtime.bigint();
    const rssBefore = rssMb(service.pid);
    const ticks = machineTicks();
    const cpuNow = () => ({
      service: cpuMs(service.pid),
      serviceMain: cpuMs(service.pid, service.pid),
      bare: cpuMs(bareChild.pid),
      bareMain: cpuMs(bareChild.pid, bareChild.pid),
    });
    const cpu = cpuNow();
    const probes = { quotes: paced(quote), reads: paced(read) };
    let rssPeak = rssBefore;
    let running = true;
    const done = work().finally(() => (running = false));
    while (running) {
      rssPeak = Math.max(rssPeak, rssMb(service.pid));
      await sleep(50);
    }
    const result = await done;
    const [quotes, reads] = await Promise.all([probes.quotes.stop(), probes.reads.stop()]);
    const after = machineTicks();
    const cpuAfter = cpuNow();
    const to = process.hrtime.bigint();
    const { lag, gc: gcAfter } = await serviceMetrics();
    const gcDelta = (kind) => ({
      count: (gcAfter[kind]?.count ?? 0) - (gcBefore[kind]?.count ?? 0),
      s: +((gcAfter[kind]?.sum ?? 0) - (gcBefore[kind]?.sum ?? 0)).toFixed(3),
    });
    const probeRow = (run) => ({ ...stats(run.latencies), failures: run.failures, ...(run.failures && { errors: [...run.errors] }) });
    return {
      ...result,
      rss_before_mb: +rssBefore.toFixed(1),
      rss_peak_mb: +rssPeak.toFixed(1),
      rss_growth_mb: +(rssPeak - rssBefore).toFixed(1),
      quotes: probeRow(quotes),
      reads: probeRow(reads),
      service_event_loop_delay_ms: lag,
      // The service's collections in the phase, and the time its main thread spent in them.
      service_gc: { minor: gcDelta('minor'), major: gcDelta('major'), incremental: gcDelta('incremental') },
      // Waiting on the disk counts as idle here: an upload's bytes go to it.
      machine_idle_pct: +((100 * (after.idle + after.iowait - ticks.idle - ticks.iowait)) / (after.total - ticks.total)).toFixed(1),
      machine_steal_pct: +((100 * (after.steal - ticks.steal)) / (after.total - ticks.total)).toFixed(1),
      // Each server process's CPU, and its main thread's (the event loop; the rest: V8's GC helpers, libuv's
      // file writes, and in the service PGlite's thread and Temporal's core).
      cpu_s: {
        ...result.cpu_s,
        ...Object.fromEntries(Object.keys(cpu).map((k) => [k, +((cpuAfter[k] - cpu[k]) / 1000).toFixed(2)])),
      },
      // The phase on the monotonic clock in µs, as CPU profiles time their samples (BENCH_PROFILE).
      monotonic_us: [Number(from / 1000n), Number(to / 1000n)],
      raw: { quotes: quotes.latencies, reads: reads.latencies },
    };
  }

  /** One upload to `side` by the client (a process of its own): its JSON line and its CPU. */
  async function upload(side, bytes) {
    const { endpoint, token } = sides[side];
    const args = ['--endpoint', endpoint, '--file', file, '--chunk-mb', values['chunk-mb'], '--bytes', String(bytes)];
    if (token) args.push('--token', token);
    const client = spawn(process.execPath, [new URL('./uploadClient.mjs', import.meta.url).pathname, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    client.stdout.on('data', (d) => (out += d));
    const exited = new Promise((r) => client.once('exit', r));
    let clientCpu = 0;
    let running = true;
    void exited.then(() => (running = false));
    while (running) {
      clientCpu = cpuMs(client.pid) ?? clientCpu;
      await sleep(50);
    }
    const code = await exited;
    if (code !== 0) throw new Error(`uploadClient to ${side} exited ${code}`);
    return { side, ...JSON.parse(out.trim().split('\n').at(-1)), cpu_s: { client: +(clientCpu / 1000).toFixed(2) } };
  }
  const idleFor = (seconds) => async () => {
    await sleep(seconds * 1000);
    return { side: 'idle', seconds };
  };

  // Warm-up, unmeasured: some quotes and reads, and a smaller upload to each side.
  for (let i = 0; i < 20; i++) await Promise.all([quote(), read()]);
  for (const side of ['bare', 'service']) {
    const w = await upload(side, Number(values['warmup-mb']) * MB);
    console.error(`warm-up ${side}: ${w.mb_per_s} MB/s`);
  }

  // Each run: the quotes and reads alone (idle) for --idle-seconds, then an upload to each side, the
  // order alternating; a pause of 3 s before each phase (the last upload's file is gone, its dirty pages with it).
  const results = [];
  for (let run = 1; run <= RUNS; run++) {
    const order = run % 2 === 1 ? ['bare', 'service'] : ['service', 'bare'];
    for (const side of ['idle', ...order]) {
      await sleep(3000);
      const r = await phase(side === 'idle' ? idleFor(Number(values['idle-seconds'])) : () => upload(side, SIZE));
      r.run = run;
      const { raw, ...row } = r;
      console.log(JSON.stringify(row));
      results.push(r);
    }
  }

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const of = (side) => results.filter((r) => r.side === side);
  const bareMbps = +median(of('bare').map((r) => r.mb_per_s)).toFixed(1);
  const serviceMbps = +median(of('service').map((r) => r.mb_per_s)).toFixed(1);
  /** Every run's latencies of one phase together. */
  const pooled = (side, kind) => stats(of(side).flatMap((r) => r.raw[kind]));

  console.log(
    `\n${SIZE / MB} MB in ${values['chunk-mb']} MB PATCHes, ${RUNS} runs, each: ${values['idle-seconds']} s idle, then one upload to each server (order alternated); quotes and reads at ${RATE}/s each throughout\n`,
  );
  console.log(
    '| run | phase | MB/s | s | PATCH p50 ms | CPU s: service (main thread) / floor (main thread) / client | service RSS before → peak MB (growth) | quotes p50 / p99 ms | reads p50 / p99 ms | service event-loop delay p99 / max ms | service major GCs (s) | machine idle % |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const up = r.side !== 'idle';
    console.log(
      `| ${r.run} | ${r.side} | ${up ? r.mb_per_s : '–'} | ${r.seconds} | ${up ? r.patch_ms.p50 : '–'} | ${r.cpu_s.service} (${r.cpu_s.serviceMain}) / ${r.cpu_s.bare} (${r.cpu_s.bareMain}) / ${up ? r.cpu_s.client : '–'} | ${r.rss_before_mb} → ${r.rss_peak_mb} (${r.rss_growth_mb >= 0 ? '+' : ''}${r.rss_growth_mb}) | ${r.quotes.p50_ms} / ${r.quotes.p99_ms} | ${r.reads.p50_ms} / ${r.reads.p99_ms} | ${r.service_event_loop_delay_ms.p99} / ${r.service_event_loop_delay_ms.max} | ${r.service_gc.major.count} (${r.service_gc.major.s}) | ${r.machine_idle_pct} |`,
    );
  }
  const growth = Math.max(...of('service').map((r) => r.rss_growth_mb));
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  console.log(
    `\nthroughput, median: service ${serviceMbps} MB/s, floor ${bareMbps} MB/s: ${(serviceMbps / bareMbps).toFixed(2)}× (goal ≥ 0.8×: ${verdict(serviceMbps >= 0.8 * bareMbps)})`,
  );
  console.log(`service RSS growth, largest of the runs: ${growth} MB (goal ≤ 64 MB: ${verdict(growth <= 64)})`);
  for (const kind of ['quotes', 'reads']) {
    const idle = pooled('idle', kind).p99_ms;
    const during = pooled('service', kind).p99_ms;
    const floor = pooled('bare', kind).p99_ms;
    console.log(
      `${kind} p99, every run's phase together: idle ${idle} ms; during the service's uploads ${during} ms: ${(during / idle).toFixed(2)}× (goal ≤ 2×: ${verdict(during <= 2 * idle)}); during the floor's uploads ${floor} ms (${(floor / idle).toFixed(2)}×)`,
    );
  }
} finally {
  for (const stop of stops.reverse()) await stop().catch((err) => console.error(String(err)));
}
