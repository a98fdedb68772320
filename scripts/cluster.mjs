// npm run start:cluster: the scaled topology without Docker, on one machine. Two `api` processes and
// two `worker` processes (node dist/main.js api|worker) on PostgreSQL (DATABASE_URL), against one
// Temporal server: TEMPORAL_ADDRESS, or a dev server this script starts (SQLite file in DATA_DIR).
// They share DATA_DIR (default data/cluster: keys, operator token, file store). The APIs listen on
// PORT and PORT + 1 (3000, 3001); put any HTTP load balancer in front of them. CLUSTER_APIS and
// CLUSTER_WORKERS change the counts. Ctrl-C (or SIGTERM) stops every process, workers last.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { loadConfig } from '../dist/config.js';
import { startServiceDevServer } from '../dist/temporal/devServer.js';

const env = { ...process.env, DATA_DIR: resolve(process.env.DATA_DIR ?? 'data/cluster') };
// One public address for the whole cluster (the load balancer's; by default the first API's): the
// result and upload URLs every API gives are the same, and an upload made through one API is
// ordered through the other.
env.PUBLIC_BASE_URL ??= `http://localhost:${Number(env.PORT ?? 3000)}`;
if (!env.DATABASE_URL) {
  console.error('start:cluster needs PostgreSQL: set DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres); PGlite serves one process');
  process.exit(2);
}
const apis = Number(env.CLUSTER_APIS ?? 2);
const workers = Number(env.CLUSTER_WORKERS ?? 2);

// The keys and the operator token are made once here, before any process could race to make its own.
const config = await loadConfig(env);
const children = [];
const stops = [];
let stopping = false;

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  // APIs first (they drain their requests), then the workers, then Temporal.
  for (const role of ['api', 'worker']) {
    await Promise.all(
      children
        .filter((c) => c.role === role && c.child.exitCode === null && c.child.signalCode === null)
        .map(
          ({ child }) =>
            new Promise((done) => {
              child.once('exit', done);
              child.kill('SIGTERM');
            }),
        ),
    );
  }
  for (const stop of stops.reverse()) await stop().catch((err) => console.error(err));
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

/**
 * Starts one role; resolves once it says it started (over an IPC channel). A process that dies
 * stops the cluster. Its log lines go straight to this script's stdout, unread here (each names its
 * pid; the "started" line its role too): relaying them would cost CPU on every request.
 */
function start(role, name, extra) {
  const child = spawn(process.execPath, ['dist/main.js', role], { env: { ...env, ...extra }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push({ role, child });
  console.log(`${name}: pid ${child.pid}`);
  return new Promise((ready, fail) => {
    child.on('message', (message) => {
      if (message?.started) ready();
    });
    child.once('exit', (code, signal) => {
      fail(new Error(`${name} exited (${signal ?? code}) before it started`));
      if (!stopping) {
        console.error(`${name} exited (${signal ?? code}); stopping the cluster`);
        void stopAll(1);
      }
    });
  });
}

try {
  let address = env.TEMPORAL_ADDRESS;
  if (!address) {
    const dev = await startServiceDevServer({
      cliPath: config.temporal.cliPath,
      port: config.temporal.devServerPort,
      uiPort: config.temporal.uiPort,
      dbFile: join(config.dataDir, 'temporal.db'),
      namespace: config.temporal.namespace,
      uiCodecEndpoint: `http://localhost:${config.port}/codec`,
    });
    stops.push(() => dev.stop());
    address = dev.address;
  }
  const shared = { TEMPORAL_ADDRESS: address };
  // One process migrates the database before the others start.
  await start('worker', 'worker-1', shared);
  await Promise.all(Array.from({ length: workers - 1 }, (_, i) => start('worker', `worker-${i + 2}`, shared)));
  await Promise.all(Array.from({ length: apis }, (_, i) => start('api', `api-${i + 1}`, { ...shared, PORT: String(config.port + i) })));
  console.log(`Cluster:     ${apis} api (ports ${config.port}–${config.port + apis - 1}), ${workers} worker, Temporal ${address}, data in ${config.dataDir}`);
  console.log(`Operator:    OPS_TOKEN is in ${join(config.dataDir, 'ops-token')}`);
} catch (err) {
  console.error(String(err));
  await stopAll(1);
}
