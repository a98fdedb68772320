// /healthz and /readyz (docs/operations.md, Health checks): ready when the database answers
// `SELECT 1`, Temporal answers GetSystemInfo and, in a role with a worker, the workers poll;
// 503 naming the failed check when the database goes away.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import express from 'express';
import pg from 'pg';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { freshDatabase } from '../helpers/databases.js';
import { listen, close, freePort, waitFor } from '../helpers/net.js';
import { startService, type TestService } from '../helpers/service.js';
import { startRoleProcess } from '../helpers/workerProcess.js';
import { databaseCheck, readiness, readyzHandler, temporalCheck, workerCheck } from '../../src/api/health.js';

const getJson = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, { status: string; error?: string }> } };
};

describe('readiness checks', () => {
  it('the worker check is ready only while the workers run', async () => {
    let state = 'RUNNING';
    const checks = { worker: workerCheck(() => state) };
    expect(await readiness(checks)).toEqual({ status: 'ready', checks: { worker: { status: 'ok' } } });
    state = 'DRAINING';
    expect(await readiness(checks)).toEqual({ status: 'unready', checks: { worker: { status: 'failed', error: 'the worker is DRAINING' } } });
  });

  it('an unreachable Temporal fails its check within the deadline', async () => {
    // No retry interceptor: the SDK's retries of the refused call would outlive the check, and one
    // firing after close() throws "Channel has been shut down" from a timer (an unhandled error).
    const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}`, interceptors: [] });
    const started = Date.now();
    const result = await readiness({ temporal: temporalCheck(connection, 500) });
    expect(result.status).toBe('unready');
    expect(result.checks.temporal!.status).toBe('failed');
    expect(Date.now() - started).toBeLessThan(5_000);
    await connection.close();
  });

  it('PGlite: /readyz turns unready when the database is closed', async () => {
    const database = await freshDatabase('pglite');
    const app = express();
    app.get('/readyz', readyzHandler({ database: databaseCheck(database.db) }));
    const server = createServer(app);
    const base = await listen(server);
    try {
      expect(await getJson(`${base}/readyz`)).toEqual({ status: 200, body: { status: 'ready', checks: { database: { status: 'ok' } } } });
      await database.close();
      const down = await getJson(`${base}/readyz`);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unready', checks: { database: { status: 'failed', error: expect.any(String) } } });
    } finally {
      await close(server);
    }
  });
});

describeNeeding('workerProcess', '/readyz of the api and worker roles on PostgreSQL', () => {
  let service: TestService;
  const children: ChildProcess[] = [];
  let admin: pg.Client;
  let name: string;

  beforeAll(async () => {
    service = await startService({ engine: 'postgres', inProcessWorker: false });
    name = new URL(service.database.url!).pathname.slice(1);
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await admin?.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin?.end();
    await service?.close();
  });

  it('is ready with every check, 503 naming the database while it is unreachable, ready again after', async () => {
    const healthPort = await freePort();
    const worker = await startRoleProcess(service, 'worker', children, { HEALTH_PORT: String(healthPort) });
    const workerBase = `http://127.0.0.1:${healthPort}`;

    expect(await service.get('/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await getJson(`${service.baseUrl}/readyz`)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: { status: 'ok' }, temporal: { status: 'ok' } } },
    });
    expect(await getJson(`${workerBase}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(
      await waitFor(async () => {
        const r = await getJson(`${workerBase}/readyz`);
        return r.status === 200 && r;
      }, 'the worker ready'),
    ).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: { status: 'ok' }, temporal: { status: 'ok' }, worker: { status: 'ok' } } },
    });

    // The database stops taking connections and drops those it has.
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    for (const base of [service.baseUrl, workerBase]) {
      const down = await waitFor(async () => {
        const r = await getJson(`${base}/readyz`);
        return r.status === 503 && r;
      }, `${base} unready`);
      expect(down.body).toMatchObject({ status: 'unready', checks: { database: { status: 'failed', error: expect.any(String) }, temporal: { status: 'ok' } } });
    }
    expect(await service.get('/healthz')).toMatchObject({ status: 200 });

    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    for (const base of [service.baseUrl, workerBase]) {
      await waitFor(async () => (await getJson(`${base}/readyz`)).status === 200, `${base} ready again`);
    }

    // The worker role stops cleanly on SIGTERM.
    let output = '';
    worker.stdout!.on('data', (d) => {
      output += d;
    });
    worker.stderr!.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/shutdown step failed|worker failed|IllegalStateError/);
  }, 120_000);
});
