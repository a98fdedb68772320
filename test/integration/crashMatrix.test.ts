// The crash matrix: the worker role runs as its own process and is killed with SIGKILL before a
// charge commits, after it commits but before the activity reports, between a refund and its
// report, and after a receiver took a callback but before it was recorded. A supervisor restarts
// it, as systemd or Kubernetes would. Each run places orders, settles them at random (complete,
// refund, cancel) and then checks: every order debited exactly once, refunds only for refunded or
// canceled orders, every settled order's callback delivered at least once, and the ledger audit.
// CRASH_RUNS (default: one per crash point) and CRASH_SEED repeat it with more randomness.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/legs.js';
import { inArray } from 'drizzle-orm';
import { startService, type TestService } from '../helpers/service.js';
import { startMediaServer, type MediaServer } from '../helpers/mediaServer.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/callbackReceiver.js';
import { superviseWorker } from '../helpers/workerProcess.js';
import { waitFor } from '../helpers/net.js';
import { auditLedger } from '../helpers/ledgerAudit.js';
import { seededRandom } from '../helpers/random.js';
import { orders } from '../../src/db/schema.js';
import { callbackAttemptsOf } from '../../src/db/orders.js';
import type { CrashPoint } from '../../src/runtime/crashPoints.js';

const POINTS: CrashPoint[] = ['before-charge-commit', 'after-charge-commit', 'after-refund-commit', 'mid-callback'];
const RUNS = Number(process.env.CRASH_RUNS ?? POINTS.length);
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const ORDERS_PER_RUN = 5;
/** After the first crash of a run, each later worker crashes at each armed point with this chance. */
const LATER_CRASH_PROBABILITY = 0.2;

type Action = 'complete' | 'refund' | 'cancel';
const FINAL: Record<Action, string> = { complete: 'finished', refund: 'refunded', cancel: 'canceled' };

describeNeeding('workerProcess', 'crash matrix: the worker killed with SIGKILL at every crash point', () => {
  let service: TestService;
  let media: MediaServer;
  let receiver: CallbackReceiver;
  const children: ChildProcess[] = [];
  const random = seededRandom(SEED);
  const totals = { runs: 0, orders: 0, refused: 0, crashes: 0, doubleCharges: 0, redelivered: 0 };

  beforeAll(async () => {
    [service, media, receiver] = await Promise.all([
      // Five orders of one account at once: the fifth waits for one of its four probe slots, longer than
      // a second when worker processes are starting on a loaded machine (a 429 is not what this tests).
      startService({ engine: 'postgres', inProcessWorker: false, payment: { windowMs: 90_000, graceMs: 10_000 }, probes: { waitMs: 15_000 } }),
      startMediaServer(),
      startCallbackReceiver(),
    ]);
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    console.log(
      `crash matrix (seed ${SEED}): ${totals.runs} runs, ${totals.orders} orders placed, ${totals.refused} refused, ` +
        `${totals.crashes} worker crashes, ${totals.doubleCharges} double charges, every settled order called back ` +
        `(a run fails otherwise), ${totals.redelivered} callbacks delivered again after a crash`,
    );
    await Promise.all([service?.close(), media?.close(), receiver?.close()]);
  });

  it.each(Array.from({ length: RUNS }, (_, run) => [run, POINTS[run % POINTS.length]!] as const))(
    'run %i: first crash %s',
    async (run, firstPoint) => {
      const later = POINTS.filter(() => random() < 0.5);
      const supervisor = superviseWorker(service, children, (start) =>
        start === 0
          ? { ORDER_SERVICE_CRASH_AT: firstPoint, ORDER_SERVICE_CRASH_PROBABILITY: '1' }
          : { ORDER_SERVICE_CRASH_AT: later.join(','), ORDER_SERVICE_CRASH_PROBABILITY: String(LATER_CRASH_PROBABILITY) },
      );
      try {
        // A wallet for one order fewer than are placed: one is refused.
        const { token } = await service.createAccount((ORDERS_PER_RUN - 1) * 1.25);
        const callbackUrl = `${receiver.url}/run-${run}`;
        const placed = await Promise.all(
          Array.from({ length: ORDERS_PER_RUN }, () =>
            service.post('/api/v4/transcriptions', {
              api_token: token,
              mode: 'live',
              url: media.audio(60),
              language: 'english',
              callback_url: callbackUrl,
            }),
          ),
        );
        // Each order is placed (200) or refused for the wallet (one 400). Crashes that keep every
        // worker away past an order's payment window leave it untaken (503, nothing charged: the
        // ledger audit below holds), never a 400, which would tell the client the request was wrong.
        const statuses = placed.map((p) => p.status).sort();
        const bodies = JSON.stringify(placed.map((p) => p.body));
        for (const p of placed) {
          if (p.status === 400) expect(p.body.error, bodies).toMatch(/^insufficient funds: /);
          else if (p.status === 503) expect(p.body.error, bodies).toMatch(/not paid in time; nothing was charged|was not confirmed within/);
          else expect(p.status, bodies).toBe(200);
        }
        if (!statuses.includes(503)) expect(statuses, bodies).toEqual([...Array(ORDERS_PER_RUN - 1).fill(200), 400]);
        expect(statuses.filter((s) => s === 400).length, bodies).toBeLessThanOrEqual(1);
        const orderIds: number[] = placed.filter((p) => p.status === 200).map((p) => p.body.order_id);

        // The first order is completed and the second refunded or canceled, so every crash point is on the way.
        const pick = (i: number): Action =>
          i === 0
            ? 'complete'
            : i === 1
              ? random() < 0.5
                ? 'refund'
                : 'cancel'
              : (['complete', 'complete', 'refund', 'cancel'] as const)[Math.floor(random() * 4)]!;
        const actions = new Map<number, Action>(orderIds.map((id, i) => [id, pick(i)]));
        const answers = await Promise.all(
          orderIds.map((id) => {
            const action = actions.get(id)!;
            return action === 'complete' ? service.complete(id, `run-${run}.txt`, 'Hello.') : service.ops('POST', `/ops/orders/${id}/${action}`, {});
          }),
        );
        expect(answers.map((a) => a.status)).toEqual(orderIds.map(() => 200));

        // Every order reaches its state and its callback arrives, whatever crashed on the way.
        const delivered = (id: number) => receiver.received.filter((c) => c.path === `/run-${run}` && c.fields.order_id === String(id));
        // A transcription's finished callback carries no status field; the others name theirs.
        const statusOf = (fields: Record<string, string>) => fields.status ?? 'finished';
        let seen = '';
        await waitFor(
          async () => {
            const rows = await service.database.db.select().from(orders).where(inArray(orders.id, orderIds));
            seen = rows
              .map(
                (o) =>
                  `${o.id} ${o.status} (wanted ${FINAL[actions.get(o.id)!]}), callbacks: ${
                    delivered(o.id)
                      .map((c) => statusOf(c.fields))
                      .join(' ') || 'none'
                  }`,
              )
              .join('; ');
            return rows.every((o) => o.status === FINAL[actions.get(o.id)!] && delivered(o.id).some((c) => statusOf(c.fields) === o.status));
          },
          `run ${run}: every order settled and called back`,
          150_000,
        ).catch(async (err: Error) => {
          const attempts = await Promise.all(orderIds.map((id) => callbackAttemptsOf(service.database.db, id)));
          throw new Error(`${err.message}: ${seen}; attempts: ${JSON.stringify(attempts.flat().map((a) => [a.orderId, a.event, a.outcome, a.detail]))}`);
        });

        const audit = await auditLedger(service.database.db);
        totals.doubleCharges += audit.problems.filter((p) => /: \d+ charges$/.test(p)).length;
        expect(audit.problems).toEqual([]);
        for (const id of orderIds) {
          const calls = delivered(id);
          // Deliveries again after a crash carry the id of the first, so receivers can drop them.
          expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
          totals.redelivered += calls.length - 1;
        }
        totals.runs++;
        totals.orders += orderIds.length;
        totals.refused += ORDERS_PER_RUN - orderIds.length;
      } finally {
        await supervisor.stop();
        totals.crashes += supervisor.crashes;
      }
      expect(supervisor.crashes).toBeGreaterThanOrEqual(1);
    },
    300_000,
  );
});
