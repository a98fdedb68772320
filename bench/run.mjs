// Order placement benchmark against the embedded stack (`node dist/main.js`), on loopback.
// Usage: npm run build && npm run bench [-- --orders 200 --concurrency 10]
// BENCH_TEMPORAL_ADDRESS=host:port runs against that Temporal instead of the embedded dev server.
// Measures test-mode pricing (media probe included), live orders (Update-with-Start + charge),
// and complete → callback delivery. Results go in docs/benchmarks.md.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { orders: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '10' } } });
const ORDERS = Number(values.orders);
const CONCURRENCY = Number(values.concurrency);

function wav(seconds) {
  const data = 8000 * seconds;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0); h.writeUInt32LE(36 + data, 4); h.write('WAVE', 8); h.write('fmt ', 12);
  h.writeUInt32LE(16, 16); h.writeUInt16LE(1, 20); h.writeUInt16LE(1, 22); h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(8000, 28); h.writeUInt16LE(1, 32); h.writeUInt16LE(8, 34); h.write('data', 36); h.writeUInt32LE(data, 40);
  return Buffer.concat([h, Buffer.alloc(data, 0x80)]);
}

async function listen(handler) {
  const server = createServer(handler);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

async function freePort() {
  const { server } = await listen(() => undefined);
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function measure(name, count, concurrency, once) {
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
  const row = { name, count, concurrency, per_second: +(count / seconds).toFixed(1), p50_ms: +quantile(latencies, 0.5).toFixed(1), p95_ms: +quantile(latencies, 0.95).toFixed(1), max_ms: +latencies.at(-1).toFixed(1) };
  console.log(JSON.stringify(row));
  return row;
}

const media = await listen((req, res) => {
  const body = wav(600);
  res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length }).end(body);
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
};
delete env.DATABASE_URL;
if (!process.env.BENCH_TEMPORAL_ADDRESS) delete env.TEMPORAL_ADDRESS; else env.TEMPORAL_ADDRESS = process.env.BENCH_TEMPORAL_ADDRESS;
const child = spawn(process.execPath, ['dist/main.js'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
let output = '';
child.stdout.on('data', (d) => { output += d; });
while (!output.includes('"msg":"started"')) {
  if (child.exitCode !== null) throw new Error(output);
  await new Promise((r) => setTimeout(r, 200));
}
const base = `http://127.0.0.1:${port}`;
const { readFile } = await import('node:fs/promises');
const opsToken = (await readFile(join(dataDir, 'ops-token'), 'utf8')).trim();
const ops = (method, path, body, raw) => fetch(base + path, {
  method, headers: { authorization: `Bearer ${opsToken}`, 'content-type': raw ? 'application/octet-stream' : 'application/json' },
  body: raw ?? (body && JSON.stringify(body)),
}).then((r) => r.json());

try {
  const { api_token: token } = await ops('POST', '/ops/accounts', { name: 'bench', balance: 1_000_000 });
  const order = (mode, extra = {}) => fetch(`${base}/api/v4/transcriptions`, {
    method: 'POST', body: new URLSearchParams({ api_token: token, mode, url: `${media.url}/a.wav`, language: 'english', ...extra }),
  }).then(async (r) => { const body = await r.json(); if (r.status !== 200) throw new Error(JSON.stringify(body)); return body; });

  await order('test'); // warm-up
  await measure('test-mode order (price + media probe)', ORDERS, CONCURRENCY, () => order('test'));
  const ids = [];
  await measure('live order (Update-with-Start + charge)', ORDERS, CONCURRENCY, async () => ids.push((await order('live', { callback_url: receiver.url })).order_id));
  const { key } = await ops('PUT', '/ops/files', undefined, Buffer.from('Speaker 1: benchmark transcript.'));
  await measure('complete → callback delivered', ids.length, CONCURRENCY, async (i) => {
    const arrived = new Promise((r) => delivered.set(ids[i], r));
    await ops('POST', `/ops/orders/${ids[i]}/complete`, { files: [{ kind: 'transcription', key, file_name: 't.txt' }] });
    await arrived;
  });
} finally {
  child.kill('SIGINT');
  await new Promise((r) => child.once('exit', r));
  media.server.close();
  receiver.server.close();
  await rm(dataDir, { recursive: true, force: true });
}
