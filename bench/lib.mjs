// Shared pieces of the benchmarks (bench/run.mjs, bench/floor.mjs): loopback servers, the load
// loop, and the embedded service (`node dist/main.js`) with an account, a media server and a
// callback receiver. Plain JS; needs `npm run build` first.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export function wav(seconds) {
  const data = 8000 * seconds;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0); h.writeUInt32LE(36 + data, 4); h.write('WAVE', 8); h.write('fmt ', 12);
  h.writeUInt32LE(16, 16); h.writeUInt16LE(1, 20); h.writeUInt16LE(1, 22); h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(8000, 28); h.writeUInt16LE(1, 32); h.writeUInt16LE(8, 34); h.write('data', 36); h.writeUInt32LE(data, 40);
  return Buffer.concat([h, Buffer.alloc(data, 0x80)]);
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
    fresh: async () => { await dropIt(); await admin.query(`CREATE DATABASE ${name}`); },
    drop: async () => { await dropIt(); await admin.end(); },
  };
}

export const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Runs `once(i)` for i in 0..count-1, `concurrency` at a time; prints and returns one JSON row. */
export async function measure(name, count, concurrency, once) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const t = performance.now();
      await once(i);
      latencies.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const row = { name, count, concurrency, per_second: +(count / seconds).toFixed(1), p50_ms: +quantile(latencies, 0.5).toFixed(1), p95_ms: +quantile(latencies, 0.95).toFixed(1), p99_ms: +quantile(latencies, 0.99).toFixed(1), max_ms: +latencies.at(-1).toFixed(1) };
  console.log(JSON.stringify(row));
  return row;
}

/** Waits until a child's stdout contains `marker`; throws with its output if it exits first. */
export async function waitForOutput(child, marker, label) {
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  while (!output.includes(marker)) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}): ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return output;
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
 * Starts the embedded service (`node dist/main.js`) with a media server (a 10-minute WAV), a
 * callback receiver and one account. `temporalAddress` runs it against that Temporal instead of
 * its own embedded dev server. `env` adds to the service's environment; `nodeArgs` go to node
 * (`--cpu-prof` to profile it). `cluster: { apis, workers }` starts `npm run start:cluster`
 * (scripts/cluster.mjs, needs DATABASE_URL in `env`) instead, and spreads orders over its APIs.
 */
export async function startService({ concurrency, temporalAddress, env: extraEnv = {}, nodeArgs = [], cluster }) {
  // A static file server, as media hosts are: the file with a strong ETag, 304 to a matching If-None-Match.
  const file = wav(600);
  const etag = '"bench-600"';
  const media = await listen((req, res) => {
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': file.length, etag }).end(file);
  });
  const delivered = new Map();
  const receiver = await listen((req, res) => {
    let raw = '';
    req.on('data', (d) => { raw += d; });
    req.on('end', () => {
      const id = /name="order_id"\r\n\r\n(\d+)/.exec(raw)?.[1];
      delivered.get(Number(id))?.();
      res.end('ok');
    });
  });

  const dataDir = await mkdtemp(join(tmpdir(), 'order-bench-'));
  const port = await freePort();
  const env = {
    ...process.env, DATA_DIR: dataDir, PORT: String(port), TEMPORAL_DEV_PORT: String(await freePort()), TEMPORAL_UI_PORT: String(await freePort()),
    QUALITY_CHECK_PROBABILITY: '0', CALLBACK_RETRY_MIN_MS: '10', CALLBACK_RETRY_MAX_MS: '100',
    // Media and receiver are on loopback; one account places every order, `concurrency` at a time.
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128', PROBES_PER_ACCOUNT: String(concurrency),
    // A benchmark measures the work, not the per-token limiter (0 turns a limit off).
    RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_READS_PER_MINUTE: '0',
  };
  // PGlite in the temp directory unless the caller names a PostgreSQL database.
  delete env.DATABASE_URL;
  Object.assign(env, extraEnv);
  if (!temporalAddress) delete env.TEMPORAL_ADDRESS; else env.TEMPORAL_ADDRESS = temporalAddress;
  if (cluster) Object.assign(env, { CLUSTER_APIS: String(cluster.apis), CLUSTER_WORKERS: String(cluster.workers) });
  const script = cluster ? 'scripts/cluster.mjs' : 'dist/main.js';
  const child = spawn(process.execPath, [...nodeArgs, script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = async () => {
    await stopChild(child);
    media.server.close();
    receiver.server.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForOutput(child, cluster ? 'Cluster:' : '"msg":"started"', script);
    const bases = Array.from({ length: cluster?.apis ?? 1 }, (_, i) => `http://127.0.0.1:${port + i}`);
    const base = bases[0];
    let turn = 0;
    const opsToken = (await readFile(join(dataDir, 'ops-token'), 'utf8')).trim();
    const ops = (method, path, body, raw) => fetch(base + path, {
      method, headers: { authorization: `Bearer ${opsToken}`, 'content-type': raw ? 'application/octet-stream' : 'application/json' },
      body: raw ?? (body && JSON.stringify(body)),
    }).then((r) => r.json());
    const { account_id: accountId, api_token: token } = await ops('POST', '/ops/accounts', { name: 'bench', balance: 1_000_000 });
    const order = (mode, extra = {}) => fetch(`${bases[turn++ % bases.length]}/api/v4/transcriptions`, {
      method: 'POST', body: new URLSearchParams({ api_token: token, mode, url: `${media.url}/a.wav`, language: 'english', ...extra }),
    }).then(async (r) => { const body = await r.json(); if (r.status !== 200) throw new Error(JSON.stringify(body)); return body; });
    /** The operator completes order `id` (file by claim-check); resolves when the receiver has its callback. */
    const complete = async (id, key) => {
      const arrived = new Promise((r) => delivered.set(id, r));
      await ops('POST', `/ops/orders/${id}/complete`, { files: [{ kind: 'transcription', key, file_name: 't.txt' }] });
      await arrived;
    };
    return { base, accountId, token, ops, order, complete, mediaUrl: media.url, receiverUrl: receiver.url, pid: child.pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
