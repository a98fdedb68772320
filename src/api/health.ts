// Liveness and readiness. `/healthz`: the process answers. `/readyz`: what this process needs to do
// its work answers within a short deadline — the database (`SELECT 1`), Temporal (`GetSystemInfo`)
// and, in a role with a worker, the workers poll (state RUNNING). docs/operations.md.
import { createServer, type Server } from 'node:http';
import type { RequestHandler } from 'express';
import { pingDatabase, type Db } from '../db/connection.js';

/** One readiness check: resolves when ready, throws (a short reason) when not. */
export type ReadinessCheck = () => Promise<void>;
export type ReadinessChecks = Record<string, ReadinessCheck>;

export type CheckResult = { status: 'ok' } | { status: 'failed'; error: string };
export interface Readiness {
  status: 'ready' | 'unready';
  checks: Record<string, CheckResult>;
}

/** Each check's deadline: a readiness probe must answer quickly, also when something hangs. */
export const READINESS_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function databaseCheck(db: Db, timeoutMs = READINESS_TIMEOUT_MS): ReadinessCheck {
  return async () => {
    await withTimeout(pingDatabase(db), timeoutMs, 'the database');
  };
}

/** A Temporal connection (the client's `Connection` or the worker's `NativeConnection`) answers GetSystemInfo. */
export function temporalCheck(
  connection: {
    withDeadline<R>(deadline: number | Date, fn: () => Promise<R>): Promise<R>;
    workflowService: { getSystemInfo(request: object): Promise<unknown> };
  },
  timeoutMs = READINESS_TIMEOUT_MS,
): ReadinessCheck {
  return async () => {
    await withTimeout(
      connection.withDeadline(Date.now() + timeoutMs, () => connection.workflowService.getSystemInfo({})),
      timeoutMs + 500,
      'Temporal',
    );
  };
}

/** The workers poll: their state (src/temporal/worker.ts) is RUNNING. */
export function workerCheck(state: () => string): ReadinessCheck {
  return async () => {
    const now = state();
    if (now !== 'RUNNING') throw new Error(`the worker is ${now}`);
  };
}

/** Runs every check at once; ready when all passed. */
export async function readiness(checks: ReadinessChecks): Promise<Readiness> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, CheckResult]> => {
      try {
        await check();
        return [name, { status: 'ok' }];
      } catch (err) {
        return [name, { status: 'failed', error: err instanceof Error ? err.message : String(err) }];
      }
    }),
  );
  const results = Object.fromEntries(entries);
  return { status: entries.every(([, r]) => r.status === 'ok') ? 'ready' : 'unready', checks: results };
}

/** GET /readyz: 200 `{status:"ready", checks}` or 503 `{status:"unready", checks}` naming the failed check. */
export function readyzHandler(checks: ReadinessChecks): RequestHandler {
  // Express 5 passes what an async handler throws to next(), a failure to answer included.
  return async (_req, res) => {
    const result = await readiness(checks);
    res
      .status(result.status === 'ready' ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(result);
  };
}

/**
 * The worker role's tiny health listener (HEALTH_PORT): `/healthz` and `/readyz` only, for
 * docker-compose and orchestrators; the worker has no API server.
 */
export function startHealthServer(port: number, checks: ReadinessChecks, host?: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, { status: 'method not allowed' });
    if (path === '/healthz') return answer(200, { status: 'ok' });
    if (path === '/readyz') {
      readiness(checks).then(
        (r) => answer(r.status === 'ready' ? 200 : 503, r),
        (err: unknown) => answer(500, { status: 'unready', error: String(err) }),
      );
      return;
    }
    answer(404, { status: 'not found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
