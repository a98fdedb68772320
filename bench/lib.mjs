// Shared pieces of the benchmarks (bench/*.mjs): loopback servers, the load
// loop, and the embedded service (`node dist/main.js`) with an account, a media server and a
// callback receiver. Plain JS; needs `npm run build` first.
import { spawn } from 'node:child_process';
import { openSync, closeSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import pg from 'pg';
import { EXAMPLE_MEDIA_ORIGIN, openApiDocument } from '../dist/api/openapi/document.js';
import { startServiceDevServer } from '../dist/temporal/devServer.js';

/** A WAV of `seconds` of silence: 8 kHz, 8-bit unsigned PCM, mono (8,000 bytes a second). */
export function wav(seconds) {
  const data = 8000 * seconds;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(8000, 28);
  h.writeUInt16LE(1, 32);
  h.writeUInt16LE(8, 34);
  h.write('data', 36);
  h.writeUInt32LE(data, 40);
  return Buffer.concat([h, Buffer.alloc(data, 0x80)]);
}

/** A greyscale PNG of `width` × `height` pixels. */
export function png(width, height) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // 8-bit greyscale
  const rows = Buffer.concat(Array.from({ length: height }, (_, y) => Buffer.from([0, ...Array.from({ length: width }, (_, x) => 128 + ((x + y) % 64))])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Each product's example order in the OpenAPI document, by path ('ai-transcriptions'), its files on `mediaUrl`. */
export function productExamples(mediaUrl) {
  const examples = {};
  for (const [path, item] of Object.entries(openApiDocument().paths)) {
    const example = item.post?.requestBody?.content['application/json'].examples?.quote.value;
    if (example) examples[path.slice('/api/v4/'.length)] = JSON.parse(JSON.stringify(example).replaceAll(EXAMPLE_MEDIA_ORIGIN, mediaUrl));
  }
  return examples;
}

export async function listen(handler) {
  const server = createServer(handler);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

export async function freePort() {
  const { server } = await listen(() => undefined);
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** A database of its own on the PostgreSQL server that DATABASE_URL names: made anew by fresh(), dropped by drop(). */
export async function benchDatabase(name) {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error(`DATABASE_URL must name a PostgreSQL server (its database \`${name}\` is made and dropped)`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const dropIt = () => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  return {
    url: url.href,
    fresh: async () => {
      await dropIt();
      await admin.query(`CREATE DATABASE ${name}`);
    },
    drop: async () => {
      await dropIt();
      await admin.end();
    },
  };
}

export const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Runs `once(i)` for i in 0..count-1, `concurrency` at a time; prints and returns one JSON row. */
export async function measure(name, count, concurrency, once) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        await once(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const row = {
    name,
    count,
    concurrency,
    per_second: +(count / seconds).toFixed(1),
    p50_ms: +quantile(latencies, 0.5).toFixed(1),
    p95_ms: +quantile(latencies, 0.95).toFixed(1),
    p99_ms: +quantile(latencies, 0.99).toFixed(1),
    max_ms: +latencies.at(-1).toFixed(1),
  };
  console.log(JSON.stringify(row));
  return row;
}

/** Polls `read()` until its text contains `marker`; throws with the text's end if `child` exits first. */
async function pollFor(child, label, marker, read) {
  for (;;) {
    const text = await read();
    if (text.includes(marker)) return text;
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}): ${text.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until `child`'s stdout (a pipe) shows `marker`; returns what it printed, then drains the rest unread. */
export async function waitForOutput(child, marker, label) {
  let output = '';
  const collect = (d) => {
    output += d;
  };
  child.stdout.on('data', collect);
  try {
    return await pollFor(child, label, marker, () => output);
  } finally {
    child.stdout.off('data', collect);
    child.stdout.resume();
  }
}

/** Waits until the log file `path` contains `marker`. */
const waitForLog = (child, path, marker, label) => pollFor(child, label, marker, () => readFile(path, 'utf8'));

/** bench/bareExpress.mjs in its own process, answering `json` to every request: the floor. */
export async function startBareExpress(json) {
  const child = spawn(process.execPath, [new URL('./bareExpress.mjs', import.meta.url).pathname], {
    env: { ...process.env, BENCH_JSON: JSON.stringify(json) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const { listening } = JSON.parse((await waitForOutput(child, 'listening', 'bareExpress')).trim().split('\n')[0]);
    return { url: `http://127.0.0.1:${listening}`, pid: child.pid, stop: () => stopChild(child) };
  } catch (err) {
    await stopChild(child);
    throw err;
  }
}

export async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the embedded service (`node dist/main.js`) with a media server (a 10-minute WAV at every
 * path but /short.wav, a 60-second one, and the document files below), a callback receiver and
 * one account. `temporalAddress` runs it against that Temporal instead of its own embedded dev
 * server. `env` adds to the service's environment; `nodeArgs` go to node
 * (`--cpu-prof` to profile it). `cluster: { apis, workers }` starts `npm run start:cluster`
 * (scripts/cluster.mjs, needs DATABASE_URL in `env`) instead, spreads orders over its APIs and
 * returns each process's pid by name (`pids['worker-1']`). The account holds `balance` dollars.
 */
export async function startService({ concurrency, temporalAddress, env: extraEnv = {}, nodeArgs = [], cluster, balance = 1_000_000 }) {
  // A static file server, as media hosts are: each file with a strong ETag, 304 to a matching
  // If-None-Match. The text and the page image serve the document products' example orders.
  const files = {
    '/notes.txt': { type: 'text/plain', etag: '"bench-notes"', body: Buffer.from('This is the transcript of the recording, a few words long.\n'.repeat(20)) },
    '/page.png': { type: 'image/png', etag: '"bench-page"', body: png(64, 64) },
    '/short.wav': { type: 'audio/wav', etag: '"bench-60"', body: wav(60) },
  };
  const audio = { type: 'audio/wav', etag: '"bench-600"', body: wav(600) }; // at every other path
  const media = await listen((req, res) => {
    const file = files[new URL(req.url, 'http://media').pathname] ?? audio;
    const { etag } = file;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length, etag }).end(file.body);
  });
  const delivered = new Map();
  const receiver = await listen((req, res) => {
    let raw = '';
    req.on('data', (d) => {
      raw += d;
    });
    req.on('end', () => {
      const id = /name="order_id"\r\n\r\n(\d+)/.exec(raw)?.[1];
      delivered.get(Number(id))?.();
      res.end('ok');
    });
  });

  const dataDir = await mkdtemp(join(tmpdir(), 'order-bench-'));
  const port = await freePort();
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    TEMPORAL_DEV_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    QUALITY_CHECK_PROBABILITY: '0',
    CALLBACK_RETRY_MIN_MS: '10',
    CALLBACK_RETRY_MAX_MS: '100',
    // Media and receiver are on loopback; one account places every order, `concurrency` at a time.
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    PROBES_PER_ACCOUNT: String(concurrency),
    // A benchmark measures the work, not the per-token limiter (0 turns a limit off).
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_READS_PER_MINUTE: '0',
  };
  // PGlite in the temp directory unless the caller names a PostgreSQL database.
  delete env.DATABASE_URL;
  Object.assign(env, extraEnv);
  if (!temporalAddress) delete env.TEMPORAL_ADDRESS;
  else env.TEMPORAL_ADDRESS = temporalAddress;
  if (cluster) Object.assign(env, { CLUSTER_APIS: String(cluster.apis), CLUSTER_WORKERS: String(cluster.workers) });
  const script = cluster ? 'scripts/cluster.mjs' : 'dist/main.js';
  // The service logs to a file, as it would to a log collector: the bench's own loop never drains its pipe.
  const logFile = join(dataDir, 'service.log');
  const logFd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeArgs, script], { env, stdio: ['ignore', logFd, 'inherit'] });
  closeSync(logFd);
  const stop = async () => {
    await stopChild(child);
    media.server.close();
    receiver.server.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForLog(child, logFile, cluster ? 'Cluster:' : '"msg":"started"', script);
    const bases = Array.from({ length: cluster?.apis ?? 1 }, (_, i) => `http://127.0.0.1:${port + i}`);
    const base = bases[0];
    let turn = 0;
    const opsToken = (await readFile(join(dataDir, 'ops-token'), 'utf8')).trim();
    const ops = (method, path, body, raw) =>
      fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${opsToken}`, 'content-type': raw ? 'application/octet-stream' : 'application/json' },
        body: raw ?? (body && JSON.stringify(body)),
      }).then((r) => r.json());
    const { account_id: accountId, api_token: token } = await ops('POST', '/ops/accounts', { name: 'bench', balance });
    const post = (path, init) =>
      fetch(`${bases[turn++ % bases.length]}/api/v4/${path}`, { method: 'POST', ...init }).then(async (r) => {
        const body = await r.json();
        if (r.status !== 200) throw new Error(`${path}: ${JSON.stringify(body)}`);
        return body;
      });
    /** A transcription order of the 10-minute WAV, as a form. */
    const order = (mode, extra = {}) =>
      post('transcriptions', { body: new URLSearchParams({ api_token: token, mode, url: `${media.url}/a.wav`, language: 'english', ...extra }) });
    /** A live order at /api/v4/<path> with these fields (files on this bench's media server: `mediaUrl`), as JSON. */
    const orderAt = (path, fields) =>
      post(path, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...fields, api_token: token, mode: 'live', callback_url: receiver.url }),
      });
    /** The operator completes order `id` (file by claim-check); resolves when the receiver has its callback. */
    const complete = async (id, key) => {
      const arrived = new Promise((r) => delivered.set(id, r));
      await ops('POST', `/ops/orders/${id}/complete`, { files: [{ kind: 'transcription', key, file_name: 't.txt' }] });
      await arrived;
    };
    // The cluster script names each process's pid ("worker-1: pid 123").
    const pids = Object.fromEntries([...(await readFile(logFile, 'utf8')).matchAll(/^([a-z]+-\d+): pid (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
    return { base, accountId, token, ops, order, orderAt, complete, mediaUrl: media.url, receiverUrl: receiver.url, pid: child.pid, pids, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * A Temporal dev server started as `npm start` starts it (startServiceDevServer) in a temporary folder, and the floors'
 * worker (bench/floorWorker.mjs) in its own process; `uws(kind)()` places one floor order: a bare
 * Update-with-Start whose update runs one no-op activity (`activity`) or local activity (`local`).
 * `stops` gets what stops them.
 */
export async function startFloors(stops) {
  const tmp = await mkdtemp(join(tmpdir(), 'order-floor-'));
  stops.push(() => rm(tmp, { recursive: true, force: true }));
  const dev = await startServiceDevServer({
    cliPath: process.env.TEMPORAL_CLI_PATH ?? fileURLToPath(new URL('../.temporal/bin/temporal', import.meta.url)),
    port: await freePort(),
    dbFile: join(tmp, 'temporal.db'),
    namespace: 'default',
  });
  stops.push(() => dev.stop());
  const runId = Date.now().toString(36);
  const taskQueue = `floor-${runId}`;
  const worker = spawn(process.execPath, [fileURLToPath(new URL('./floorWorker.mjs', import.meta.url))], {
    env: { ...process.env, BENCH_TEMPORAL_ADDRESS: dev.address, BENCH_TASK_QUEUE: taskQueue },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  stops.push(() => stopChild(worker));
  await waitForOutput(worker, 'running', 'floorWorker');
  const connection = await Connection.connect({ address: dev.address });
  stops.push(() => connection.close());
  const client = new Client({ connection, namespace: 'default' });
  let n = 0;
  const uws = (kind) => async () => {
    const start = new WithStartWorkflowOperation('floorWorkflow', {
      workflowId: `floor-${runId}-${kind}-${n++}`,
      taskQueue,
      args: [kind],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
    await client.workflow.executeUpdateWithStart('run', { startWorkflowOperation: start });
  };
  return { dev, client, uws };
}

/** The fields of a /proc `stat` file after the command's name; its CPU ms (utime + stime, 100 ticks a second). */
function statFields(path) {
  const text = readFileSync(path, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

/** CPU ms so far of process `pid` (all its threads; with `thread`, that one alone: a main thread's tid is its pid); undefined once it is gone. */
export function cpuMs(pid, thread) {
  try {
    return statFields(thread ? `/proc/${pid}/task/${thread}/stat` : `/proc/${pid}/stat`).cpuMs;
  } catch {
    return undefined;
  }
}

/** The whole machine's idle, iowait, steal and total ticks so far (/proc/stat): their growth over a phase is its share. */
export function machineTicks() {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return { idle: f[3], iowait: f[4] ?? 0, steal: f[7] ?? 0, total: f.reduce((a, b) => a + b, 0) };
}

/** Every process's CPU milliseconds so far, its parent and its command line (Linux /proc). */
function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const { ppid, cpuMs } = statFields(`/proc/${name}/stat`);
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      table.set(Number(name), { ppid, cpuMs, cmd });
    } catch {
      /* gone */
    }
  }
  return table;
}

/** CPU milliseconds spent so far by `pid` and its descendants. */
export function treeCpuMs(pid, table = processTable()) {
  let total = 0;
  for (const queue = [pid]; queue.length;) {
    const next = queue.pop();
    total += table.get(next)?.cpuMs ?? 0;
    for (const [child, p] of table) if (p.ppid === next) queue.push(child);
  }
  return total;
}

/**
 * CPU milliseconds so far of each named part of a bench run, each a process of this bench (and its
 * descendants) found by its command line, plus the bench's own process: `{ devServer: /start-dev/ }`.
 */
export function cpuOfParts(parts) {
  const table = processTable();
  const mine = [...table].filter(([, p]) => p.ppid === process.pid);
  const out = { bench: table.get(process.pid)?.cpuMs ?? 0 };
  for (const [name, pattern] of Object.entries(parts)) {
    const [pid] = mine.find(([, p]) => pattern.test(p.cmd)) ?? [];
    out[name] = pid === undefined ? 0 : treeCpuMs(pid, table);
  }
  return out;
}
