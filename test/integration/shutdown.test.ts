// SIGTERM under load (docs/operations.md, Shutdown): `node dist/main.js` (embedded: dev server,
// PGlite, worker, API) is stopped while a stream of quotes and live orders runs. It must exit 0
// without an error line, answer every request it started (a refused connection after the listener
// closed is fine, a reset mid-request is not) and leave no order half placed. A quote whose media
// answers slowly is surely in flight when the signal comes: it must still get its whole answer.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, fetch } from 'undici';
import { openDatabase } from '../../src/db/connection.js';
import { ledgerEntries, orders } from '../../src/db/schema.js';
import { close, freePort, listen, waitFor } from '../helpers/net.js';
import { startMediaServer, wavFile, type MediaServer } from '../helpers/mediaServer.js';
import { auditLedger } from '../helpers/ledgerAudit.js';

interface Outcome {
  kind: 'quote' | 'live';
  key: string;
  /** The HTTP status, when answered. */
  status?: number;
  /** The answer, read to its end and parsed (undefined: not JSON). */
  body?: { mode?: string; order_id?: number; status?: string; seconds?: number; order_total?: number; delivery_estimate?: string };
  /** The connection error's code, when not answered (or the body was cut). */
  error?: string;
  /** performance.now() when the request was sent, and when its answer was read to the end (or failed). */
  startedAt: number;
  endedAt: number;
}

/** A whole success answer: 200 and the JSON of a quote, or of a placed order. */
const answeredInFull = (o: Outcome): boolean =>
  o.status === 200 &&
  o.body?.status === 'success' &&
  typeof o.body.order_total === 'number' &&
  typeof o.body.delivery_estimate === 'string' &&
  (o.kind === 'quote' ? o.body.mode === 'test' : o.body.mode === 'live' && typeof o.body.order_id === 'number');

/** Audio whose answer starts only after `delayMs`: a quote for it is still being measured for that long. */
async function startSlowMedia(delayMs: number): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '/');
    const body = wavFile(30);
    setTimeout(() => res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length }).end(body), delayMs);
  });
  return { url: await listen(server), requests, server };
}

const errorCode = (err: unknown): string => {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(err);
};

describe('shutdown on SIGTERM under load', () => {
  let dataDir: string;
  let media: MediaServer;
  let slowMedia: Awaited<ReturnType<typeof startSlowMedia>>;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'order-shutdown-'));
    media = await startMediaServer();
    slowMedia = await startSlowMedia(1500);
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await media?.close();
    if (slowMedia) await close(slowMedia.server);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops accepting, answers what is in flight, drains the worker and exits 0 with the money right', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      ENGINE_PORT: String(await freePort()),
      AI_ENGINE: 'operator',
      ALIGN_ENGINE: 'operator',
      QUALITY_CHECK_PROBABILITY: '0',
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_READS_PER_MINUTE: '100000',
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    const service = spawn(process.execPath, ['dist/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = service;
    let output = '';
    service.stdout!.on('data', (d) => {
      output += d;
    });
    service.stderr!.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));
    await waitFor(() => /"msg":"started"/.test(output) || (service.exitCode !== null && Promise.reject(new Error(output))), 'the service to start', 90_000);
    const token = /api_token: (\S+)/.exec(output)?.[1];
    expect(token).toBeDefined();
    const base = `http://127.0.0.1:${port}`;

    let seq = 0;
    const outcomes: Outcome[] = [];
    // Keep-alive connections, reused only well within the server's keep-alive timeout (5 s): a client
    // that reuses one as the server times it out gets a reset with or without a shutdown (a stall of the
    // loaded test process past the default 2 s margin did that once), and that is not what is tested.
    const clientAgent = new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 });
    const send = async (kind: Outcome['kind'], url = media.audio(60)): Promise<Outcome> => {
      const key = `shutdown-${++seq}`;
      const startedAt = performance.now();
      try {
        const res = await fetch(`${base}/api/v4/transcriptions`, {
          dispatcher: clientAgent,
          method: 'POST',
          headers: kind === 'live' ? { 'Idempotency-Key': key } : {},
          body: new URLSearchParams({ api_token: token!, mode: kind === 'live' ? 'live' : 'test', url, language: 'english' }),
        });
        // Read to the end: a connection cut mid-body is an error here, not an empty body.
        const text = await res.text();
        const endedAt = performance.now();
        let body: Outcome['body'];
        try {
          body = JSON.parse(text) as Outcome['body'];
        } catch {
          body = undefined;
        }
        return { kind, key, status: res.status, body, startedAt, endedAt };
      } catch (err) {
        return { kind, key, error: errorCode(err), startedAt, endedAt: performance.now() };
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
    // A quote the service is measuring (its media has been asked for and answers in 1.5 s) when the signal comes.
    const slowUrl = `${slowMedia.url}/slow-${Date.now()}.wav`;
    const slow = send('quote', slowUrl).then((o) => {
      outcomes.push(o);
      return o;
    });
    await waitFor(() => slowMedia.requests.length > 0, 'the slow quote to ask for its media', 10_000);
    const signalAt = performance.now();
    service.kill('SIGTERM');
    const [slowOutcome] = await Promise.all([slow, streams]);
    expect(await exited).toBe(0);
    child = undefined;
    await clientAgent.close();

    // No error logged on the way out.
    expect(output).toContain('"msg":"stopping"');
    expect(output).not.toMatch(/shutdown step failed|worker failed|IllegalStateError|"level":"error"|\bERROR\b/);

    // Every request was answered, or refused before it started (the listener was closed).
    const unanswered = outcomes.filter((o) => o.error !== undefined);
    expect(
      unanswered.filter((o) => o.error !== 'ECONNREFUSED'),
      JSON.stringify(unanswered),
    ).toEqual([]);
    expect(outcomes.filter((o) => o.status !== undefined && o.status >= 500 && o.status !== 503)).toEqual([]);
    const placed = outcomes.filter((o) => o.kind === 'live' && o.status === 200);
    expect(outcomes.filter((o) => o.kind === 'quote' && o.status === 200).length).toBeGreaterThan(5);
    // Requests in flight when the signal came (sent before it, finished after it) were answered in
    // full: the slow quote surely, and whatever of the stream was under way.
    expect(slowOutcome, JSON.stringify(slowOutcome)).toMatchObject({ status: 200, body: { mode: 'test', status: 'success', seconds: 30 } });
    expect(slowOutcome.startedAt).toBeLessThan(signalAt);
    expect(slowOutcome.endedAt).toBeGreaterThan(signalAt);
    const inFlight = outcomes.filter((o) => o.startedAt < signalAt && o.endedAt > signalAt);
    expect(inFlight.filter(answeredInFull).length, JSON.stringify(inFlight)).toBeGreaterThanOrEqual(1);
    // (A request sent just before the signal may yet have found the port closed: refused, checked above.)
    expect(
      inFlight.filter((o) => o.error === undefined && !answeredInFull(o)),
      JSON.stringify(inFlight),
    ).toEqual([]);

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
