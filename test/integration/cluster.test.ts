// `npm run start:cluster` as docs/operations.md (Deployment) documents it (scripts/cluster.mjs): two api and two worker
// processes on one PostgreSQL database and one dev server. Orders placed through either API are
// charged once, completed by order-ops through the other, called back, and read back alike from
// both; SIGTERM stops every process. PostgreSQL leg only (PGlite serves one process).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { close, freePort, waitFor } from '../helpers/net.js';
import { auditLedger } from '../helpers/ledgerAudit.js';

const run = promisify(execFile);

/** Two consecutive free ports (the cluster's APIs listen on PORT and PORT + 1). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const next = createServer();
    const free = await new Promise<boolean>((r) => {
      next.once('error', () => r(false));
      next.listen(port + 1, '127.0.0.1', () => r(true));
    });
    if (free) {
      await close(next);
      return port;
    }
  }
}

describeNeeding('workerProcess', 'npm run start:cluster', () => {
  let database: TestDatabase;
  let dataDir: string;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  let env: NodeJS.ProcessEnv;
  let cluster: ChildProcess;
  let output = '';
  let bases: string[];

  beforeAll(async () => {
    [database, dataDir, media, receiver] = await Promise.all([
      freshDatabase('postgres'),
      mkdtemp(join(tmpdir(), 'order-cluster-')),
      startMediaServer(),
      startCallbackReceiver(),
    ]);
    const port = await freePortPair();
    bases = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`];
    env = {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      CALLBACK_RETRY_MIN_MS: '10',
      CALLBACK_RETRY_MAX_MS: '100',
      QUALITY_CHECK_PROBABILITY: '0',
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
      AI_ENGINE: 'operator',
      ALIGN_ENGINE: 'operator',
    };
    delete env.TEMPORAL_ADDRESS;
    cluster = spawn(process.execPath, ['scripts/cluster.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    cluster.stdout!.on('data', (d) => {
      output += d;
    });
    cluster.stderr!.on('data', (d) => {
      output += d;
    });
    await waitFor(() => output.includes('Cluster:') || (cluster.exitCode !== null && Promise.reject(new Error(output))), 'the cluster to start', 120_000);
  }, 150_000);
  afterAll(async () => {
    // After a failure the cluster may still run: stop it as Ctrl-C would, and never leave its children behind.
    if (cluster?.exitCode === null) {
      const exited = new Promise((r) => cluster.once('exit', r));
      cluster.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    }
    for (const pid of Object.values(pids())) if (alive(pid)) process.kill(pid, 'SIGKILL');
    if (cluster?.exitCode === null) cluster.kill('SIGKILL');
    await Promise.all([media?.close(), receiver?.close()]);
    await rm(dataDir, { recursive: true, force: true });
    await database?.close();
  }, 40_000);

  const pids = (): Record<string, number> => Object.fromEntries([...output.matchAll(/^((?:api|worker)-\d): pid (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const orderOps = (...args: string[]) => run(process.execPath, ['dist/cli/order-ops.js', ...args], { env });

  it('serves orders through both APIs with both workers, each charged once and called back, and stops every process on SIGTERM', async () => {
    expect(Object.keys(pids()).sort()).toEqual(['api-1', 'api-2', 'worker-1', 'worker-2']);
    const started = [...output.matchAll(/^\{.*"msg":"started".*\}$/gm)].map((m) => JSON.parse(m[0]) as { pid: number; role: string; database: string });
    expect(started.map((s) => s.role).sort()).toEqual(['api', 'api', 'worker', 'worker']);
    expect(new Set(started.map((s) => s.database))).toEqual(new Set(['postgres']));
    expect(started.map((s) => s.pid).sort()).toEqual(Object.values(pids()).sort());

    const opsToken = (await readFile(join(dataDir, 'ops-token'), 'utf8')).trim();
    const account = (await fetch(`${bases[1]}/ops/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${opsToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cluster', balance: 100 }),
    }).then((r) => r.json())) as { account_id: number; api_token: string };

    // Six orders, alternating between the APIs; each 2-minute order costs $2.50.
    const placed: Array<{ order_id: number; in_wallet: number }> = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${bases[i % 2]}/api/v4/transcriptions`, {
        method: 'POST',
        body: new URLSearchParams({ api_token: account.api_token, mode: 'live', url: media.audio(120), language: 'english', callback_url: receiver.url }),
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      placed.push(body as { order_id: number; in_wallet: number });
    }
    expect(placed.map((p) => p.in_wallet)).toEqual([97.5, 95, 92.5, 90, 87.5, 85]);

    // order-ops talks to the first API (PORT); the workflows are on whichever worker took them.
    const transcript = join(dataDir, 'transcript.txt');
    await writeFile(transcript, 'Speaker 1: one cluster, two of each.\n');
    for (const { order_id } of placed) {
      const completed = await orderOps('complete', String(order_id), '--file', `transcription=${transcript}`);
      expect(JSON.parse(completed.stdout)).toEqual({ order_id, status: 'finished' });
    }
    await waitFor(() => placed.every((p) => receiver.received.some((c) => c.fields.order_id === String(p.order_id))), 'every callback');
    expect(receiver.received).toHaveLength(6);

    // Both APIs read the same orders and the same wallet.
    for (const base of bases) {
      const { orders } = (await fetch(`${base}/api/v4/orders?mode=live&api_token=${account.api_token}`).then((r) => r.json())) as {
        orders: Array<{ id: number; status: string }>;
      };
      expect(orders.map((o) => [o.id, o.status]).sort()).toEqual(placed.map((p) => [p.order_id, 'finished']).sort());
    }
    // One charge per order, entries summing to the balance: $100 − 6 × $2.50.
    const audit = await auditLedger(database.db);
    expect(audit.problems).toEqual([]);
    expect(audit.orders).toBe(6);

    // Each worker's log lines name its pid; the work went to the workers, none to the APIs.
    const workerPids = new Set([pids()['worker-1'], pids()['worker-2']]);
    const deliveries = [...output.matchAll(/^\{.*"msg":"callback delivered".*\}$/gm)].map((m) => JSON.parse(m[0]) as { pid: number });
    expect(deliveries.length).toBeGreaterThanOrEqual(6);
    for (const d of deliveries) expect(workerPids.has(d.pid)).toBe(true);

    const exited = new Promise<number | null>((r) => cluster.once('exit', (code) => r(code)));
    cluster.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of Object.values(pids())) expect(alive(pid)).toBe(false);
  }, 120_000);
});
