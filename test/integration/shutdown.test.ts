// SIGTERM under load (docs/operations.md, Shutdown): `node dist/main.js` (embedded: dev server,
// PGlite, worker, API) is stopped while a stream of quotes and live orders runs. It must exit 0
// without an error line, answer every request it started (a refused connection after the listener
// closed is fine, a reset mid-request is not) and leave no order half placed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { ledgerEntries, orders } from '../../src/db/schema.js';
import { freePort, waitFor } from '../helpers/net.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { auditLedger } from '../helpers/ledgerAudit.js';

interface Outcome {
  kind: 'quote' | 'live';
  key: string;
  /** The HTTP status, when answered. */
  status?: number;
  body?: { order_id?: number; status?: string; message?: string };
  /** The connection error's code, when not answered. */
  error?: string;
  /** Sent after SIGTERM. */
  afterSignal: boolean;
}

const errorCode = (err: unknown): string => {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(err);
};

describe('shutdown on SIGTERM under load', () => {
  let dataDir: string;
  let media: MediaServer;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'order-shutdown-'));
    media = await startMediaServer();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await media?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops accepting, answers what is in flight, drains the worker and exits 0 with the money right', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env, DATA_DIR: dataDir, PORT: String(port), TEMPORAL_DEV_PORT: String(await freePort()), TEMPORAL_UI_PORT: String(await freePort()),
      ENGINE_PORT: String(await freePort()), AI_ENGINE: 'operator', ALIGN_ENGINE: 'operator', QUALITY_CHECK_PROBABILITY: '0',
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128', RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_READS_PER_MINUTE: '100000',
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    const service = spawn(process.execPath, ['dist/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = service;
    let output = '';
    service.stdout!.on('data', (d) => { output += d; });
    service.stderr!.on('data', (d) => { output += d; });
    const exited = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));
    await waitFor(() => output.includes('Temporal UI:') || (service.exitCode !== null && Promise.reject(new Error(output))), 'the service to start', 90_000);
    const token = /api_token: (\S+)/.exec(output)?.[1];
    expect(token).toBeDefined();
    const base = `http://127.0.0.1:${port}`;

    let signalled = false;
    let seq = 0;
    const outcomes: Outcome[] = [];
    const send = async (kind: Outcome['kind']): Promise<Outcome> => {
      const key = `shutdown-${++seq}`;
      const afterSignal = signalled;
      try {
        const res = await fetch(`${base}/api/v4/transcriptions`, {
          method: 'POST',
          headers: kind === 'live' ? { 'Idempotency-Key': key } : {},
          body: new URLSearchParams({ api_token: token!, mode: kind === 'live' ? 'live' : 'test', url: media.audio(60), language: 'english' }),
        });
        const body = await res.json().catch(() => ({})) as Outcome['body'];
        return { kind, key, status: res.status, body, afterSignal };
      } catch (err) {
        return { kind, key, error: errorCode(err), afterSignal };
      }
    };
    // Each stream sends until the port is closed (or the process is gone).
    const stream = async (n: number) => {
      for (let i = 0; ; i++) {
        const outcome = await send((i + n) % 3 === 0 ? 'live' : 'quote');
        outcomes.push(outcome);
        if (outcome.error || service.exitCode !== null) return;
      }
    };
    const streams = Promise.all([0, 1, 2, 3, 4, 5].map(stream));
    await waitFor(() => outcomes.filter((o) => o.kind === 'live' && o.status === 200).length >= 5, 'live orders under load', 60_000);
    signalled = true;
    service.kill('SIGTERM');
    await streams;
    expect(await exited).toBe(0);
    child = undefined;

    // No error logged on the way out.
    expect(output).toContain('"msg":"stopping"');
    expect(output).not.toMatch(/shutdown step failed|worker failed|IllegalStateError|"level":"error"|\bERROR\b/);

    // Every request was answered, or refused before it started (the listener was closed).
    const unanswered = outcomes.filter((o) => o.error !== undefined);
    expect(unanswered.filter((o) => o.error !== 'ECONNREFUSED'), JSON.stringify(unanswered)).toEqual([]);
    expect(outcomes.filter((o) => o.status !== undefined && o.status >= 500 && o.status !== 503)).toEqual([]);
    const placed = outcomes.filter((o) => o.kind === 'live' && o.status === 200);
    expect(outcomes.filter((o) => o.kind === 'quote' && o.status === 200).length).toBeGreaterThan(5);
    // Some requests were in flight when the signal came, and were answered.
    expect(outcomes.filter((o) => o.status !== undefined).length).toBeGreaterThan(placed.length);

    // No order half placed: every answered live order is paid with exactly one charge, and every
    // charged order is one whose customer was told so.
    const database = await openDatabase({ pgliteDir: join(dataDir, 'pg') });
    try {
      const audit = await auditLedger(database.db);
      expect(audit.problems).toEqual([]);
      const rows = await database.db.select().from(orders);
      const charges = (await database.db.select().from(ledgerEntries)).filter((e) => e.kind === 'charge');
      for (const o of placed) {
        const row = rows.find((r) => r.id === o.body?.order_id);
        expect(row, `order ${o.body?.order_id}`).toMatchObject({ status: 'paid' });
        expect(charges.filter((c) => c.orderId === o.body?.order_id)).toHaveLength(1);
      }
      expect(rows.map((r) => r.id).sort()).toEqual(placed.map((o) => o.body!.order_id!).sort());
    } finally {
      await database.close();
    }
  }, 180_000);
});
